import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { roleTokens } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { articles, published, search } from '../../helpers/search.js';

interface Hit {
  id: string;
  title: string;
  score: number;
}

/** Small lists so a handful of entries exercises them: keys in 5+ documents, lists cut back to 3. */
const HEADS = { searchHeadSize: 3, searchHeadThreshold: 5 };
/** The same site without head lists: every query is ranked by the engine. */
const NO_HEADS = { searchHeadSize: 3, searchHeadThreshold: 1_000_000 };

/** Entries holding "alpha" with different counts, fields and lengths, so every score differs. */
const CORPUS = [
  { title: 'Alpha centre', body: 'alpha alpha beta' },
  { title: 'Gamma', body: 'alpha gamma delta epsilon' },
  { title: 'Delta', body: 'alpha alpha alpha delta delta delta delta delta delta' },
  { title: 'Long', body: `alpha ${'words that pad the text '.repeat(12)}` },
  { title: 'Alphabet', body: 'letters alphabet alphanumeric' },
  { title: 'Twice alpha alpha', body: 'nothing else here at all' },
  { title: 'Omega', body: 'omega alpha omega alpha omega' },
  { title: 'Short', body: 'alpha' },
  { title: 'Other', body: 'beta gamma' },
  { title: 'Plenty', body: 'alpha beta alpha gamma alpha delta alpha' },
  // "gamma ray" is a common pair: a two-word phrase list.
  { title: 'Rays', body: 'gamma ray burst, then a gamma ray again' },
  { title: 'Sun', body: 'a gamma ray from the sun' },
  { title: 'Gamma ray lab', body: 'the lab measures gamma' },
  { title: 'Space', body: 'ray gamma gamma ray' },
  { title: 'Probe', body: 'gamma rays detected by the gamma ray probe' },
];

async function site(dialect: 'sqlite' | 'postgres', config: Record<string, number>): Promise<TestCms> {
  const cms = await testCms(dialect, { config });
  await articles(cms);
  for (const data of CORPUS) await published(cms, data);
  // The lists are made by a build: this one runs inside the request (a small collection).
  const res = await call(cms, 'POST', '/search/rebuild', { token: cms.adminToken, body: { collection: 'articles' } });
  expect(res.body.data).toMatchObject({ state: 'ready' });
  return cms;
}

