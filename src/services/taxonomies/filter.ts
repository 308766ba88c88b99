import { type Expression, type SqlBool, sql } from 'kysely';
import { issuesError } from '../../core/errors.js';
import type { CollectionInfo } from '../schema/model.js';
import type { TaxonomyDeps } from './deps.js';
import { collectionsOf } from './model.js';

export const TERM_FILTER_FORMAT = '<taxonomy>:<slug>[,<slug>…]';
const MAX_SLUGS = 20;
/** Up to this many tagged entries a term counts as rare (see below). */
const RARE = 1000;

const invalid = (message: string) =>
  issuesError('Invalid term filter', [{ path: ['term'], code: 'invalid_term', message }]);

/**
 * The content list's `term` filter: entries carrying any of the named terms
 * (slugs in the list's locale) of one taxonomy. Both SQL shapes are index
 * driven; which one depends on how common the terms are.
 */
export function termFilter(deps: TaxonomyDeps) {
  return async (c: CollectionInfo, locale: string, term: string, groupColumn: string): Promise<Expression<SqlBool>> => {
    const colon = term.indexOf(':');
    if (colon < 1) throw invalid(`expected ${TERM_FILTER_FORMAT}`);
    const taxonomy = term.slice(0, colon);
    const slugs = [...new Set(term.slice(colon + 1).split(','))].filter((s) => s !== '');
    if (!slugs.length || slugs.length > MAX_SLUGS) throw invalid(`name 1 to ${MAX_SLUGS} term slugs after the colon`);
    const tax = await deps.ctx.db
      .selectFrom('_cms_taxonomies')
      .select(['name', 'collections'])
      .where('name', '=', taxonomy)
      .executeTakeFirst();
    if (!tax) throw invalid(`no taxonomy "${taxonomy}"`);
    if (!collectionsOf(tax).includes(c.slug)) throw invalid(`taxonomy "${taxonomy}" does not apply to "${c.slug}"`);
    const groups = (
      await deps.ctx.db
        .selectFrom('_cms_terms')
        .select('translation_group')
        .where('taxonomy', '=', taxonomy)
        .where('locale', '=', locale)
        .where('slug', 'in', slugs)
        .execute()
    ).map((r) => r.translation_group);
    if (!groups.length) return sql<SqlBool>`1 = 0`;
    // Two shapes, picked by how many entries carry the terms (counted up to a bound on the
    // assignment index): a rare term is best driven from its assignments (`in`), a common one by
    // walking the list's order index and probing each entry (`exists`) until the page is full.
    const matches = await deps.ctx.db
      .selectFrom('_cms_content_terms')
      .select('entry_group')
      .where('term_group', 'in', groups)
      .where('collection_id', '=', c.id)
      .limit(RARE + 1)
      .execute();
    if (!matches.length) return sql<SqlBool>`1 = 0`;
    if (matches.length <= RARE) {
      return sql<SqlBool>`${sql.ref(groupColumn)} in (select ct.entry_group from _cms_content_terms ct
        where ct.term_group in (${sql.join(groups)}) and ct.collection_id = ${c.id})`;
    }
    return sql<SqlBool>`exists (select 1 from _cms_content_terms ct where ct.collection_id = ${c.id}
      and ct.entry_group = ${sql.ref(groupColumn)} and ct.term_group in (${sql.join(groups)}))`;
  };
}
