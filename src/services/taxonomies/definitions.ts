import { type Actor, requirePermission } from '../../auth/actor.js';
import { cursorText, decodeCursor, encodeCursor } from '../../core/cursor.js';
import { CmsError, issuesError, notFound, type ValidationIssue } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import { isUniqueViolation, retryOnUniqueRace } from '../../db/errors.js';
import type { TaxonomiesTable, TaxonomyDefsTable } from '../../db/tables-structure.js';
import { inTransaction } from '../context.js';
import { resolveLocale } from '../locales.js';
import { removeItemsTargeting } from '../menus/cleanup.js';
import { loadTaxonomy, lockTaxonomy, now, type TaxonomyDeps } from './deps.js';
import { collectionsOf, type TaxonomyView, taxonomyView } from './model.js';

export interface TaxonomyCreateInput {
  /** Required unless `translationOf` names a definition (the name is then taken from it). */
  name?: string;
  label: string;
  labelSingular?: string;
  hierarchical?: boolean;
  collections?: string[];
  locale?: string;
  /** ID of a definition of the same taxonomy in another locale. */
  translationOf?: string;
}

export interface TaxonomyUpdateInput {
  label?: string;
  labelSingular?: string;
  hierarchical?: boolean;
  collections?: string[];
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

/**
 * Taxonomy definitions (spec rules 1–5): one definition per locale carries
 * the labels; `hierarchical` and `collections` belong to the taxonomy and are
 * stored once, so they are identical in every locale by construction.
 */
export function definitionOps(deps: TaxonomyDeps) {
  const { ctx } = deps;
  const configured = () => ctx.config.i18n.locales;

  /** Definitions of configured locales; others stay stored, untouched (rule 6). */
  async function defsOf(db: Kdb, names: string[]): Promise<TaxonomyDefsTable[]> {
    if (!names.length) return [];
    return db
      .selectFrom('_cms_taxonomy_defs')
      .selectAll()
      .where('taxonomy', 'in', names)
      .where('locale', 'in', configured())
      .orderBy('locale')
      .execute();
  }

  /** The definition shown when no locale is asked for: the default locale's, else the lowest locale code's. */
  function preferred(defs: TaxonomyDefsTable[], locale: string): TaxonomyDefsTable | undefined {
    return (
      defs.find((d) => d.locale === locale) ??
      defs.find((d) => d.locale === ctx.config.i18n.defaultLocale) ??
      [...defs].sort((a, b) => (a.locale < b.locale ? -1 : 1))[0]
    );
  }

  async function view(db: Kdb, name: string, pick: (defs: TaxonomyDefsTable[]) => TaxonomyDefsTable | undefined) {
    const tax = await loadTaxonomy(db, name);
    const defs = await defsOf(db, [name]);
    const def = pick(defs);
    if (!def) throw notFound(`Taxonomy "${name}" in this locale`);
    return taxonomyView(
      tax,
      def,
      defs.map((d) => d.locale),
    );
  }

  async function checkCollections(collections: string[]): Promise<string[]> {
    const snap = await deps.schema.snapshot();
    const issues: ValidationIssue[] = [];
    collections.forEach((slug, i) => {
      if (!snap.collections.has(slug)) {
        issues.push({ path: ['collections', i], code: 'unknown_collection', message: `no collection "${slug}"` });
      }
    });
    if (issues.length) throw issuesError('Unknown collections', issues);
    return [...new Set(collections)];
  }

  async function list(
    actor: Actor,
    opts: { locale?: string; cursor?: string; limit?: number },
  ): Promise<{ items: TaxonomyView[]; nextCursor?: string }> {
    requirePermission(actor, 'taxonomies:read');
    const locale = resolveLocale(ctx.config, opts.locale);
    const limit = opts.limit ?? 50;
    let q = ctx.db.selectFrom('_cms_taxonomies').selectAll();
    if (opts.cursor) q = q.where('name', '>', decodeCursor(opts.cursor, [cursorText])[0]);
    const rows = await q
      .orderBy('name')
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit);
    const defs = await defsOf(
      ctx.db,
      page.map((r) => r.name),
    );
    const items: TaxonomyView[] = [];
    for (const tax of page) {
      const mine = defs.filter((d) => d.taxonomy === tax.name);
      const def = preferred(mine, locale);
      if (def)
        items.push(
          taxonomyView(
            tax,
            def,
            mine.map((d) => d.locale),
          ),
        );
    }
    return {
      items,
      ...(rows.length > limit ? { nextCursor: encodeCursor([page[page.length - 1].name]) } : {}),
    };
  }

