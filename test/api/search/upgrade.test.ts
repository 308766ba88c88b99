import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { FTS_TOKENIZE, TITLE_TOKENIZE } from '../../../src/services/search/engine-sqlite.js';
import { createLegacy } from '../../../src/services/search/engine-sqlite-legacy.js';
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

async function tableNames(cms: TestCms, prefix: string): Promise<string[]> {
  const { rows } =
    cms.database.dialect === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from sqlite_schema where type = 'table' and name like ${`${prefix}%`}`.execute(cms.database.db)
      : await sql<{ name: string }>`select tablename as name from pg_tables
          where schemaname = current_schema() and tablename like ${`${prefix}%`}`.execute(cms.database.db);
  return rows.map((r) => r.name).sort();
}

/** Indexes stored by an older release are rebuilt in the current layout by the background worker. */
describeEachDialect('search index storage upgrades', (dialect) => {
  it('leaves an index in the current layout alone', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const id = await published(cms, { title: 'Quokka', body: 'marsupial' });
    const before = await indexTable(cms);
    await cms.services.search.worker.runOnce();
    expect(await indexTable(cms)).toBe(before);
    expect(await ids(cms, 'quokka')).toEqual([id]);
  });

  it.runIf(dialect === 'sqlite')(
    'rebuilds a SQLite index of the first layout, which keeps serving and following writes until then',
    async () => {
      const cms = await testCms(dialect);
      await articles(cms);
      const current = await indexTable(cms);
      // The tables as the first layout had them (the texts inside `<t>_docs`, two prefix lengths), under
      // a name this process has not seen yet, as after an upgrade.
      const table = current.replace(/_\d+$/, '_90');
      const old = await tableNames(cms, current);
      await cms.database.db.transaction().execute(async (trx) => {
        for (const t of old) await sql`drop table if exists ${sql.id(t)}`.execute(trx);
        await createLegacy(trx, table, FTS_TOKENIZE['porter unicode61'], TITLE_TOKENIZE['porter unicode61']);
        await sql`update _cms_search_collections set index_table = ${table}, generation = 90`.execute(trx);
      });
      expect(await tableNames(cms, table)).not.toContain(`${table}_text`);

      // Entry writes keep the old index current: created, edited, deleted.
      const kept = await published(cms, { title: 'Wombat burrows', body: 'A wombat digs.' });
      const edited = await published(cms, { title: 'Numbat', body: 'termites' });
      const gone = await published(cms, { title: 'Bilby', body: 'a wombat neighbour' });
      const put = await call(cms, 'PUT', `/content/articles/${edited}`, {
        token: cms.adminToken,
        body: { data: { title: 'Numbat', body: 'ants and a wombat' } },
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      expect(
        (await call(cms, 'POST', `/content/articles/${edited}/publish`, { token: cms.adminToken, body: {} })).status,
      ).toBe(200);
      expect((await call(cms, 'DELETE', `/content/articles/${gone}`, { token: cms.adminToken })).status).toBe(200);
      expect(await ids(cms, 'wombat')).toEqual([kept, edited]);
      expect(await ids(cms, 'termites')).toEqual([]);

      await cms.services.search.worker.runOnce();
      const upgraded = await indexTable(cms);
      expect(upgraded).not.toBe(table);
      expect(await tableNames(cms, upgraded)).toContain(`${upgraded}_text`);
      expect(await tableNames(cms, table)).toEqual([]);
      const st = await call(cms, 'GET', '/search/stats?collection=articles', { token: cms.adminToken });
      expect(st.body.data.collections[0]).toMatchObject({ state: 'ready', documents: 2, build: null });
      expect(await ids(cms, 'wombat')).toEqual([kept, edited]);
      expect(await ids(cms, 'wom*')).toEqual([kept, edited]);
      expect(await ids(cms, 'bilby')).toEqual([]);
      // Settled: a second pass leaves the new index alone.
      await cms.services.search.worker.runOnce();
      expect(await indexTable(cms)).toBe(upgraded);
    },
  );
});
