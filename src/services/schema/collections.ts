import type { Actor } from '../../auth/actor.js';
import type { Permission } from '../../auth/permissions.js';
import { isoNow } from '../../core/clock.js';
import { CmsError, issuesError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import { SLUG_PATTERN } from '../fields/types.js';
import { createEntryTable, dropEntryTable, entryTable, SYSTEM_COLUMN_NAMES } from './ddl.js';
import { collectionOf, type SchemaDeps } from './deps.js';
import { type AddFieldInput, addFieldInTransaction } from './fields.js';
import { type CollectionInfo, DEFAULT_SUPPORTS, type SchemaSnapshot, type Support } from './model.js';
import { applyOrder, writePositions } from './order.js';
import { type CollectionSummary, type CollectionView, collectionSummary, collectionView } from './present.js';
import { deleteRelationsOfCollection } from './relations.js';
import { encodeUrlPattern, type UrlPattern, urlPatternIssues } from './url-pattern.js';

export interface CreateCollectionInput {
  slug: string;
  label: string;
  labelSingular?: string;
  description?: string | null;
  icon?: string | null;
  supports?: Support[];
  urlPattern?: UrlPattern | null;
  sortOrder?: number;
  fields?: AddFieldInput[];
}

export interface UpdateCollectionInput {
  label?: string;
  labelSingular?: string;
  description?: string | null;
  icon?: string | null;
  supports?: Support[];
  urlPattern?: UrlPattern | null;
  sortOrder?: number;
}

/** Collection slugs become table names `ec_<slug>` (PostgreSQL identifiers stop at 63 bytes). */
export const MAX_COLLECTION_SLUG = 60;

export function checkCollectionSlug(slug: string): void {
  if (!SLUG_PATTERN.test(slug) || slug.length > MAX_COLLECTION_SLUG) {
    throw issuesError('Invalid collection slug', [
      {
        path: ['slug'],
        code: 'invalid_slug',
        message: `must match ^[a-z][a-z0-9_]*$ and be at most ${MAX_COLLECTION_SLUG} characters`,
      },
    ]);
  }
}

export function collectionOps(deps: SchemaDeps) {
  const { ctx } = deps;

  async function list(actor: Actor): Promise<CollectionSummary[]> {
    const snap = await deps.read(actor);
    return [...snap.collections.values()].sort(bySidebar).map(collectionSummary);
  }

  async function get(actor: Actor, slug: string): Promise<CollectionView> {
    const snap = await deps.read(actor);
    return collectionView(collectionOf(snap, slug), snap);
  }

  async function create(actor: Actor, input: CreateCollectionInput): Promise<CollectionView> {
    checkCollectionSlug(input.slug);
    checkUrlPattern(input.urlPattern);
    const slug = input.slug;
    await deps.write(actor, async (trx, snap) => {
      if (snap.collections.has(slug)) throw new CmsError('ALREADY_EXISTS', `Collection "${slug}" already exists`);
      const table = entryTable(slug);
      const now = isoNow(ctx.clock);
      const id = newId();
      const sortOrder = input.sortOrder ?? nextSortOrder(snap);
      await trx
        .insertInto('_cms_collections')
        .values({
          id,
          slug,
          label: input.label.trim(),
          label_singular: (input.labelSingular ?? input.label).trim(),
          description: input.description ?? null,
          icon: input.icon ?? null,
          supports: JSON.stringify(normalizeSupports(input.supports ?? DEFAULT_SUPPORTS)),
          url_pattern: encodeUrlPattern(input.urlPattern ?? null),
          sort_order: sortOrder,
          source: 'api',
          created_at: now,
          updated_at: now,
        })
        .execute();
      try {
        await createEntryTable(trx, ctx.dialect, table, []);
      } catch (err) {
        throw new CmsError(
          'ALREADY_EXISTS',
          `Table ${table} already exists; register it from the orphaned tables instead`,
          {
            cause: (err as Error).message.split('\n')[0],
          },
        );
      }
      let fresh = await deps.cache.fresh(trx);
      for (const [i, field] of (input.fields ?? []).entries()) {
        await addFieldInTransaction(deps, trx, fresh, slug, { ...field, sortOrder: field.sortOrder ?? i }, [
          'fields',
          i,
        ]);
        fresh = await deps.cache.fresh(trx);
      }
    });
    return get(actor, slug);
  }

  async function update(actor: Actor, slug: string, input: UpdateCollectionInput): Promise<CollectionView> {
    checkUrlPattern(input.urlPattern);
    await deps.write(actor, async (trx, snap) => {
      const c = collectionOf(snap, slug);
      const patch: Record<string, unknown> = { updated_at: isoNow(ctx.clock) };
      if (input.label !== undefined) patch.label = input.label.trim();
      if (input.labelSingular !== undefined) patch.label_singular = input.labelSingular.trim();
      if (input.description !== undefined) patch.description = input.description;
      if (input.icon !== undefined) patch.icon = input.icon;
      if (input.supports !== undefined) patch.supports = JSON.stringify(normalizeSupports(input.supports));
      if (input.urlPattern !== undefined) patch.url_pattern = encodeUrlPattern(input.urlPattern);
      if (input.sortOrder !== undefined) patch.sort_order = input.sortOrder;
      await trx.updateTable('_cms_collections').set(patch).where('id', '=', c.id).execute();
    });
    return get(actor, slug);
  }

  /**
   * Turn one `supports` flag on or off for a service that owns its meaning and
   * checks its own permission (search:manage for `search`). `inside` runs first
   * in the same transaction, so the service's settings and the flag commit together
   * (and the schema listeners see both).
   */
  async function setSupport(
    actor: Actor,
    slug: string,
    support: Support,
    on: boolean,
    opts: { permission: Permission; inside?: (trx: Kdb, c: CollectionInfo) => Promise<void> },
  ): Promise<void> {
    await deps.writeAs(actor, opts.permission, async (trx, snap) => {
      const c = collectionOf(snap, slug);
      await opts.inside?.(trx, c);
      const supports = on ? normalizeSupports([...c.supports, support]) : c.supports.filter((s) => s !== support);
      await trx
        .updateTable('_cms_collections')
        .set({ supports: JSON.stringify(supports), updated_at: isoNow(ctx.clock) })
        .where('id', '=', c.id)
        .execute();
    });
  }

  /** Drops the table and every value in it. Cannot be undone. */
  async function remove(actor: Actor, slug: string): Promise<{ deleted: true; slug: string }> {
    await deps.write(actor, async (trx, snap) => {
      const c = collectionOf(snap, slug);
      await deleteRelationsOfCollection(trx, snap, c.id);
      await trx.deleteFrom('_cms_fields').where('collection_id', '=', c.id).execute();
      await trx.deleteFrom('_cms_collections').where('id', '=', c.id).execute();
      await dropEntryTable(trx, c.table);
    });
    return { deleted: true, slug };
  }

  /** Admin sidebar order: listed slugs first, in the order given; the rest keep their order after them. */
  async function reorder(actor: Actor, slugs: string[]): Promise<CollectionSummary[]> {
    await deps.write(actor, async (trx, snap) => {
      const ordered = applyOrder(
        [...snap.collections.values()].sort(bySidebar).map((c) => c.slug),
        slugs,
        'collection',
      );
      await writePositions(
        trx,
        '_cms_collections',
        ordered.map((s) => snap.collections.get(s)!.id),
      );
    });
    return list(actor);
  }

  /** Patterns are checked against the configured locales (the request schema checks their shape too). */
  function checkUrlPattern(pattern: UrlPattern | null | undefined): void {
    if (pattern === undefined) return;
    const issues = urlPatternIssues(pattern, ctx.config.i18n);
    if (issues.length) throw issuesError('Invalid URL pattern', issues);
  }

  return { list, get, create, update, remove, reorder, setSupport };
}

function bySidebar(a: { sortOrder: number; slug: string }, b: { sortOrder: number; slug: string }): number {
  return a.sortOrder - b.sortOrder || a.slug.localeCompare(b.slug);
}

function nextSortOrder(snap: SchemaSnapshot): number {
  let max = -1;
  for (const c of snap.collections.values()) max = Math.max(max, c.sortOrder);
  return max + 1;
}

/** A supports list as stored: each feature once. */
export function normalizeSupports(list: Support[]): Support[] {
  return [...new Set(list)];
}

export { SYSTEM_COLUMN_NAMES };
