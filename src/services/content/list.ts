import { sql } from 'kysely';
import type { Actor } from '../../auth/actor.js';
import {
  cursorBoolean,
  cursorInteger,
  cursorNumber,
  cursorText,
  decodeCursor,
  encodeCursor,
} from '../../core/cursor.js';
import { issuesError, validationError } from '../../core/errors.js';
import { type ColumnKind, encodeValue } from '../../db/dialect.js';
import { normalizeDatetime } from '../fields/datetime.js';
import { COLUMN_KIND } from '../fields/types.js';
import type { CollectionInfo, FieldInfo } from '../schema/model.js';
import { canReadDrafts, requireDraftReader, requireReader } from './access.js';
import { type ContentDeps, collectionFor, localeOf, readScope } from './deps.js';
import type { ContentItem, EntryStatus } from './model.js';
import { type ReadRow, selectForRead, toItem } from './present.js';
import { pagesFor, readLinks, refFields } from './references.js';
import { param, runShaped } from './statements.js';

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
  /** `<taxonomy>:<slug>[,<slug>…]`: entries carrying one of these terms (SQL from the taxonomy domain). */
  term?: string;
}

export interface ListResult {
  items: ContentItem[];
  nextCursor?: string;
  total?: number;
}

/** System list orders; each is backed by an index of every entry table. */
const SYSTEM_ORDERS: Record<string, { column: string; defaultOrder: 'asc' | 'desc'; nullable: boolean }> = {
  createdAt: { column: 'created_at', defaultOrder: 'desc', nullable: false },
  updatedAt: { column: 'updated_at', defaultOrder: 'desc', nullable: false },
  publishedAt: { column: 'published_at', defaultOrder: 'desc', nullable: true },
  slug: { column: 'slug', defaultOrder: 'asc', nullable: true },
};

interface ListOrder {
  column: string;
  dir: 'asc' | 'desc';
  kind: ColumnKind;
  /** Whether the column may hold NULL (NULL sorts before every value, as the list indexes hold it). */
  nullable: boolean;
}

/**
 * Rows after a cursor position, in the list's order. NULL sorts first ascending and last descending
 * (the order both engines' list indexes give); a NOT NULL column compares (value, id) as a row value,
 * which both engines answer with an index range.
 */
function afterCursor(order: ListOrder, column: string, idColumn: string, value: unknown, id: string) {
  const cmp = sql.raw(order.dir === 'desc' ? '<' : '>');
  const [v, i] = [sql.ref(column), sql.ref(idColumn)];
  const beyond = sql<boolean>`(${v}, ${i}) ${cmp} (${value}, ${id})`;
  if (!order.nullable) return beyond;
  if (value === null) {
    // In the NULL run: the rest of it, then (ascending) every value.
    return order.dir === 'asc'
      ? sql<boolean>`((${v} is null and ${i} > ${id}) or ${v} is not null)`
      : sql<boolean>`(${v} is null and ${i} < ${id})`;
  }
  return order.dir === 'asc' ? beyond : sql<boolean>`(${beyond} or ${v} is null)`;
}

