import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { articles, ids, published } from '../../helpers/search.js';

async function indexTable(cms: TestCms): Promise<string> {
  const row = await cms.database.db
    .selectFrom('_cms_search_collections')
    .select('index_table')
    .executeTakeFirstOrThrow();
  return row.index_table!;
}

/** PostgreSQL indexes from before the title prefix index are rebuilt with it by the background worker. */
describeEachDialect('search index storage upgrades on PostgreSQL', (dialect) => {
  it.runIf(dialect === 'postgres')('rebuilds a word index without the title prefix index', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const id = await published(cms, { title: 'Quokka island', body: 'marsupial' });
    const table = await indexTable(cms);
    await sql`drop index ${sql.id(`${table}_tprefix`)}`.execute(cms.database.db);
    // The old index keeps answering until the rebuild swaps it out.
    expect(await ids(cms, 'quokka')).toEqual([id]);
    await cms.services.search.worker.runOnce();
    const upgraded = await indexTable(cms);
    expect(upgraded).not.toBe(table);
    const { rows } = await sql<{ r: string | null }>`select to_regclass(${`${upgraded}_tprefix`})::text as r`.execute(
      cms.database.db,
    );
    expect(rows[0].r).not.toBeNull();
    expect(await ids(cms, 'quokka')).toEqual([id]);
    const res = await call(cms, 'GET', '/search/suggest?q=quo', { token: cms.adminToken });
    expect(res.body.data.items.map((i: { title: string }) => i.title)).toEqual(['Quokka island']);
    await cms.services.search.worker.runOnce();
    expect(await indexTable(cms)).toBe(upgraded);
  });
});
