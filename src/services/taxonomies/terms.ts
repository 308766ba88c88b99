import { sql } from 'kysely';
import { type Actor, requirePermission } from '../../auth/actor.js';
import { cursorInteger, cursorText, decodeCursor, encodeCursor } from '../../core/cursor.js';
import { CmsError, issuesError, notFound } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import type { TaxonomiesTable, TermsTable } from '../../db/tables-structure.js';
import { checkSlug, slugify } from '../content/slugs.js';
import { inTransaction } from '../context.js';
import { resolveLocale } from '../locales.js';
import { removeItemsTargeting } from '../menus/cleanup.js';
import type { SchemaSnapshot } from '../schema/model.js';
import { forgetTermGroups } from './counts.js';
import { loadTaxonomy, lockTaxonomy, now, type TaxonomyDeps } from './deps.js';
import type { TermView } from './model.js';
import { checkParent, nextPosition, placeGroup, reorderSiblings } from './order.js';
import { presentTerms } from './present.js';

export interface TermCreateInput {
  label: string;
  slug?: string;
  description?: string | null;
  /** A term of the same taxonomy (any locale of it); hierarchical taxonomies only. */
  parentId?: string | null;
  locale?: string;
  /** A term of the same taxonomy in another locale: the new term joins its translation group. */
  translationOf?: string;
}

export interface TermUpdateInput {
  label?: string;
  slug?: string;
  description?: string | null;
  /** Moves the term (in every locale); null moves it to the top level. */
  parentId?: string | null;
}

export interface TermListOptions {
  locale?: string;
  /** `root` for the top level, or a term ID or slug: its direct children. Omitted: every term. */
  parent?: string;
  search?: string;
  cursor?: string;
  limit?: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Terms of one taxonomy: per locale, with parents and manual order shared by each translation group. */
export function termOps(deps: TaxonomyDeps) {
  const { ctx } = deps;

  /** A term by slug in `locale`, else by ID (any locale of the taxonomy). */
  async function findTerm(db: Kdb, taxonomy: string, ref: string, locale: string): Promise<TermsTable> {
    const bySlug = await db
      .selectFrom('_cms_terms')
      .selectAll()
      .where('taxonomy', '=', taxonomy)
      .where('locale', '=', locale)
      .where('slug', '=', ref)
      .executeTakeFirst();
    if (bySlug) return bySlug;
    const byId = await db
      .selectFrom('_cms_terms')
      .selectAll()
      .where('taxonomy', '=', taxonomy)
      .where('id', '=', ref)
      .executeTakeFirst();
    if (!byId) throw notFound(`Term "${ref}" in "${taxonomy}" (${locale})`);
    return byId;
  }

  async function one(db: Kdb, snap: SchemaSnapshot, tax: TaxonomiesTable, id: string): Promise<TermView> {
    const row = await db.selectFrom('_cms_terms').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return (await presentTerms(db, snap, tax, [row]))[0];
  }

  async function slugFree(db: Kdb, taxonomy: string, locale: string, slug: string, exceptId?: string) {
    let q = db
      .selectFrom('_cms_terms')
      .select('id')
      .where('taxonomy', '=', taxonomy)
      .where('locale', '=', locale)
      .where('slug', '=', slug);
    if (exceptId) q = q.where('id', '!=', exceptId);
    return !(await q.executeTakeFirst());
  }

  async function claimSlug(db: Kdb, taxonomy: string, locale: string, slug: string, exceptId?: string) {
    const s = checkSlug(slug);
    if (!(await slugFree(db, taxonomy, locale, s, exceptId))) {
      throw new CmsError('ALREADY_EXISTS', `Slug "${s}" is already used by another ${locale} term of "${taxonomy}"`, {
        issues: [{ path: ['slug'], code: 'taken', message: 'already used in this locale' }],
      });
    }
    return s;
  }

  async function generatedSlug(db: Kdb, taxonomy: string, locale: string, label: string) {
    const root = slugify(label) || 'term';
    for (let n = 1; n <= 100; n++) {
      const candidate = n === 1 ? root : `${root}-${n}`;
      if (await slugFree(db, taxonomy, locale, candidate)) return candidate;
    }
    return `${root}-${newId().slice(-6).toLowerCase()}`;
  }

  async function list(
    actor: Actor,
    name: string,
    opts: TermListOptions,
  ): Promise<{ items: TermView[]; nextCursor?: string }> {
    requirePermission(actor, 'taxonomies:read');
    const tax = await loadTaxonomy(ctx.db, name);
    const locale = resolveLocale(ctx.config, opts.locale);
    const limit = opts.limit ?? 50;
    let q = ctx.db.selectFrom('_cms_terms').selectAll().where('taxonomy', '=', name).where('locale', '=', locale);
    if (opts.parent !== undefined) {
      if (opts.parent === 'root') q = q.where('parent_group', 'is', null);
      else q = q.where('parent_group', '=', (await findTerm(ctx.db, name, opts.parent, locale)).translation_group);
    }
    if (opts.search) {
      const pattern = `%${escapeLike(opts.search.toLowerCase())}%`;
      q = q.where((eb) =>
        eb.or([
          eb(sql`lower(label)`, 'like', sql`${pattern} escape '\\'`),
          eb(sql`lower(slug)`, 'like', sql`${pattern} escape '\\'`),
        ]),
      );
    }
    if (opts.cursor) {
      const [position, id] = decodeCursor(opts.cursor, [cursorInteger, cursorText]);
      q = q.where((eb) =>
        eb.or([eb('position', '>', position), eb.and([eb('position', '=', position), eb('id', '>', id)])]),
      );
    }
    const rows = await q
      .orderBy('position')
      .orderBy('id')
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: await presentTerms(ctx.db, await deps.schema.snapshot(), tax, page),
      ...(rows.length > limit ? { nextCursor: encodeCursor([Number(last.position), last.id]) } : {}),
    };
  }

