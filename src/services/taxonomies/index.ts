import type { Actor } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import type { ContentService } from '../content/index.js';
import type { ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
import { assignmentOps } from './assignments.js';
import { definitionOps } from './definitions.js';
import type { TaxonomyDeps } from './deps.js';
import { termFilter } from './filter.js';
import { onEntryChange } from './listener.js';
import { taxonomySchemaListener } from './schema-listener.js';
import { strayLocaleReport } from './stray.js';
import { termOps } from './terms.js';

export type { EntryTerms } from './assignments.js';
export type { TaxonomyCreateInput, TaxonomyUpdateInput } from './definitions.js';
export type { TaxonomyView, TermView } from './model.js';
export type { TermCreateInput, TermListOptions, TermUpdateInput } from './terms.js';

/**
 * Taxonomies and terms, and the terms of entries. Registers itself with the
 * content domain: entry writes keep assignments and counts in step, and the
 * content list gains its `term` filter; and with the schema domain: a deleted
 * collection takes its assignments with it.
 */
export function createTaxonomyService(ctx: ServiceContext, schema: SchemaService, content: ContentService) {
  const deps: TaxonomyDeps = { ctx, schema };
  const defs = definitionOps(deps);
  const report = strayLocaleReport(deps);
  const entryTerms = assignmentOps(deps);
  content.hooks.afterWrite('taxonomies', onEntryChange);
  content.hooks.afterWrite('taxonomies:terms-with-write', entryTerms.onWriteTerms);
  content.hooks.provideTermFilter(termFilter(deps));
  schema.hooks.afterChange(
    'taxonomies',
    taxonomySchemaListener(() => isoNow(ctx.clock)),
  );
  return {
    ...defs,
    async list(actor: Actor, opts: Parameters<typeof defs.list>[1]) {
      const page = await defs.list(actor, opts);
      await report();
      return page;
    },
    terms: termOps(deps),
    entryTerms,
  };
}

export type TaxonomyService = ReturnType<typeof createTaxonomyService>;
