import { CompiledQuery, sql } from 'kysely';
import { expect, it } from 'vitest';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { createEntry, postsCollection } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';

/** Every entry of a list, page by page through the cursors (two per page, so pages cross the NULL run). */
async function walk(cms: TestCms, query: string): Promise<string[]> {
  const titles: string[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 20; i++) {
    const res = await call(cms, 'GET', `/content/posts?limit=2&${query}${cursor ? `&cursor=${cursor}` : ''}`, {
      token: cms.adminToken,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    titles.push(...res.body.data.items.map((i: { data: { title: string } }) => i.data.title));
    cursor = res.body.data.nextCursor;
    if (!cursor) return titles;
  }
  throw new Error('the cursors never ended');
}

/** The SQL statements the service runs while `fn` runs. */
async function captured(cms: TestCms, fn: () => Promise<unknown>): Promise<CompiledQuery[]> {
  const executor = cms.database.db.getExecutor();
  const original = executor.executeQuery.bind(executor);
  const seen: CompiledQuery[] = [];
  executor.executeQuery = ((query: CompiledQuery, ...rest: unknown[]) => {
    seen.push(query);
    return (original as (...a: unknown[]) => unknown)(query, ...rest);
  }) as typeof executor.executeQuery;
  try {
    await fn();
  } finally {
    executor.executeQuery = original;
  }
  return seen;
}

describeEachDialect('list order', (dialect) => {
  it('puts NULL first ascending and last descending, the same on both engines, across cursor pages', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    // `views` is an indexed integer; two entries have none.
    for (const [title, views] of [
      ['c', 3],
      ['n1', null],
      ['a', 1],
      ['n2', null],
      ['b', 2],
    ] as const) {
      await createEntry(cms, { data: { title, views } });
    }
    expect(await walk(cms, 'orderBy=views&order=asc')).toEqual(['n1', 'n2', 'a', 'b', 'c']);
    expect(await walk(cms, 'orderBy=views&order=desc')).toEqual(['c', 'b', 'a', 'n2', 'n1']);
    expect(await walk(cms, 'orderBy=createdAt&order=asc')).toEqual(['c', 'n1', 'a', 'n2', 'b']);
    expect(await walk(cms, 'orderBy=createdAt')).toEqual(['b', 'n2', 'a', 'n1', 'c']);
    // Nobody is published: publishedAt is NULL everywhere, so the id decides.
    expect(await walk(cms, 'orderBy=publishedAt')).toEqual(['b', 'n2', 'a', 'n1', 'c']);
  });

  it.skipIf(dialect !== 'postgres')('reads every list order from an index on PostgreSQL (no sort)', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    await createEntry(cms, { data: { title: 'x', views: 1 } });
    const orders = [
      '',
      'order=asc',
      'orderBy=updatedAt',
      'orderBy=publishedAt',
      'orderBy=publishedAt&order=asc',
      'orderBy=slug',
      'orderBy=slug&order=desc',
      'orderBy=views',
      'orderBy=views&order=desc',
      'orderBy=title&order=desc',
    ];
    for (const query of orders) {
      const [list] = (
        await captured(cms, () => call(cms, 'GET', `/content/posts?${query}`, { token: cms.adminToken }))
      ).filter((q) => /from "ec_posts"/.test(q.sql));
      expect(list, query).toBeDefined();
      // With sorting priced out, a plan that still sorts could not get the order from an index. An
      // incremental sort reads in index order and only orders ties (the slug index has no id column).
      const plan = await cms.database.db.transaction().execute(async (trx) => {
        await sql`set local enable_sort = off`.execute(trx);
        const res = await trx.executeQuery(CompiledQuery.raw(`explain ${list.sql}`, [...list.parameters]));
        return (res.rows as Array<{ 'QUERY PLAN': string }>).map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan, `${query}\n${plan}`).not.toMatch(/(?<!Incremental )Sort {2}\(cost/);
    }
  });
});