  async function get(actor: Actor, name: string, ref: string, locale?: string): Promise<TermView> {
    requirePermission(actor, 'taxonomies:read');
    const tax = await loadTaxonomy(ctx.db, name);
    const row = await findTerm(ctx.db, name, ref, resolveLocale(ctx.config, locale));
    return (await presentTerms(ctx.db, await deps.schema.snapshot(), tax, [row]))[0];
  }

  async function create(actor: Actor, name: string, input: TermCreateInput): Promise<TermView> {
    requirePermission(actor, 'taxonomies:manage');
    const locale = resolveLocale(ctx.config, input.locale);
    const at = now(deps);
    const snap = await deps.schema.snapshot();
    return inTransaction(ctx.db, async (trx) => {
      const tax = await lockTaxonomy(deps, trx, name);
      let group = newId();
      let parent: string | null = null;
      let position: number;
      if (input.translationOf !== undefined) {
        const source = await trx
          .selectFrom('_cms_terms')
          .selectAll()
          .where('id', '=', input.translationOf)
          .where('taxonomy', '=', name)
          .executeTakeFirst();
        if (!source) {
          throw issuesError('translationOf names no term of this taxonomy', [
            { path: ['translationOf'], code: 'not_found', message: `no term ${input.translationOf} in "${name}"` },
          ]);
        }
        const taken = await trx
          .selectFrom('_cms_terms')
          .select('id')
          .where('translation_group', '=', source.translation_group)
          .where('locale', '=', locale)
          .executeTakeFirst();
        if (taken)
          throw new CmsError('ALREADY_EXISTS', `The term already has a ${locale} translation`, { id: taken.id });
        group = source.translation_group;
        parent = source.parent_group;
        position = Number(source.position);
        if (input.parentId !== undefined) {
          const asked =
            input.parentId === null ? null : await checkParent(trx, tax, input.parentId, { group, locales: [] });
          if (asked !== parent) {
            throw issuesError('A translation keeps the place of its term', [
              { path: ['parentId'], code: 'mismatch', message: 'differs from the parent of the source term' },
            ]);
          }
        }
        if (parent !== null) {
          const parentHere = await trx
            .selectFrom('_cms_terms')
            .select('id')
            .where('translation_group', '=', parent)
            .where('locale', '=', locale)
            .executeTakeFirst();
          if (!parentHere) {
            throw issuesError('The parent term is not translated', [
              {
                path: ['translationOf'],
                code: 'parent_untranslated',
                message: `the parent term has no ${locale} translation; translate it first`,
              },
            ]);
          }
        }
      } else {
        if (input.parentId) parent = await checkParent(trx, tax, input.parentId, { group: null, locales: [locale] });
        position = await nextPosition(trx, name, parent);
      }
      const slug =
        input.slug !== undefined && input.slug !== ''
          ? await claimSlug(trx, name, locale, input.slug)
          : await generatedSlug(trx, name, locale, input.label);
      const id = newId();
      await trx
        .insertInto('_cms_terms')
        .values({
          id,
          taxonomy: name,
          locale,
          translation_group: group,
          slug,
          label: input.label,
          description: input.description ?? null,
          parent_group: parent,
          position,
          created_at: at,
          updated_at: at,
        })
        .execute();
      return one(trx, snap, tax, id);
    });
  }

