/**
 * The consistency checker's search check: an index kept by the service reports ok; documents
 * deleted, invented or left at an old version behind the service's back are each found with
 * their code; a repair rebuilds the index from the content, after which searches find the
 * entries again and the next run is ok. Leftover index tables are found and dropped.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { CheckReport } from '../../../src/services/check/index.js';
import { searchCheckOf } from '../../../src/services/check/search.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { articles, ids, published } from '../../helpers/search.js';
import { adminActor as admin, runCheck } from './run-check.js';

const runSearch = (cms: TestCms, repair = false) => cms.services.check.run(admin(cms), { checks: ['search'], repair });

const found = (report: CheckReport) =>
  report.checks[0].findings.map((f) => `${f.code}:${f.collection}:${f.subject}`).sort();

async function indexTable(cms: TestCms): Promise<string> {
  const row = await cms.ctx.db
    .selectFrom('_cms_search_collections')
    .select('index_table')
    .where('index_table', 'is not', null)
    .executeTakeFirstOrThrow();
  return row.index_table as string;
}

/** The table holding one row per document: `<t>_docs` on SQLite, the index table itself on PostgreSQL. */
const docsTable = (cms: TestCms, table: string) => (cms.ctx.dialect === 'postgres' ? table : `${table}_docs`);

