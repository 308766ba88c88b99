import { type Actor, requirePermission } from '../../auth/actor.js';
import { CmsError, issuesError, notFound, type ValidationIssue } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { TaxonomiesTable } from '../../db/tables-structure.js';
import { assertCanEdit, assertCanPublish, visible } from '../content/access.js';
import type { EntryChange } from '../content/hooks.js';
import type { EntryRow } from '../content/model.js';
import { dyn, loadRow, loadRowBySlug } from '../content/rows.js';
import { inTransaction } from '../context.js';
import { localeChain, pickByChain, resolveLocale } from '../locales.js';
import type { CollectionInfo, SchemaSnapshot } from '../schema/model.js';
import { recountEntries } from './counts.js';
import { loadTaxonomy, now, type TaxonomyDeps } from './deps.js';
import { collectionsOf, type TermView } from './model.js';
import { presentTerms } from './present.js';

export const MAX_TERMS_PER_ENTRY = 100;

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export interface EntryTerms {
  taxonomy: string;
  /** Locale of the entry; terms are shown in it, else its fallback, else the default locale. */
  locale: string;
  items: TermView[];
}

/**
 * Content terms: an assignment joins an entry's translation group to a
 * term's translation group, so it spans every locale of both, and a new
 * translation carries its source's terms from the start.
 */
