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
    // The index as that release stored it (no title prefix index, no head lists), under a name this
    // process has not seen yet, as after an upgrade.
    const current = await indexTable(cms);
    const table = current.replace(/_\d+$/, '_90');
    await cms.database.db.transaction().execute(async (trx) => {
      await sql`drop index ${sql.id(`${current}_tprefix`)}`.execute(trx);
      for (const t of ['heads', 'hkeys', 'hfloors', 'hmeta'])
        await sql`drop table ${sql.id(`${current}_${t}`)}`.execute(trx);
      await sql`alter table ${sql.id(current)} rename to ${sql.id(table)}`.execute(trx);
      await sql`alter table ${sql.id(`${current}_text`)} rename to ${sql.id(`${table}_text`)}`.execute(trx);
      await sql`update _cms_search_collections set index_table = ${table}, generation = 90`.execute(trx);
    });
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

  it.runIf(dialect === 'postgres')('rebuilds head lists stored without their index by handle', async () => {
    const cms = await testCms(dialect, { config: { searchHeadSize: 3, searchHeadThreshold: 2 } as never });
    await articles(cms);
    const first = await published(cms, { title: 'Wombat burrow', body: 'wombat wombat' });
    const second = await published(cms, { title: 'Wombat', body: 'a wombat sleeps' });
    const third = await published(cms, { title: 'Sleepy', body: 'one wombat' });
    await call(cms, 'POST', '/search/rebuild', { token: cms.adminToken, body: { collection: 'articles' } });
    // The first head lists found a rewritten document's rows by its tokens: no index on `doc`.
    const current = await indexTable(cms);
    const table = current.replace(/_\d+$/, '_91');
    await cms.database.db.transaction().execute(async (trx) => {
      await sql`drop index ${sql.id(`${current}_heads_doc`)}`.execute(trx);
      for (const t of ['', '_text', '_heads', '_hkeys', '_hfloors', '_hmeta'])
        await sql`alter table ${sql.id(`${current}${t}`)} rename to ${sql.id(`${table}${t}`)}`.execute(trx);
      await sql`alter index ${sql.id(`${current}_tprefix`)} rename to ${sql.id(`${table}_tprefix`)}`.execute(trx);
      await sql`update _cms_search_collections set index_table = ${table}, generation = 91`.execute(trx);
    });
    // Until the rebuild, the engine answers and writes leave the old lists alone.
    const edit = async (id: string, data: Record<string, string>) => {
      const put = await call(cms, 'PUT', `/content/articles/${id}`, { token: cms.adminToken, body: { data } });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      const pub = await call(cms, 'POST', `/content/articles/${id}/publish`, { token: cms.adminToken, body: {} });
      expect(pub.status, JSON.stringify(pub.body)).toBe(200);
    };
    await edit(second, { title: 'Koala', body: 'eucalyptus' });
    expect(await ids(cms, 'wombat')).toEqual([first, third]);
    await cms.services.search.worker.runOnce();
    const upgraded = await indexTable(cms);
    expect(upgraded).not.toBe(table);
    const handles = sql<{ r: string | null }>`select to_regclass(${`${upgraded}_heads_doc`})::text as r`;
    expect((await handles.execute(cms.database.db)).rows[0].r).not.toBeNull();
    expect(await ids(cms, 'wombat')).toEqual([first, third]);
    // A rewrite now leaves the lists by handle: the old document's rows go, the new one's come.
    const docs = sql<{ doc: string }>`select distinct doc from ${sql.id(`${upgraded}_heads`)} where entry = ${first}`;
    const before = (await docs.execute(cms.database.db)).rows.map((r) => r.doc);
    expect(before).toHaveLength(1);
    await edit(first, { body: 'gone' });
    const after = (await docs.execute(cms.database.db)).rows.map((r) => r.doc);
    expect(after).toHaveLength(1);
    expect(after).not.toEqual(before);
  });
});
