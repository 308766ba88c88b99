import { sql } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import { issuesError, validationError } from '../../core/errors.js';
import { encodeValue } from '../../db/dialect.js';
import { normalizeDatetime } from '../fields/datetime.js';
import { COLUMN_KIND } from '../fields/types.js';
import type { CollectionInfo, FieldInfo } from '../schema/model.js';
import { canReadDrafts, requireDraftReader, requireReader } from './access.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { type ContentDeps, collectionFor, localeOf, readScope } from './deps.js';
import type { ContentItem, EntryStatus } from './model.js';
import { type ReadRow, selectForRead, toItem } from './present.js';
import { pagesFor, readLinks, refFields } from './references.js';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

export interface ListOptions {
  locale?: string;
  cursor?: string;
  page?: number;
  limit?: number;
  orderBy?: string;
  order?: 'asc' | 'desc';
  /** Indexed field slug → value or `{ eq, ne, gt, gte, lt, lte, in }`. */
  fieldFilters?: Record<string, unknown>;
  status?: EntryStatus;
  bylineId?: string;
  /** With bylineId: also entries without credits whose author is the byline's user. */
  includeAuthorByline?: boolean;
  /** Resolve each item's references (first page per field) in one batched statement. */
  includeReferences?: boolean;
}

export interface ListResult {
  items: ContentItem[];
  nextCursor?: string;
  total?: number;
}

/** System list orders; each is backed by an index of every entry table. */
const SYSTEM_ORDERS: Record<string, { column: string; defaultOrder: 'asc' | 'desc' }> = {
  createdAt: { column: 'created_at', defaultOrder: 'desc' },
  updatedAt: { column: 'updated_at', defaultOrder: 'desc' },
  publishedAt: { column: 'published_at', defaultOrder: 'desc' },
  slug: { column: 'slug', defaultOrder: 'asc' },
};

const OPERATORS = { eq: '=', ne: '!=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function indexedField(c: CollectionInfo, slug: string, param: string): FieldInfo {
  const f = c.fields.find((x) => x.slug === slug);
  if (!f?.indexed || !f.column) {
    const allowed = c.fields.filter((x) => x.indexed && x.column).map((x) => x.slug);
    throw issuesError(`"${slug}" cannot be used in ${param}`, [
      {
        path: [param, slug],
        code: 'not_indexed',
        message: `only indexed fields can be used in ${param}${allowed.length ? ` (indexed: ${allowed.join(', ')})` : ' (this collection has none)'}`,
      },
    ]);
  }
  return f;
}