  async function update(
    actor: Actor,
    name: string,
    ref: string,
    locale: string | undefined,
    input: TermUpdateInput,
  ): Promise<TermView> {
    requirePermission(actor, 'taxonomies:manage');
    const loc = resolveLocale(ctx.config, locale);
    const at = now(deps);
    const snap = await deps.schema.snapshot();
    return inTransaction(ctx.db, async (trx) => {
      const tax = await lockTaxonomy(deps, trx, name);
      const term = await findTerm(trx, name, ref, loc);
      const patch: Partial<TermsTable> = {};
      if (input.slug !== undefined && input.slug !== term.slug) {
        patch.slug = await claimSlug(trx, name, term.locale, input.slug, term.id);
      }
      if (input.label !== undefined) patch.label = input.label;
      if (input.description !== undefined) patch.description = input.description;
      if (Object.keys(patch).length) {
        await trx
          .updateTable('_cms_terms')
          .set({ ...patch, updated_at: at })
          .where('id', '=', term.id)
          .execute();
      }
      if (input.parentId !== undefined) {
        const locales = (
          await trx
            .selectFrom('_cms_terms')
            .select('locale')
            .where('translation_group', '=', term.translation_group)
            .execute()
        ).map((r) => r.locale);
        const parent =
          input.parentId === null
            ? null
            : await checkParent(trx, tax, input.parentId, { group: term.translation_group, locales });
        if (parent !== term.parent_group) {
          await placeGroup(trx, term.translation_group, parent, await nextPosition(trx, name, parent), at);
        }
      }
      return one(trx, snap, tax, term.id);
    });
  }

  /**
   * Deletes one locale's term. A term with children in that locale is kept
   * until they are moved or removed; when the last locale goes, the term's
   * assignments, counts and menu items go with it.
   */
  async function remove(
    actor: Actor,
    name: string,
    ref: string,
    locale?: string,
  ): Promise<{ deleted: true; id: string; slug: string }> {
    requirePermission(actor, 'taxonomies:manage');
    const loc = resolveLocale(ctx.config, locale);
    const at = now(deps);
    return inTransaction(ctx.db, async (trx) => {
      await lockTaxonomy(deps, trx, name);
      const term = await findTerm(trx, name, ref, loc);
      const child = await trx
        .selectFrom('_cms_terms')
        .select('slug')
        .where('taxonomy', '=', name)
        .where('parent_group', '=', term.translation_group)
        .where('locale', '=', term.locale)
        .limit(1)
        .executeTakeFirst();
      if (child) {
        throw new CmsError('CONFLICT', `Term "${term.slug}" has children: move or delete them first`, {
          child: child.slug,
        });
      }
      await trx.deleteFrom('_cms_terms').where('id', '=', term.id).execute();
      const rest = await trx
        .selectFrom('_cms_terms')
        .select('id')
        .where('translation_group', '=', term.translation_group)
        .limit(1)
        .executeTakeFirst();
      if (!rest) {
        await forgetTermGroups(trx, [term.translation_group]);
        await removeItemsTargeting(trx, 'term', [term.translation_group], at);
      }
      return { deleted: true as const, id: term.id, slug: term.slug };
    });
  }

  async function reorder(actor: Actor, name: string, ids: string[]): Promise<{ items: TermView[] }> {
    requirePermission(actor, 'taxonomies:manage');
    const at = now(deps);
    const snap = await deps.schema.snapshot();
    return inTransaction(ctx.db, async (trx) => {
      const tax = await lockTaxonomy(deps, trx, name);
      const rows = await reorderSiblings(trx, tax, ids, at);
      return { items: await presentTerms(trx, snap, tax, rows) };
    });
  }

  /** Every configured locale's term of a translation group, by term ID or translation-group ID (MCP). */
  async function translations(
    actor: Actor,
    idOrGroup: string,
  ): Promise<{ translationGroup: string; items: TermView[] }> {
    requirePermission(actor, 'taxonomies:read');
    const hit = await ctx.db
      .selectFrom('_cms_terms')
      .select(['translation_group', 'taxonomy'])
      .where((eb) => eb.or([eb('id', '=', idOrGroup), eb('translation_group', '=', idOrGroup)]))
      .executeTakeFirst();
    if (!hit) throw notFound('Term');
    const tax = await loadTaxonomy(ctx.db, hit.taxonomy);
    const rows = await ctx.db
      .selectFrom('_cms_terms')
      .selectAll()
      .where('translation_group', '=', hit.translation_group)
      .where('locale', 'in', ctx.config.i18n.locales)
      .orderBy('locale')
      .execute();
    return {
      translationGroup: hit.translation_group,
      items: await presentTerms(ctx.db, await deps.schema.snapshot(), tax, rows),
    };
  }

  return { list, get, create, update, remove, reorder, translations, findTerm };
}

export type TermOps = ReturnType<typeof termOps>;