/** The cursor element that a sort column of this kind writes. */
function sortKeyOf(kind: ColumnKind) {
  if (kind === 'integer') return cursorInteger;
  if (kind === 'real') return cursorNumber;
  if (kind === 'boolean') return cursorBoolean;
  return cursorText;
}

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
    const kind = COLUMN_KIND[f.type];
    // JSON numbers beyond double range parse as Infinity; integer columns hold whole numbers within ±2^53.
    if (typeof value === 'number' && kind === 'integer' && !Number.isSafeInteger(value)) {
      throw validationError(`fieldFilters.${f.slug}: ${value} is not an integer within ±${Number.MAX_SAFE_INTEGER}`);
    }
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw validationError(`fieldFilters.${f.slug}: ${value} is not a finite number`);
    }
    // A number column compared with a word is an error on PostgreSQL and a silent mismatch on SQLite:
    // refuse it on both (a numeral written as a string is taken as its number).
    if ((kind === 'integer' || kind === 'real') && value !== null && typeof value !== 'number') {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
      if (!Number.isFinite(n) || (kind === 'integer' && !Number.isSafeInteger(n))) {
        throw validationError(
          `fieldFilters.${f.slug}: ${JSON.stringify(value)} is not a ${kind === 'integer' ? 'whole ' : ''}number`,
        );
      }
      return n;
    }
    return encodeValue(ctx.dialect, kind, value);
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

    let order: ListOrder;
    // In the trash every row has `deleted_at`.
    if (trash) order = { column: 'deleted_at', dir: 'desc', kind: 'text', nullable: false };
    // An empty orderBy names no order: it is refused like any other unknown name, not taken as the default.
    else if (opts.orderBy === undefined || Object.hasOwn(SYSTEM_ORDERS, opts.orderBy)) {
      const o = SYSTEM_ORDERS[opts.orderBy ?? 'createdAt'];
      order = { column: o.column, dir: opts.order ?? o.defaultOrder, kind: 'text', nullable: o.nullable };
    } else {
      const f = indexedField(c, opts.orderBy, 'orderBy');
      order = { column: f.column as string, dir: opts.order ?? 'asc', kind: COLUMN_KIND[f.type], nullable: true };
    }

    // biome-ignore lint/suspicious/noExplicitAny: entry tables are dynamic
    const filterQuery = async (q: any): Promise<any> => {
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
            } else if (Object.hasOwn(OPERATORS, op)) {
              q = q.where(ref, OPERATORS[op as keyof typeof OPERATORS], encodeFilterValue(f, value));
            } else
              throw validationError(
                `fieldFilters.${slug}: unknown operator "${op}" (use eq, ne, gt, gte, lt, lte, in)`,
              );
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

      if (opts.term !== undefined)
        q = q.where(await deps.hooks.termFilter(c, locale, opts.term, col('translation_group')));
      return q;
    };

    const statusFilter = !drafts ? 'published' : opts.status;
    // biome-ignore lint/suspicious/noExplicitAny: entry tables are dynamic
    const base = (v: { locale: unknown; status: unknown }): any => {
      let q = selectForRead(ctx.db, ctx.dialect, c, drafts).where(col('locale'), '=', v.locale);
      q = trash ? q.where(col('deleted_at'), 'is not', null) : q.where(col('deleted_at'), 'is', null);
      return statusFilter ? q.where(col('status'), '=', v.status) : q;
    };
    const orderCol = col(order.column);
    let cursor: { value: unknown; id: string } | undefined;
    if (opts.cursor && opts.page === undefined) {
      const key = order.nullable ? sortKeyOf(order.kind).nullable() : sortKeyOf(order.kind);
      const [value, id] = decodeCursor(opts.cursor, [key, cursorText]);
      cursor = { value, id };
    }
    // biome-ignore lint/suspicious/noExplicitAny: entry tables are dynamic
    const page = (q: any, at: { value: unknown; id: unknown } | undefined, rowLimit: unknown): any => {
      if (at) q = q.where(afterCursor(order, orderCol, col('id'), at.value, at.id as string));
      // A NOT NULL column keeps each engine's plain order, which its index gives in both directions; a column
      // that may hold NULL names where NULL goes, as its index holds it (see createIndex in schema/ddl.ts).
      type Ob = { asc(): { nullsFirst(): unknown }; desc(): { nullsLast(): unknown } };
      return q
        .orderBy(orderCol, (ob: Ob) =>
          !order.nullable ? ob[order.dir]() : order.dir === 'desc' ? ob.desc().nullsLast() : ob.asc().nullsFirst(),
        )
        .orderBy(col('id'), order.dir)
        .limit(rowLimit);
    };

    let total: number | undefined;
    let rows: ReadRow[];
    const filtered = opts.bylineId || opts.term !== undefined || Object.keys(opts.fieldFilters ?? {}).length;
    if (!filtered && opts.page === undefined) {
      // The common page (every admin list, every API client paging a collection): one statement compiled
      // once per shape; the cursor's NULL position changes the SQL, so it is part of the shape.
      const at = cursor && { value: cursor.value === null ? null : param('after'), id: param('afterId') };
      const shape = [
        'list',
        ctx.dialect,
        c.id,
        snap.version,
        drafts,
        trash,
        statusFilter ?? '',
        order.column,
        order.dir,
        order.nullable,
        !cursor ? '-' : cursor.value === null ? 'null' : 'value',
      ].join('|');
      rows = await runShaped<ReadRow>(
        ctx.db,
        shape,
        () => page(base({ locale: param('locale'), status: param('status') }), at, param('limit')),
        { locale, status: statusFilter, after: cursor?.value, afterId: cursor?.id, limit: limit + 1 },
      );
    } else {
      let q = base({ locale, status: statusFilter });
      q = await filterQuery(q);
      if (opts.page !== undefined) {
        const counted = await q
          .clearSelect()
          .select((eb: { fn: { countAll: () => { as: (n: string) => unknown } } }) => eb.fn.countAll().as('n'))
          .executeTakeFirst();
        total = Number(counted?.n ?? 0);
        q = q.offset((opts.page - 1) * limit);
      }
      rows = await page(q, cursor, opts.page !== undefined ? limit : limit + 1).execute();
    }

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