export function listOps(deps: ContentDeps) {
  const { ctx } = deps;

  function encodeFilterValue(f: FieldInfo, value: unknown): unknown {
    if (f.type === 'datetime' && typeof value === 'string') {
      const n = normalizeDatetime(value);
      if (!n) throw validationError(`fieldFilters.${f.slug}: "${value}" is not a date-time with an offset`);
      return n;
    }
    if (value !== null && typeof value === 'object') throw validationError(`fieldFilters.${f.slug}: unsupported value`);
    return encodeValue(ctx.dialect, COLUMN_KIND[f.type], value);
  }

  async function query(actor: Actor, collection: string, opts: ListOptions, trash: boolean): Promise<ListResult> {
    const { snap, c } = await collectionFor(deps, collection);
    const drafts = canReadDrafts(actor);
    const locale = localeOf(deps, opts.locale);
    if (opts.page !== undefined && opts.cursor !== undefined) {
      throw issuesError('Send either page or cursor, not both', [
        { path: ['page'], code: 'conflict', message: 'page and cursor cannot be combined' },
      ]);
    }
    const limit = opts.limit ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw validationError('limit must be 1 to 100');
    const t = c.table;
    const col = (name: string) => `${t}.${name}`;

    let order: { column: string; dir: 'asc' | 'desc' };
    if (trash) order = { column: 'deleted_at', dir: 'desc' };
    else if (!opts.orderBy || SYSTEM_ORDERS[opts.orderBy]) {
      const o = SYSTEM_ORDERS[opts.orderBy ?? 'createdAt'];
      order = { column: o.column, dir: opts.order ?? o.defaultOrder };
    } else {
      order = { column: indexedField(c, opts.orderBy, 'orderBy').column as string, dir: opts.order ?? 'asc' };
    }

    // biome-ignore lint/suspicious/noExplicitAny: entry tables are dynamic
    let q: any = selectForRead(ctx.db, ctx.dialect, c, drafts).where(col('locale'), '=', locale);
    q = trash ? q.where(col('deleted_at'), 'is not', null) : q.where(col('deleted_at'), 'is', null);
    if (!drafts) q = q.where(col('status'), '=', 'published');
    else if (opts.status) q = q.where(col('status'), '=', opts.status);

    for (const [slug, cond] of Object.entries(opts.fieldFilters ?? {})) {
      const f = indexedField(c, slug, 'fieldFilters');
      const ref = col(f.column as string);
      if (cond === null) q = q.where(ref, 'is', null);
      else if (typeof cond !== 'object' || Array.isArray(cond)) q = q.where(ref, '=', encodeFilterValue(f, cond));
      else {
        for (const [op, value] of Object.entries(cond as Record<string, unknown>)) {
          if (op === 'in') {
            if (!Array.isArray(value) || !value.length || value.length > 100) {
              throw validationError(`fieldFilters.${slug}.in must be a list of 1 to 100 values`);
            }
            q = q.where(
              ref,
              'in',
              value.map((v) => encodeFilterValue(f, v)),
            );
          } else if (op in OPERATORS) {
            q = q.where(ref, OPERATORS[op as keyof typeof OPERATORS], encodeFilterValue(f, value));
          } else
            throw validationError(`fieldFilters.${slug}: unknown operator "${op}" (use eq, ne, gt, gte, lt, lte, in)`);
        }
      }
    }

    if (opts.bylineId) {
      const credited = sql<boolean>`exists (select 1 from _cms_entry_bylines eb where eb.collection_id = ${c.id}
        and eb.entry_id = ${sql.ref(col('id'))} and eb.byline_id = ${opts.bylineId})`;
      const byline = opts.includeAuthorByline
        ? await ctx.db.selectFrom('_cms_bylines').select('user_id').where('id', '=', opts.bylineId).executeTakeFirst()
        : undefined;
      if (byline?.user_id) {
        const inferred = sql<boolean>`(${sql.ref(col('author_id'))} = ${byline.user_id} and not exists (select 1 from _cms_entry_bylines eb2
          where eb2.collection_id = ${c.id} and eb2.entry_id = ${sql.ref(col('id'))}))`;
        q = q.where(sql<boolean>`(${credited} or ${inferred})`);
      } else q = q.where(credited);
    }

    let total: number | undefined;
    const orderCol = col(order.column);
    if (opts.page !== undefined) {
      const counted = await q
        .clearSelect()
        .select((eb: { fn: { countAll: () => { as: (n: string) => unknown } } }) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      total = Number(counted?.n ?? 0);
      q = q.offset((opts.page - 1) * limit);
    } else if (opts.cursor) {
      const [value, id] = decodeCursor(opts.cursor, 2);
      const cmp = order.dir === 'desc' ? '<' : '>';
      q =
        value === null
          ? q.where(orderCol, 'is', null).where(col('id'), cmp, id)
          : q.where(
              sql<boolean>`(${sql.ref(orderCol)} ${sql.raw(cmp)} ${value} or (${sql.ref(orderCol)} = ${value} and ${sql.ref(col('id'))} ${sql.raw(cmp)} ${id}) or ${sql.ref(orderCol)} is null)`,
            );
    }
    const rows: ReadRow[] = await q
      .orderBy(orderCol, (ob: { asc(): { nullsLast(): unknown }; desc(): { nullsLast(): unknown } }) =>
        order.dir === 'desc' ? ob.desc().nullsLast() : ob.asc().nullsLast(),
      )
      .orderBy(col('id'), order.dir)
      .limit(opts.page !== undefined ? limit : limit + 1)
      .execute();

    const pageRows = rows.slice(0, limit);
    let refsByOwner: Awaited<ReturnType<typeof readLinks>> | undefined;
    const fields = opts.includeReferences ? refFields(snap, c) : [];
    if (fields.length && pageRows.length) {
      const groups = [...new Set(pageRows.map((r) => r.translation_group))];
      refsByOwner = await readLinks(ctx.db, fields, groups, readScope(deps, locale, drafts));
    }
    const items = pageRows.map((row) =>
      toItem(c, row, {
        showDraft: drafts,
        ...(fields.length
          ? {
              references: pagesFor(
                fields,
                refsByOwner?.get(row.translation_group),
                (field, cursor) => `/content/${c.slug}/${row.id}/references/${field}?cursor=${cursor}`,
              ),
            }
          : {}),
      }),
    );
    const result: ListResult = { items };
    if (total !== undefined) result.total = total;
    else if (rows.length > limit) {
      const last = pageRows[pageRows.length - 1];
      result.nextCursor = encodeCursor([last[order.column] ?? null, last.id]);
    }
    return result;
  }

  async function list(actor: Actor, collection: string, opts: ListOptions = {}): Promise<ListResult> {
    requireReader(actor);
    return query(actor, collection, opts, false);
  }

  async function listTrashed(actor: Actor, collection: string, opts: ListOptions = {}): Promise<ListResult> {
    requireDraftReader(actor);
    return query(actor, collection, { ...opts, orderBy: undefined, fieldFilters: undefined }, true);
  }

  return { list, listTrashed };
}

export type ListOps = ReturnType<typeof listOps>;
