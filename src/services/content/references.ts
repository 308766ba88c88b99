import { sql } from 'kysely';
import { cursorInteger, cursorText, decodeCursor, encodeCursor } from '../../core/cursor.js';
import { issuesError, notFound, type ValidationIssue } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { CollectionInfo, FieldInfo, RelationInfo, SchemaSnapshot } from '../schema/model.js';
import type { LinkedEntry, ReferencePage, StagedRefs } from './model.js';
import { dyn } from './rows.js';

/**
 * Reference fields view one end of a relation. Links join translation groups,
 * so every translation of an entry shares one selection.
 */
export const REFERENCE_PAGE_SIZE = 50;
export const MAX_REFERENCE_IDS = 1000;

export interface RefField {
  field: FieldInfo;
  relation: RelationInfo;
  side: 'parent' | 'child';
  /** The collection at the other end. */
  other: CollectionInfo;
}

export function refFields(snap: SchemaSnapshot, c: CollectionInfo): RefField[] {
  const out: RefField[] = [];
  for (const field of c.fields) {
    if (field.type !== 'reference' || field.column !== null) continue;
    for (const relation of snap.relations.values()) {
      const side = relation.parentFieldId === field.id ? 'parent' : relation.childFieldId === field.id ? 'child' : null;
      if (!side) continue;
      const other = snap.collectionsById.get(
        side === 'parent' ? relation.childCollectionId : relation.parentCollectionId,
      );
      if (other) out.push({ field, relation, side, other });
    }
  }
  return out;
}

/** The column used as an entry's display title: `title`, `name`, or the first text-like field. */
export function titleColumn(c: CollectionInfo): string | null {
  const candidates = c.fields.filter((f) => f.column && ['string', 'text', 'slug'].includes(f.type));
  const named =
    candidates.find((f) => f.slug === 'title') ?? candidates.find((f) => f.slug === 'name') ?? candidates[0];
  return named?.column ?? null;
}

/** Translation groups of the given entry IDs, in order; unknown or trashed IDs are issues. */
export async function groupsForIds(db: Kdb, rf: RefField, ids: string[], path: (string | number)[]): Promise<string[]> {
  const rows: Array<{ id: string; translation_group: string }> = ids.length
    ? await dyn(db)
        .selectFrom(rf.other.table)
        .select(['id', 'translation_group'])
        .where('id', 'in', [...new Set(ids)])
        .where('deleted_at', 'is', null)
        .execute()
    : [];
  const groupOf = new Map(rows.map((r) => [r.id, r.translation_group]));
  const issues: ValidationIssue[] = [];
  const groups: string[] = [];
  for (const [i, id] of ids.entries()) {
    const g = groupOf.get(id);
    if (!g) issues.push({ path: [...path, i], code: 'not_found', message: `No entry ${id} in "${rf.other.slug}"` });
    else if (!groups.includes(g)) groups.push(g);
  }
  if (issues.length) throw issuesError('Invalid references', issues);
  return groups;
}

/** The applied selection of one entry (group) for one field. */
export async function appliedSelection(db: Kdb, rf: RefField, group: string): Promise<string[]> {
  if (rf.side === 'parent') {
    const rows = await db
      .selectFrom('_cms_links')
      .select('child_group as g')
      .where('relation_id', '=', rf.relation.id)
      .where('parent_group', '=', group)
      .orderBy('position')
      .execute();
    return rows.map((r) => r.g);
  }
  const rows = await db
    .selectFrom('_cms_links')
    .select('parent_group as g')
    .where('relation_id', '=', rf.relation.id)
    .where('child_group', '=', group)
    .orderBy('parent_group')
    .execute();
  return rows.map((r) => r.g);
}

/** Relation limits on both ends: a child holds one parent unless the relation allows several. */
export async function checkLimits(
  db: Kdb,
  rf: RefField,
  group: string,
  selection: string[],
  path: (string | number)[],
): Promise<void> {
  if (rf.relation.multiple) return;
  if (rf.side === 'child') {
    if (selection.length > 1) {
      throw issuesError('Invalid references', [
        {
          path,
          code: 'too_many_parents',
          message: `"${rf.field.slug}" holds one entry (the relation does not allow several parents)`,
        },
      ]);
    }
    return;
  }
  if (!selection.length) return;
  const taken = await db
    .selectFrom('_cms_links')
    .select(['child_group', 'parent_group'])
    .where('relation_id', '=', rf.relation.id)
    .where('child_group', 'in', selection)
    .where('parent_group', '!=', group)
    .execute();
  if (!taken.length) return;
  const busy = new Set(taken.map((t) => t.child_group));
  throw issuesError(
    'Invalid references',
    selection
      .map((g, i) =>
        busy.has(g)
          ? {
              path: [...path, i],
              code: 'too_many_parents',
              message: 'that entry already has a parent in this relation',
            }
          : null,
      )
      .filter((x): x is ValidationIssue => x !== null),
  );
}