describeEachDialect('consistency check: search index', (dialect) => {
  it('finds missing, stale and outdated documents, repairs by rebuilding, then reports ok', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const heron = await published(cms, { title: 'Heron', body: 'wades in the shallows' });
    const egret = await published(cms, { title: 'Egret', body: 'white plumes' });
    // A draft never published and a pending draft over a live version: each has its own documents.
    const draft = await call(cms, 'POST', '/content/articles', {
      token: cms.adminToken,
      body: { data: { title: 'Bittern' } },
    });
    expect(draft.status).toBe(201);
    const edited = await call(cms, 'PUT', `/content/articles/${egret}`, {
      token: cms.adminToken,
      body: { data: { title: 'Great egret' } },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    // Trashed: no documents at all.
    const gone = await published(cms, { title: 'Dodo' });
    expect((await call(cms, 'DELETE', `/content/articles/${gone}`, { token: cms.adminToken })).status).toBe(200);

    const clean = await runSearch(cms);
    expect(clean.checks[0], JSON.stringify(clean)).toMatchObject({ id: 'search', status: 'ok', problems: 0 });
    expect(await ids(cms, 'heron')).toEqual([heron]);

    const table = await indexTable(cms);
    const docs = sql.id(docsTable(cms, table));
    const db = cms.ctx.db;
    await sql`delete from ${docs} where entry_id = ${heron}`.execute(db);
    await sql`insert into ${docs} (entry_id, version, live, current, locale, status, slug, title)
      values (${'01NOSUCHENTRY0000000000000'}, 1, ${sql.lit(dialect === 'postgres' ? true : 1)},
        ${sql.lit(dialect === 'postgres' ? true : 1)}, 'en', 'published', null, 'Ghost')`.execute(db);
    await sql`update ${docs} set version = version + 5 where entry_id = ${draft.body.data.item.id}`.execute(db);
    expect(await ids(cms, 'heron')).toEqual([]);

    const broken = await runSearch(cms);
    expect(broken.status).toBe('problems');
    expect(found(broken)).toEqual(
      [
        `SEARCH_DOCUMENT_MISSING:articles:${heron}`,
        `SEARCH_DOCUMENT_OUTDATED:articles:${draft.body.data.item.id}`,
        'SEARCH_DOCUMENT_STALE:articles:01NOSUCHENTRY0000000000000',
      ].sort(),
    );
    expect(broken.checks[0].findings.every((f) => f.repairable && !f.repaired)).toBe(true);
    expect(broken.checks[0].findings.find((f) => f.code === 'SEARCH_DOCUMENT_STALE')?.message).toMatch(
      /no longer exists/,
    );
    // Checking changed nothing.
    expect(await ids(cms, 'heron')).toEqual([]);

    const repaired = await runSearch(cms, true);
    expect(repaired.status, JSON.stringify(repaired)).toBe('repaired');
    expect(repaired.checks[0]).toMatchObject({ problems: 3, repaired: 3 });

    const again = await runSearch(cms);
    expect(again.checks[0], JSON.stringify(again)).toMatchObject({ status: 'ok', problems: 0 });
    expect(await ids(cms, 'heron')).toEqual([heron]);
    expect(await ids(cms, 'ghost')).toEqual([]);
    expect(await ids(cms, 'bittern')).toEqual([draft.body.data.item.id]);
  });

  it('finds a document of a trashed entry and an index table no settings name, and removes both', async () => {
    const cms = await testCms(dialect);
    const info = await articles(cms);
    expect(info.state).toBe('ready');
    const kept = await published(cms, { title: 'Kestrel' });
    const trashed = await published(cms, { title: 'Kite' });
    const table = await indexTable(cms);
    const docs = sql.id(docsTable(cms, table));
    const db = cms.ctx.db;
    // The trash write skipped the index: put the document it removed back.
    const [row] = (await sql<any>`select * from ${docs} where entry_id = ${trashed}`.execute(db)).rows;
    expect((await call(cms, 'DELETE', `/content/articles/${trashed}`, { token: cms.adminToken })).status).toBe(200);
    await sql`insert into ${docs} (entry_id, version, live, current, locale, status, slug, title)
      values (${row.entry_id}, ${row.version}, ${row.live}, ${row.current}, ${row.locale}, ${row.status}, ${row.slug}, ${row.title})`.execute(
      db,
    );
    // An index of an earlier generation that a lost settings row left behind.
    const collectionId = (await cms.services.schema.snapshot()).collections.get('articles')!.id;
    const leftover = `_cms_fts_${collectionId.toLowerCase()}_99`;
    await cms.services.search.consistency.engine.create(db, leftover, 'unicode61');

    const broken = await runSearch(cms);
    expect(found(broken)).toEqual(
      [`SEARCH_DOCUMENT_STALE:articles:${trashed}`, `SEARCH_INDEX_TABLE_LEFTOVER:articles:${leftover}`].sort(),
    );
    expect(broken.checks[0].findings.find((f) => f.code === 'SEARCH_DOCUMENT_STALE')?.message).toMatch(/trash/);

    const repaired = await runSearch(cms, true);
    expect(repaired.status, JSON.stringify(repaired)).toBe('repaired');
    expect(await cms.services.search.consistency.engine.indexTables(db)).toEqual([await indexTable(cms)]);
    expect((await runSearch(cms)).checks[0].status).toBe('ok');
    expect(await ids(cms, 'kite')).toEqual([]);
    expect(await ids(cms, 'kestrel')).toEqual([kept]);
  });

  it('reports a rebuild in progress as a note, and a repair finishes it', async () => {
    const cms = await testCms(dialect, { config: { searchRebuildBatch: 2 } });
    await articles(cms);
    for (const t of ['Avocet', 'Bunting', 'Curlew', 'Dunlin', 'Eider']) await published(cms, { title: t });
    const c = (await cms.services.schema.snapshot()).collections.get('articles')!;
    expect((await cms.services.search.consistency.settings(cms.ctx.db, c.id))?.build).toBeNull();
    // Five entries, two a step: a rebuild given no time runs one step and leaves the build going.
    expect(await cms.services.search.consistency.rebuild(c, 0)).toBe(false);
    expect((await cms.services.search.consistency.settings(cms.ctx.db, c.id))?.build).not.toBeNull();

    const noted = await runSearch(cms);
    expect(noted.checks[0]).toMatchObject({ status: 'skipped', problems: 0 });
    expect(noted.checks[0].note).toMatch(/rebuild is in progress for articles/);

    const finished = await runSearch(cms, true);
    expect(finished.checks[0], JSON.stringify(finished)).toMatchObject({ status: 'ok', note: null });
    expect((await cms.services.search.consistency.settings(cms.ctx.db, c.id))?.build).toBeNull();
    expect(await ids(cms, 'eider')).toHaveLength(1);
  });

  it('walks entries and documents in bounded steps: documents before, between and after the entries are found', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const made: string[] = [];
    for (const t of ['Avocet', 'Bunting', 'Curlew', 'Dunlin', 'Eider']) made.push(await published(cms, { title: t }));
    made.sort();
    const check = searchCheckOf(2);
    expect((await runCheck(cms, check, false)).codes).toEqual([]);

    const docs = sql.id(docsTable(cms, await indexTable(cms)));
    const db = cms.ctx.db;
    const yes = sql.lit(dialect === 'postgres' ? true : 1);
    // Ghosts before the first entry, three in a row between two entries (more than a step holds),
    // and three after the last; two entries lose theirs.
    const ghosts = [
      '00000000000000000000000000',
      `${made[2]}0`,
      `${made[2]}1`,
      `${made[2]}2`,
      'ZZZZZZZZZZZZZZZZZZZZZZZZZ1',
      'ZZZZZZZZZZZZZZZZZZZZZZZZZ2',
      'ZZZZZZZZZZZZZZZZZZZZZZZZZ3',
    ];
    for (const g of ghosts) {
      await sql`insert into ${docs} (entry_id, version, live, current, locale, status, slug, title)
        values (${g}, 1, ${yes}, ${yes}, 'en', 'published', null, 'Ghost')`.execute(db);
    }
    await sql`delete from ${docs} where entry_id in (${made[1]}, ${made[4]})`.execute(db);

    const broken = await runCheck(cms, check, false);
    expect(broken.codes).toEqual(
      [
        ...ghosts.map((g) => `SEARCH_DOCUMENT_STALE:${g}`),
        `SEARCH_DOCUMENT_MISSING:${made[1]}`,
        `SEARCH_DOCUMENT_MISSING:${made[4]}`,
      ].sort(),
    );
    const repaired = await runCheck(cms, check, true);
    expect(repaired.findings.every((f) => f.repaired)).toBe(true);
    expect((await runCheck(cms, check, false)).codes).toEqual([]);
    expect(await ids(cms, 'eider')).toEqual([made[4]]);
  });

  it('finds an index table dropped by hand and rebuilds it', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const ibis = await published(cms, { title: 'Ibis' });
    const table = await indexTable(cms);
    await cms.services.search.consistency.engine.drop(cms.ctx.db, table);

    const broken = await runSearch(cms);
    expect(found(broken)).toEqual(['SEARCH_INDEX_MISSING:articles:articles']);
    expect(broken.checks[0].findings[0].message).toContain(table);
    expect((await runSearch(cms, true)).status).toBe('repaired');
    expect((await runSearch(cms)).checks[0].status).toBe('ok');
    expect(await ids(cms, 'ibis')).toEqual([ibis]);
  });
});