export function assignmentOps(deps: TaxonomyDeps) {
  const { ctx } = deps;

  async function target(
    collection: string,
    taxonomy: string,
  ): Promise<{ c: CollectionInfo; tax: TaxonomiesTable; snap: SchemaSnapshot }> {
    const snap = await deps.schema.snapshot();
    const c = snap.collections.get(collection);
    if (!c) throw notFound(`Collection "${collection}"`);
    return { c, tax: await applying(ctx.db, c, taxonomy, ['taxonomy']), snap };
  }

  /** The taxonomy, refused (at `path`) when it does not apply to the collection. */
  async function applying(db: Kdb, c: CollectionInfo, taxonomy: string, path: Array<string | number>) {
    const tax = await loadTaxonomy(db, taxonomy);
    if (!collectionsOf(tax).includes(c.slug)) {
      throw issuesError(`Taxonomy "${taxonomy}" does not apply to "${c.slug}"`, [
        {
          path,
          code: 'not_applicable',
          message: `add "${c.slug}" to the taxonomy's collections to assign its terms`,
        },
      ]);
    }
    return tax;
  }

  /** The entry by database ID, or by slug along the locale chain; hidden entries look missing. */
  async function findEntry(actor: Actor, c: CollectionInfo, ref: string, locale?: string): Promise<EntryRow> {
    let row = ULID.test(ref) ? await loadRow(ctx.db, c, ref) : undefined;
    if (!row || !visible(actor, row)) {
      row = undefined;
      for (const loc of localeChain(ctx.config, resolveLocale(ctx.config, locale))) {
        const found = await loadRowBySlug(ctx.db, c, ref, loc);
        if (found && visible(actor, found)) {
          row = found;
          break;
        }
      }
    }
    if (!row) throw notFound(`Entry "${ref}" in "${c.slug}"`);
    return row;
  }

  async function read(
    db: Kdb,
    snap: SchemaSnapshot,
    c: CollectionInfo,
    tax: TaxonomiesTable,
    entry: EntryRow,
  ): Promise<EntryTerms> {
    const assigned = await db
      .selectFrom('_cms_content_terms')
      .select('term_group')
      .where('collection_id', '=', c.id)
      .where('entry_group', '=', entry.translation_group)
      .where('taxonomy', '=', tax.name)
      .orderBy('position')
      .execute();
    const chain = localeChain(ctx.config, entry.locale);
    const groups = assigned.map((a) => a.term_group);
    const rows = groups.length
      ? await db
          .selectFrom('_cms_terms')
          .selectAll()
          .where('translation_group', 'in', groups)
          .where('locale', 'in', chain)
          .execute()
      : [];
    const best = pickByChain(rows, chain, (r) => r.translation_group);
    const ordered = groups.map((g) => best.get(g)).filter((r) => r !== undefined);
    return { taxonomy: tax.name, locale: entry.locale, items: await presentTerms(db, snap, tax, ordered) };
  }

  async function get(
    actor: Actor,
    collection: string,
    ref: string,
    taxonomy: string,
    opts: { locale?: string } = {},
  ): Promise<EntryTerms> {
    requirePermission(actor, 'content:read');
    requirePermission(actor, 'taxonomies:read');
    const { c, tax, snap } = await target(collection, taxonomy);
    return read(ctx.db, snap, c, tax, await findEntry(actor, c, ref, opts.locale));
  }

  /**
   * Replace the entry's terms of one taxonomy. The assignment belongs to the
   * whole translation group, so the caller must be allowed to change every
   * entry of the group, and to publish each one that is live (the change is
   * live at once): refused, never staged (docs/decisions.md).
   */
  async function set(
    actor: Actor,
    collection: string,
    ref: string,
    taxonomy: string,
    terms: string[],
    opts: { locale?: string } = {},
  ): Promise<EntryTerms> {
    requirePermission(actor, 'content:create');
    const { c, tax, snap } = await target(collection, taxonomy);
    const entry = await findEntry(actor, c, ref, opts.locale);
    return inTransaction(ctx.db, async (trx) => {
      await apply(trx, actor, c, tax, entry, terms);
      return read(trx, snap, c, tax, entry);
    });
  }

  /** Check the caller's right on the whole group, then replace the assignments and recount, inside `trx`. */
  async function apply(
    trx: Kdb,
    actor: Actor,
    c: CollectionInfo,
    tax: TaxonomiesTable,
    entry: EntryRow,
    terms: string[],
  ): Promise<void> {
    let groupQ = dyn(trx)
      .selectFrom(c.table)
      .selectAll()
      .where('translation_group', '=', entry.translation_group)
      .orderBy('id');
    if (ctx.dialect === 'postgres') groupQ = groupQ.forUpdate();
    const siblings: EntryRow[] = await groupQ.execute();
    for (const row of siblings) checkGroupWrite(actor, row, entry);
    const groups = await resolveTerms(trx, tax, entry.locale, terms);
    await trx
      .deleteFrom('_cms_content_terms')
      .where('collection_id', '=', c.id)
      .where('entry_group', '=', entry.translation_group)
      .where('taxonomy', '=', tax.name)
      .execute();
    const at = now(deps);
    if (groups.length) {
      await trx
        .insertInto('_cms_content_terms')
        .values(
          groups.map((g, i) => ({
            collection_id: c.id,
            entry_group: entry.translation_group,
            term_group: g,
            taxonomy: tax.name,
            position: i,
            created_at: at,
          })),
        )
        .execute();
    }
    await recountEntries(
      trx,
      c,
      siblings.map((s) => s.id),
    );
  }

  /**
   * Write listener: the terms sent with a content create or update (`change.terms`), applied in
   * the entry's own transaction, so a refused term (unknown taxonomy or term, a taxonomy that
   * does not apply, a translation the caller may not change) rolls the entry write back.
   */
  async function onWriteTerms(trx: Kdb, change: EntryChange): Promise<void> {
    if ((change.kind !== 'create' && change.kind !== 'update') || !change.terms) return;
    const named = Object.entries(change.terms);
    if (!named.length) return;
    const entry = await loadRow(trx, change.collection, change.ids[0]);
    if (!entry) return;
    for (const [taxonomy, refs] of named) {
      const tax = await applying(trx, change.collection, taxonomy, ['terms', taxonomy]);
      await apply(trx, change.actor, change.collection, tax, entry, [...refs]);
    }
  }

  /** Every taxonomy's terms of an entry (taxonomy → id, slug, label), for MCP content reads. */
  async function summary(
    collection: string,
    entry: { translationGroup: string; locale: string },
  ): Promise<Record<string, Array<{ id: string; slug: string; label: string }>>> {
    const c = (await deps.schema.snapshot()).collections.get(collection);
    if (!c) return {};
    const assigned = await ctx.db
      .selectFrom('_cms_content_terms')
      .select(['taxonomy', 'term_group'])
      .where('collection_id', '=', c.id)
      .where('entry_group', '=', entry.translationGroup)
      .orderBy('taxonomy')
      .orderBy('position')
      .execute();
    if (!assigned.length) return {};
    const applying = new Set(
      (await ctx.db.selectFrom('_cms_taxonomies').selectAll().execute())
        .filter((t) => collectionsOf(t).includes(c.slug))
        .map((t) => t.name),
    );
    const chain = localeChain(ctx.config, entry.locale);
    const rows = await ctx.db
      .selectFrom('_cms_terms')
      .select(['id', 'slug', 'label', 'locale', 'translation_group'])
      .where(
        'translation_group',
        'in',
        assigned.map((a) => a.term_group),
      )
      .where('locale', 'in', chain)
      .execute();
    const best = pickByChain(rows, chain, (r) => r.translation_group);
    const out: Record<string, Array<{ id: string; slug: string; label: string }>> = {};
    for (const a of assigned) {
      const t = best.get(a.term_group);
      if (!t || !applying.has(a.taxonomy)) continue;
      out[a.taxonomy] = [...(out[a.taxonomy] ?? []), { id: t.id, slug: t.slug, label: t.label }];
    }
    return out;
  }

  /** The caller's right on one entry of the group, with an error that says which translation is in the way. */
  function checkGroupWrite(actor: Actor, row: EntryRow, addressed: EntryRow): void {
    try {
      assertCanEdit(actor, row);
      if (row.status === 'published' && row.deleted_at === null) assertCanPublish(actor, row);
    } catch (err) {
      if (!(err instanceof CmsError) || row.id === addressed.id) throw err;
      throw new CmsError(
        err.code,
        `Terms are shared by every translation: you may not change the ${row.locale} translation (${row.id})`,
        { ...err.details, entryId: row.id, locale: row.locale },
      );
    }
  }

  /**
   * Term IDs or slugs → term translation groups, in order, without repeats.
   * A slug is looked up along the entry's locale chain (its locale, then its
   * fallback, then the default locale), the way the entry shows its terms.
   */
  async function resolveTerms(trx: Kdb, tax: TaxonomiesTable, locale: string, refs: string[]): Promise<string[]> {
    if (!refs.length) return [];
    const chain = localeChain(ctx.config, locale);
    const rows = await trx
      .selectFrom('_cms_terms')
      .select(['id', 'slug', 'locale', 'translation_group'])
      .where('taxonomy', '=', tax.name)
      .where((eb) => eb.or([eb('id', 'in', refs), eb.and([eb('locale', 'in', chain), eb('slug', 'in', refs)])]))
      .execute();
    const bySlug = (slug: string) =>
      chain.map((l) => rows.find((x) => x.locale === l && x.slug === slug)).find((x) => x !== undefined);
    const issues: ValidationIssue[] = [];
    const out: string[] = [];
    refs.forEach((r, i) => {
      const hit = bySlug(r) ?? rows.find((x) => x.id === r);
      if (!hit) issues.push({ path: ['terms', i], code: 'not_found', message: `no term "${r}" in "${tax.name}"` });
      else if (!out.includes(hit.translation_group)) out.push(hit.translation_group);
    });
    if (issues.length) throw issuesError('Unknown terms', issues);
    return out;
  }

  return { get, set, onWriteTerms, summary };
}