/** Replace the applied selection of one entry for one field. */
export async function applySelection(
  db: Kdb,
  rf: RefField,
  group: string,
  selection: string[],
  now: string,
): Promise<void> {
  const rel = rf.relation.id;
  if (rf.side === 'parent') {
    await db.deleteFrom('_cms_links').where('relation_id', '=', rel).where('parent_group', '=', group).execute();
    for (const [i, child] of selection.entries()) {
      await db
        .insertInto('_cms_links')
        .values({ relation_id: rel, parent_group: group, child_group: child, position: i, created_at: now })
        .execute();
    }
    return;
  }
  let q = db.deleteFrom('_cms_links').where('relation_id', '=', rel).where('child_group', '=', group);
  if (selection.length) q = q.where('parent_group', 'not in', selection);
  await q.execute();
  const existing = new Set(await appliedSelection(db, rf, group));
  for (const parent of selection) {
    if (existing.has(parent)) continue;
    // A child-end write links this entry at the end of each new parent's ordered selection.
    const max = await db
      .selectFrom('_cms_links')
      .select((eb) => eb.fn.max('position').as('m'))
      .where('relation_id', '=', rel)
      .where('parent_group', '=', parent)
      .executeTakeFirst();
    const position = max?.m === null || max?.m === undefined ? 0 : Number(max.m) + 1;
    await db
      .insertInto('_cms_links')
      .values({ relation_id: rel, parent_group: parent, child_group: group, position, created_at: now })
      .execute();
  }
}

/** Links of a translation group that is gone for good. */
export async function dropGroupLinks(db: Kdb, snap: SchemaSnapshot, c: CollectionInfo, group: string): Promise<void> {
  for (const r of snap.relations.values()) {
    if (r.parentCollectionId === c.id) {
      await db.deleteFrom('_cms_links').where('relation_id', '=', r.id).where('parent_group', '=', group).execute();
    }
    if (r.childCollectionId === c.id) {
      await db.deleteFrom('_cms_links').where('relation_id', '=', r.id).where('child_group', '=', group).execute();
    }
  }
}

export interface ReadScope {
  /** Reading locale and its fallbacks, most wanted first. */
  locales: string[];
  publishedOnly: boolean;
}

interface LinkRow {
  owner: string;
  field: string;
  pos: number;
  grp: string;
  id: string;
  slug: string | null;
  locale: string;
  status: string;
  title: string | null;
  n: number;
}

function linkSubquery(rf: RefField, owners: string[], scope: ReadScope, after?: [number, string]) {
  const t = rf.other.table;
  const title = titleColumn(rf.other);
  const ownerCol = rf.side === 'parent' ? 'parent_group' : 'child_group';
  const linkedCol = rf.side === 'parent' ? 'child_group' : 'parent_group';
  const pos = rf.side === 'parent' ? sql`l.position` : sql`0`;
  const rank = sql.join(
    scope.locales.map((loc, i) => sql`when t.locale = ${loc} then ${sql.lit(i)}`),
    sql` `,
  );
  return sql`select l.${sql.raw(ownerCol)} as owner, ${sql.lit(rf.field.slug)} as field, ${pos} as pos, l.${sql.raw(linkedCol)} as grp,
      t.id as id, t.slug as slug, t.locale as locale, t.status as status,
      ${title ? sql`cast(t.${sql.ref(title)} as text)` : sql`cast(null as text)`} as title,
      row_number() over (partition by l.${sql.raw(ownerCol)}, l.${sql.raw(linkedCol)}
        order by case ${rank} else ${sql.lit(scope.locales.length)} end, t.locale) as lrank
    from _cms_links l join ${sql.table(t)} t on t.translation_group = l.${sql.raw(linkedCol)}
    where l.relation_id = ${rf.relation.id} and l.${sql.raw(ownerCol)} in (${sql.join(owners)})
      and t.deleted_at is null ${scope.publishedOnly ? sql`and t.status = 'published'` : sql``}
      ${after && rf.side === 'parent' ? sql`and (l.position > ${after[0]} or (l.position = ${after[0]} and l.child_group > ${after[1]}))` : sql``}
      ${after && rf.side === 'child' ? sql`and l.parent_group > ${after[1]}` : sql``}`;
}

/**
 * First page of linked entries for every reference field of the given
 * entries (translation groups), in ONE statement: per linked group the best
 * locale is picked, then each field keeps its first `pageSize + 1` links.
 */