async function hits(cms: TestCms, q: string, params: Record<string, string> = {}, token?: string): Promise<Hit[]> {
  const res = await search(cms, q, { limit: '100', ...params }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.items;
}

async function indexTable(cms: TestCms): Promise<string> {
  const row = await cms.database.db
    .selectFrom('_cms_search_collections')
    .select('index_table')
    .executeTakeFirstOrThrow();
  return row.index_table!;
}

/**
 * Results of the lists match the engine's: the same entries first, in the same order, with its
 * scores (`scores: false` after entry writes: on SQLite a list's idf is the build's document count,
 * which scales all its scores alike).
 */
function expectSameHead(fromList: Hit[], fromEngine: Hit[], scores = true) {
  expect(fromList.length).toBeGreaterThanOrEqual(HEADS.searchHeadSize);
  expect(fromList.map((h) => h.title)).toEqual(fromEngine.slice(0, fromList.length).map((h) => h.title));
  for (let i = 0; i < fromList.length; i++) {
    // PostgreSQL answers ts_rank_cd in single precision.
    if (scores) expect(fromList[i].score).toBeCloseTo(fromEngine[i].score, 5);
    if (i > 0) expect(fromList[i].score).toBeLessThanOrEqual(fromList[i - 1].score);
  }
}

/** One-word searches on common words read a short list of the best entries for that word. */
describeEachDialect('search head lists', (dialect) => {
  it('rank a common word, prefix and phrase as the engine does, from the list alone', async () => {
    const withLists = await site(dialect, HEADS);
    const engine = await site(dialect, NO_HEADS);
    for (const q of ['alpha', 'ALPHA', 'alp*', 'alpha*', '"gamma ray"', '"Gamma, ray"']) {
      expectSameHead(await hits(withLists, q), await hits(engine, q));
    }
    // Rare words and other query shapes are the engine's: all their matches.
    for (const q of [
      'omega',
      'al*',
      'alpha beta',
      '"alpha alpha"',
      '"gamma ray burst"',
      'alpha -beta',
      'alpha OR omega',
    ]) {
      expect(
        (await hits(withLists, q)).map((h) => h.title),
        q,
      ).toEqual((await hits(engine, q)).map((h) => h.title));
    }
    // The answer does come from the list: emptied by hand, it finds nothing.
    const table = await indexTable(withLists);
    // (The pair's second word is stemmed: "rai" under FTS5's porter, "ray" under PostgreSQL's snowball.)
    await sql`delete from ${sql.id(`${table}_heads`)} where key = 'alpha' or key like 'gamma %'`.execute(
      withLists.database.db,
    );
    expect(await hits(withLists, 'alpha')).toEqual([]);
    expect(await hits(withLists, '"gamma ray"')).toEqual([]);
    expect((await hits(withLists, 'alp*')).length).toBeGreaterThan(0);
  });

  it('pages through a list once, in order, and ends with it', async () => {
    const cms = await site(dialect, HEADS);
    const whole = await hits(cms, 'alpha');
    const seen: Hit[] = [];
    let cursor: string | undefined;
    do {
      const res = await search(cms, 'alpha', { limit: '2', ...(cursor ? { cursor } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      seen.push(...res.body.data.items);
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(seen.map((h) => h.id)).toEqual(whole.map((h) => h.id));
    expect(new Set(seen.map((h) => h.id)).size).toBe(seen.length);
  });

  it('follow entry writes: new, edited, drafts, trashed and restored entries', async () => {
    const cms = await site(dialect, HEADS);
    const engine = await site(dialect, NO_HEADS);
    const both = async (fn: (c: TestCms) => Promise<string>) => [await fn(cms), await fn(engine)] as const;
    const compare = async () => expectSameHead(await hits(cms, 'alpha'), await hits(engine, 'alpha'), false);

    // A new entry that is the best for the word enters the list at the top.
    const [best, bestTwin] = await both((c) => published(c, { title: 'Alpha alpha alpha', body: 'alpha alpha' }));
    expect((await hits(cms, 'alpha'))[0].id).toBe(best);
    await compare();

    // Edited so the word is gone: it leaves the list.
    for (const [c, id] of [
      [cms, best],
      [engine, bestTwin],
    ] as const) {
      await call(c, 'PUT', `/content/articles/${id}`, {
        token: c.adminToken,
        body: { data: { title: 'Nothing here', body: 'empty' } },
      });
      await call(c, 'POST', `/content/articles/${id}/publish`, { token: c.adminToken, body: {} });
    }
    expect((await hits(cms, 'alpha')).map((h) => h.id)).not.toContain(best);
    await compare();

    // A draft is found by draft readers only.
    const draft = (
      await call(cms, 'POST', '/content/articles', {
        token: cms.adminToken,
        body: { data: { title: 'Alpha draft alpha', body: 'alpha alpha alpha' } },
      })
    ).body.data.item.id as string;
    expect((await hits(cms, 'alpha'))[0].id).toBe(draft);
    const { subscriber } = await roleTokens(cms);
    expect((await hits(cms, 'alpha', {}, subscriber.token)).map((h) => h.id)).not.toContain(draft);

    // Trashed, it is found by nobody; restored, it is back.
    expect((await call(cms, 'DELETE', `/content/articles/${draft}`, { token: cms.adminToken })).status).toBe(200);
    expect((await hits(cms, 'alpha')).map((h) => h.id)).not.toContain(draft);
    const restored = await call(cms, 'POST', `/content/articles/${draft}/restore`, { token: cms.adminToken });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect((await hits(cms, 'alpha'))[0].id).toBe(draft);
  });

  it('are cut back by the worker when writes grew them past twice their size, the engine still agreeing', async () => {
    const cms = await site(dialect, HEADS);
    const engine = await site(dialect, NO_HEADS);
    for (let i = 0; i < 8; i++) {
      const data = { title: `Strong ${i}`, body: `${'alpha '.repeat(3 + i)}tail` };
      await published(cms, data);
      await published(engine, data);
    }
    const table = await indexTable(cms);
    const count = async () =>
      Number(
        (
          await sql<{ n: number }>`select count(*) as n from ${sql.id(`${table}_heads`)} where key = 'alpha'`.execute(
            cms.database.db,
          )
        ).rows[0].n,
      );
    expect(await count()).toBeGreaterThan(2 * HEADS.searchHeadSize);
    expectSameHead(await hits(cms, 'alpha'), await hits(engine, 'alpha'), false);
    await cms.services.search.worker.runOnce();
    expect(await count()).toBeLessThanOrEqual(2 * HEADS.searchHeadSize);
    const floors = await sql<{ floor: number }>`select floor from ${sql.id(`${table}_hfloors`)}
      where key = 'alpha' and locale = 'en'`.execute(cms.database.db);
    expect(Number(floors.rows[0].floor)).toBeGreaterThan(0);
    expectSameHead(await hits(cms, 'alpha'), await hits(engine, 'alpha'), false);
  });

  it('keep a list per locale', async () => {
    const i18n = { locales: ['en', 'fr'], defaultLocale: 'en' };
    const cms = await testCms(dialect, { config: { ...HEADS, i18n } as never });
    await articles(cms);
    const en: string[] = [];
    for (let i = 0; i < 6; i++) en.push(await published(cms, { title: `Alpha ${i}`, body: 'alpha '.repeat(i + 1) }));
    const fr: string[] = [];
    for (const [i, source] of en.slice(0, 2).entries()) {
      const created = await call(cms, 'POST', '/content/articles', {
        token: cms.adminToken,
        body: { locale: 'fr', translationOf: source, data: { title: `Alpha fr ${i}`, body: 'alpha' } },
      });
      fr.push(created.body.data.item.id);
      await call(cms, 'POST', `/content/articles/${created.body.data.item.id}/publish`, {
        token: cms.adminToken,
        body: {},
      });
    }
    await call(cms, 'POST', '/search/rebuild', { token: cms.adminToken, body: { collection: 'articles' } });
    // The English list is full; the French entries are few but all found in their locale.
    expect((await hits(cms, 'alpha')).length).toBeGreaterThanOrEqual(HEADS.searchHeadSize);
    expect((await hits(cms, 'alpha', { locale: 'fr' })).map((h) => h.id).sort()).toEqual([...fr].sort());
  });

  it('are filled in steps by a rebuild, shown as its ranking phase', async () => {
    const cms = await site(dialect, { ...HEADS, searchRebuildBatch: 2 });
    // A schema change starts a rebuild that background steps finish (a collection larger than a step).
    const res = await call(cms, 'PUT', '/schema/collections/articles/fields/title', {
      token: cms.adminToken,
      body: { searchable: false },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const collection = (await cms.services.schema.snapshot()).collections.get('articles')!;
    const phases: string[] = [];
    for (let i = 0; i < 100; i++) {
      const st = (await call(cms, 'GET', '/search/stats?collection=articles', { token: cms.adminToken })).body.data
        .collections[0];
      if (!st.build) break;
      if (phases.at(-1) !== st.build.phase) phases.push(st.build.phase);
      await cms.services.search.advance(collection.id, 0);
    }
    expect(phases).toEqual(['indexing', 'merging', 'ranking']);
    const engine = await site(dialect, NO_HEADS);
    await call(engine, 'PUT', '/schema/collections/articles/fields/title', {
      token: engine.adminToken,
      body: { searchable: false },
    });
    expectSameHead(await hits(cms, 'alpha'), await hits(engine, 'alpha'));
  });
});