  /** Rule 1: with `locale` that locale's definition; without, the default locale's, else the lowest locale code's. */
  async function get(actor: Actor, name: string, locale?: string): Promise<TaxonomyView> {
    requirePermission(actor, 'taxonomies:read');
    if (locale !== undefined) {
      const wanted = resolveLocale(ctx.config, locale);
      return view(ctx.db, name, (defs) => defs.find((d) => d.locale === wanted));
    }
    return view(ctx.db, name, (defs) => preferred(defs, ctx.config.i18n.defaultLocale));
  }

  /** Rule 3: a name that exists in another locale gets a locale variant (with or without translationOf). */
  async function create(actor: Actor, input: TaxonomyCreateInput): Promise<TaxonomyView> {
    requirePermission(actor, 'taxonomies:manage');
    const locale = resolveLocale(ctx.config, input.locale);
    let name = input.name;
    if (input.translationOf !== undefined) {
      const source = await ctx.db
        .selectFrom('_cms_taxonomy_defs')
        .select('taxonomy')
        .where('id', '=', input.translationOf)
        .executeTakeFirst();
      if (!source) {
        throw issuesError('translationOf names no taxonomy definition', [
          { path: ['translationOf'], code: 'not_found', message: 'no taxonomy definition with this ID' },
        ]);
      }
      if (name !== undefined && name !== source.taxonomy) {
        throw issuesError('A translation keeps the taxonomy name', [
          { path: ['name'], code: 'mismatch', message: `translationOf belongs to taxonomy "${source.taxonomy}"` },
        ]);
      }
      name = source.taxonomy;
    }
    if (name === undefined) {
      throw issuesError('name is required', [{ path: ['name'], code: 'required', message: 'required' }]);
    }
    const taxonomyName = name;
    const collections = input.collections ? await checkCollections(input.collections) : undefined;
    const at = now(deps);
    try {
      // Two first definitions of one new name race on the taxonomy row: the loser retries as a locale variant.
      await retryOnUniqueRace(
        () =>
          inTransaction(ctx.db, async (trx) => {
            const existing = await trx
              .selectFrom('_cms_taxonomies')
              .selectAll()
              .where('name', '=', taxonomyName)
              .executeTakeFirst();
            if (existing) {
              const issues: ValidationIssue[] = [];
              if (input.hierarchical !== undefined && input.hierarchical !== (existing.hierarchical === 1)) {
                issues.push({
                  path: ['hierarchical'],
                  code: 'differs_from_taxonomy',
                  message: `taxonomy "${taxonomyName}" is ${existing.hierarchical === 1 ? '' : 'not '}hierarchical in every locale`,
                });
              }
              if (collections && !sameSet(collections, collectionsOf(existing))) {
                issues.push({
                  path: ['collections'],
                  code: 'differs_from_taxonomy',
                  message: `taxonomy "${taxonomyName}" applies to [${collectionsOf(existing).join(', ')}] in every locale`,
                });
              }
              if (issues.length)
                throw issuesError('A locale variant takes the taxonomy’s hierarchical and collections', issues);
            } else {
              await trx
                .insertInto('_cms_taxonomies')
                .values({
                  name: taxonomyName,
                  hierarchical: input.hierarchical ? 1 : 0,
                  collections: JSON.stringify(collections ?? []),
                  created_at: at,
                  updated_at: at,
                })
                .execute();
            }
            const taken = await trx
              .selectFrom('_cms_taxonomy_defs')
              .select('id')
              .where('taxonomy', '=', taxonomyName)
              .where('locale', '=', locale)
              .executeTakeFirst();
            if (taken) {
              throw new CmsError('ALREADY_EXISTS', `Taxonomy "${taxonomyName}" already has a ${locale} definition`, {
                id: taken.id,
              });
            }
            await trx
              .insertInto('_cms_taxonomy_defs')
              .values({
                id: newId(),
                taxonomy: taxonomyName,
                locale,
                label: input.label,
                label_singular: input.labelSingular ?? input.label,
                created_at: at,
                updated_at: at,
              })
              .execute();
          }),
        3,
      );
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new CmsError('ALREADY_EXISTS', `Taxonomy "${taxonomyName}" already has a ${locale} definition`);
      }
      throw err;
    }
    return view(ctx.db, taxonomyName, (defs) => defs.find((d) => d.locale === locale));
  }

  /**
   * Rules 2 and 4: without `locale` the lowest locale code's definition
   * changes; a locale without a definition is NOT_FOUND. `hierarchical` and
   * `collections` change for every locale.
   */
  async function update(
    actor: Actor,
    name: string,
    locale: string | undefined,
    input: TaxonomyUpdateInput,
  ): Promise<TaxonomyView> {
    requirePermission(actor, 'taxonomies:manage');
    const wanted = locale === undefined ? undefined : resolveLocale(ctx.config, locale);
    const collections = input.collections ? await checkCollections(input.collections) : undefined;
    const at = now(deps);
    const defId = await inTransaction(ctx.db, async (trx) => {
      const tax = await lockTaxonomy(deps, trx, name);
      const defs = await defsOf(trx, [name]);
      const def = wanted === undefined ? defs[0] : defs.find((d) => d.locale === wanted);
      if (!def) throw notFound(`Taxonomy "${name}" in locale ${wanted ?? '(any)'}`);
      const taxPatch: Partial<TaxonomiesTable> = {};
      if (input.hierarchical !== undefined && input.hierarchical !== (tax.hierarchical === 1)) {
        if (!input.hierarchical) await refuseIfNested(trx, name);
        taxPatch.hierarchical = input.hierarchical ? 1 : 0;
      }
      if (collections) taxPatch.collections = JSON.stringify(collections);
      if (Object.keys(taxPatch).length) {
        await trx
          .updateTable('_cms_taxonomies')
          .set({ ...taxPatch, updated_at: at })
          .where('name', '=', name)
          .execute();
      }
      const defPatch: Partial<TaxonomyDefsTable> = {};
      if (input.label !== undefined) defPatch.label = input.label;
      if (input.labelSingular !== undefined) defPatch.label_singular = input.labelSingular;
      if (Object.keys(defPatch).length) {
        await trx
          .updateTable('_cms_taxonomy_defs')
          .set({ ...defPatch, updated_at: at })
          .where('id', '=', def.id)
          .execute();
      }
      return def.id;
    });
    return view(ctx.db, name, (defs) => defs.find((d) => d.id === defId));
  }

  /** A flat taxonomy has no parents: making a nested one flat would silently drop its tree. */
  async function refuseIfNested(trx: Kdb, name: string): Promise<void> {
    const nested = await trx
      .selectFrom('_cms_terms')
      .select('id')
      .where('taxonomy', '=', name)
      .where('parent_group', 'is not', null)
      .limit(1)
      .executeTakeFirst();
    if (nested) {
      throw issuesError('Terms still have parents', [
        {
          path: ['hierarchical'],
          code: 'has_nested_terms',
          message: 'move every term to the top level before making the taxonomy flat',
        },
      ]);
    }
  }

  /** Rule 5: every locale's definition, all terms and all their assignments go; entries stay. */
  async function remove(actor: Actor, name: string): Promise<{ deleted: true; name: string }> {
    requirePermission(actor, 'taxonomies:manage');
    const at = now(deps);
    await inTransaction(ctx.db, async (trx) => {
      await lockTaxonomy(deps, trx, name);
      const groups = (
        await trx.selectFrom('_cms_terms').select('translation_group').distinct().where('taxonomy', '=', name).execute()
      ).map((r) => r.translation_group);
      await removeItemsTargeting(trx, 'term', groups, at);
      const termGroups = trx.selectFrom('_cms_terms').select('translation_group').where('taxonomy', '=', name);
      await trx.deleteFrom('_cms_term_counted').where('term_group', 'in', termGroups).execute();
      await trx.deleteFrom('_cms_term_counts').where('term_group', 'in', termGroups).execute();
      await trx.deleteFrom('_cms_content_terms').where('taxonomy', '=', name).execute();
      await trx.deleteFrom('_cms_terms').where('taxonomy', '=', name).execute();
      await trx.deleteFrom('_cms_taxonomy_defs').where('taxonomy', '=', name).execute();
      await trx.deleteFrom('_cms_taxonomies').where('name', '=', name).execute();
    });
    return { deleted: true, name };
  }

  /** Every configured locale's definition (REST and MCP: supplies the IDs translationOf takes). */
  async function translations(actor: Actor, name: string): Promise<{ name: string; items: TaxonomyView[] }> {
    requirePermission(actor, 'taxonomies:read');
    const tax = await loadTaxonomy(ctx.db, name);
    const defs = await defsOf(ctx.db, [name]);
    const locales = defs.map((d) => d.locale);
    return { name, items: defs.map((d) => taxonomyView(tax, d, locales)) };
  }

  return { list, get, create, update, remove, translations };
}