export async function readLinks(
  db: Kdb,
  fields: RefField[],
  owners: string[],
  scope: ReadScope,
  pageSize = REFERENCE_PAGE_SIZE,
  after?: [number, string],
): Promise<Map<string, Map<string, LinkRow[]>>> {
  const out = new Map<string, Map<string, LinkRow[]>>();
  if (!fields.length || !owners.length) return out;
  const union = sql.join(
    fields.map((rf) => linkSubquery(rf, owners, scope, after)),
    sql` union all `,
  );
  const { rows } = await sql<LinkRow>`select * from (
      select x.*, row_number() over (partition by x.owner, x.field order by x.pos, x.grp) as n
      from (${union}) x where x.lrank = 1
    ) y where y.n <= ${pageSize + 1} order by y.owner, y.field, y.n`.execute(db);
  for (const row of rows) {
    let byField = out.get(row.owner);
    if (!byField) {
      byField = new Map();
      out.set(row.owner, byField);
    }
    const list = byField.get(row.field) ?? [];
    list.push(row);
    byField.set(row.field, list);
  }
  return out;
}

function toLinked(rf: RefField, row: LinkRow): LinkedEntry {
  return {
    id: row.id,
    slug: row.slug,
    collection: rf.other.slug,
    title: row.title,
    locale: row.locale,
    translationGroup: row.grp,
    status: row.status,
  };
}

/** Build the `references` object of one entry from readLinks output. */
export function pagesFor(
  fields: RefField[],
  rows: Map<string, LinkRow[]> | undefined,
  nextRoute: (field: string, cursor: string) => string,
  pageSize = REFERENCE_PAGE_SIZE,
): Record<string, ReferencePage> {
  const out: Record<string, ReferencePage> = {};
  for (const rf of fields) {
    const list = rows?.get(rf.field.slug) ?? [];
    const page: ReferencePage = { items: list.slice(0, pageSize).map((r) => toLinked(rf, r)) };
    if (list.length > pageSize) {
      const last = list[pageSize - 1];
      page.nextCursor = encodeCursor([Number(last.pos), last.grp]);
      page.next = nextRoute(rf.field.slug, page.nextCursor);
    }
    out[rf.field.slug] = page;
  }
  return out;
}

/** A staged selection (draft) resolved to entries, keeping the staged order. */
export async function readStaged(
  db: Kdb,
  rf: RefField,
  groups: string[],
  scope: ReadScope,
  pageSize = REFERENCE_PAGE_SIZE,
): Promise<ReferencePage> {
  const first = groups.slice(0, pageSize);
  if (!first.length) return { items: [] };
  const title = titleColumn(rf.other);
  let q = dyn(db)
    .selectFrom(rf.other.table)
    .select(['id', 'slug', 'locale', 'status', 'translation_group'])
    .where('translation_group', 'in', first)
    .where('deleted_at', 'is', null);
  if (title) q = q.select(sql.ref(title).as('title'));
  if (scope.publishedOnly) q = q.where('status', '=', 'published');
  const rows: Array<{
    id: string;
    slug: string | null;
    locale: string;
    status: string;
    translation_group: string;
    title?: unknown;
  }> = await q.execute();
  const rank = (loc: string) => {
    const i = scope.locales.indexOf(loc);
    return i < 0 ? scope.locales.length : i;
  };
  const best = new Map<string, (typeof rows)[number]>();
  for (const r of rows) {
    const cur = best.get(r.translation_group);
    if (!cur || rank(r.locale) < rank(cur.locale) || (rank(r.locale) === rank(cur.locale) && r.locale < cur.locale)) {
      best.set(r.translation_group, r);
    }
  }
  const items: LinkedEntry[] = [];
  for (const g of first) {
    const r = best.get(g);
    if (!r) continue;
    items.push({
      id: r.id,
      slug: r.slug,
      collection: rf.other.slug,
      title: r.title === undefined || r.title === null ? null : String(r.title),
      locale: r.locale,
      translationGroup: g,
      status: r.status,
    });
  }
  return { items };
}

/** Parse the cursor of the link-traversal route. */
export function parseLinkCursor(cursor: string | undefined): [number, string] | undefined {
  if (!cursor) return undefined;
  const [pos, grp] = decodeCursor(cursor, [cursorInteger, cursorText]);
  return [pos, grp];
}

export function refFieldOf(fields: RefField[], slug: string): RefField {
  const rf = fields.find((f) => f.field.slug === slug);
  if (!rf) throw notFound(`Reference field "${slug}"`);
  return rf;
}

export type { StagedRefs };
