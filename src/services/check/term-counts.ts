import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Kdb } from '../../db/connect.js';
import type { DialectName } from '../../db/dialect.js';
import { dyn } from '../content/rows.js';
import type { CollectionInfo } from '../schema/model.js';
import type { Check, FindingSink } from './model.js';

const key = (term: string, locale: string) => `${term}\u0000${locale}`;

/** What the content implies: per (term group, locale), the published, non-trashed entries carrying it. */
async function expectedCounts(db: Kdb, c: CollectionInfo): Promise<Map<string, number>> {
  const rows: Array<{ term_group: string; locale: string; n: number | string }> = await dyn(db)
    .selectFrom(`${c.table} as e`)
    .innerJoin('_cms_content_terms as ct', (j: any) =>
      j.onRef('ct.entry_group', '=', 'e.translation_group').on('ct.collection_id', '=', c.id),
    )
    .select(['ct.term_group as term_group', 'e.locale as locale', sql`count(*)`.as('n')])
    .where('e.status', '=', 'published')
    .where('e.deleted_at', 'is', null)
    .groupBy(['ct.term_group', 'e.locale'])
    .execute();
  return new Map(rows.map((r) => [key(r.term_group, r.locale), Number(r.n)]));
}

/** The maintained counts and the per-entry record they are maintained from, per (term group, locale). */
async function storedCounts(
  db: Kdb,
  c: CollectionInfo,
): Promise<{ counts: Map<string, number>; counted: Map<string, number> }> {
  const counts = await db
    .selectFrom('_cms_term_counts')
    .select(['term_group', 'locale', 'count'])
    .where('collection_id', '=', c.id)
    .execute();
  const counted = await db
    .selectFrom('_cms_term_counted')
    .select(['term_group', 'locale', sql<number | string>`count(*)`.as('n')])
    .where('collection_id', '=', c.id)
    .groupBy(['term_group', 'locale'])
    .execute();
  return {
    counts: new Map(
      counts.filter((r) => Number(r.count) !== 0).map((r) => [key(r.term_group, r.locale), Number(r.count)]),
    ),
    counted: new Map(counted.map((r) => [key(r.term_group, r.locale), Number(r.n)])),
  };
}

/**
 * Rebuild one collection's counts and counted record from the content in one transaction. On
 * PostgreSQL both tables are locked first, so no entry write applies a difference computed from
 * the record being replaced; SQLite has one writer at a time already.
 */
async function rebuild(db: Kdb, dialect: DialectName, c: CollectionInfo): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (dialect === 'postgres')
      await sql`lock table _cms_term_counted, _cms_term_counts in exclusive mode`.execute(trx);
    await trx.deleteFrom('_cms_term_counted').where('collection_id', '=', c.id).execute();
    await trx.deleteFrom('_cms_term_counts').where('collection_id', '=', c.id).execute();
    const live = (q: any) =>
      q
        .innerJoin('_cms_content_terms as ct', (j: any) =>
          j.onRef('ct.entry_group', '=', 'e.translation_group').on('ct.collection_id', '=', c.id),
        )
        .where('e.status', '=', 'published')
        .where('e.deleted_at', 'is', null);
    await trx
      .insertInto('_cms_term_counted')
      .columns(['collection_id', 'entry_id', 'term_group', 'locale'])
      .expression(
        live(dyn(trx).selectFrom(`${c.table} as e`)).select([
          sql.lit(c.id).as('collection_id'),
          'e.id',
          'ct.term_group',
          'e.locale',
        ]),
      )
      .execute();
    await trx
      .insertInto('_cms_term_counts')
      .columns(['term_group', 'locale', 'collection_id', 'count'])
      .expression(
        live(dyn(trx).selectFrom(`${c.table} as e`))
          .select(['ct.term_group', 'e.locale', sql.lit(c.id).as('collection_id'), sql`count(*)`.as('count')])
          .groupBy(['ct.term_group', 'e.locale']),
      )
      .execute();
  });
}

function compare(
  c: CollectionInfo,
  expected: Map<string, number>,
  stored: Map<string, number>,
  code: string,
  what: string,
  repair: boolean,
  sink: FindingSink,
): number {
  let wrong = 0;
  for (const k of new Set([...expected.keys(), ...stored.keys()])) {
    const want = expected.get(k) ?? 0;
    const have = stored.get(k) ?? 0;
    if (want === have) continue;
    wrong++;
    const [term, locale] = k.split('\u0000');
    sink.add({
      code,
      message: `${what} of term group ${term} in locale ${locale} is ${have}; the content implies ${want}`,
      collection: c.slug,
      subject: term ?? null,
      repairable: true,
      repaired: repair,
    });
  }
  return wrong;
}

/**
 * Term counts (published, non-trashed entries per term and locale) equal what the content
 * implies, and so does the per-entry record they are kept from (a wrong record makes every
 * later write apply a wrong difference).
 */
export const termCountsCheck: Check = {
  id: 'term-counts',
  title: 'Term counts against the published entries that carry each term',
  async run({ ctx, snap, repair }, sink) {
    for (const c of [...snap.collections.values()].sort((a, b) => a.slug.localeCompare(b.slug))) {
      const expected = await expectedCounts(ctx.db, c);
      const { counts, counted } = await storedCounts(ctx.db, c);
      const wrong =
        compare(c, expected, counts, 'TERM_COUNT_WRONG', 'the count', repair, sink) +
        compare(c, expected, counted, 'TERM_COUNTED_WRONG', 'the counted record', repair, sink);
      if (wrong && repair) await rebuild(ctx.db, ctx.dialect, c);
      // SQLite answers synchronously: give requests a turn between collections.
      await nextTurn();
    }
  },
};
