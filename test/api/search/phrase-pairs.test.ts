import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { articles, published, search } from '../../helpers/search.js';

interface Hit {
  id: string;
  title: string;
  score: number;
}

/** Very common words are in 8 × 2 = 16 documents or more: "gamma" and "ray" below, not "omega". */
const PAIRS = { searchHeadSize: 3, searchHeadThreshold: 2 };
const NONE = { searchHeadSize: 3, searchHeadThreshold: 1_000_000 };

/** 20 entries holding both words, next to each other in a few (and across the title and the body). */
function corpus() {
  const out = [];
  for (let i = 0; i < 16; i++) out.push({ title: `Note ${i}`, body: `ray of light ${'x '.repeat(i)}and gamma decay` });
  out.push({ title: 'Burst', body: 'a gamma ray burst seen by omega' });
  out.push({ title: 'Twice', body: 'gamma ray, then gamma ray again near omega' });
  out.push({ title: 'Across gamma', body: 'ray tracing with omega' });
  out.push({ title: 'Reversed', body: 'ray gamma omega' });
  return out;
}

async function site(dialect: 'sqlite' | 'postgres', config: Record<string, number>): Promise<TestCms> {
  const cms = await testCms(dialect, { config: config as never });
  await articles(cms);
  for (const data of corpus()) await published(cms, data);
  const res = await call(cms, 'POST', '/search/rebuild', { token: cms.adminToken, body: { collection: 'articles' } });
  expect(res.body.data).toMatchObject({ state: 'ready' });
  return cms;
}

async function hits(cms: TestCms, q: string): Promise<Hit[]> {
  const res = await search(cms, q, { limit: '100' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.items;
}

async function same(a: TestCms, b: TestCms, q: string) {
  const [x, y] = [await hits(a, q), await hits(b, q)];
  expect(
    x.map((h) => h.title),
    q,
  ).toEqual(y.map((h) => h.title));
  for (let i = 0; i < x.length; i++) expect(x[i].score).toBeCloseTo(y[i].score, 5);
  return x.map((h) => h.title);
}

/** Phrases of very common words find the entries holding the pair (PostgreSQL), as the engine alone does. */
describeEachDialect('search phrase pairs', (dialect) => {
  it('answer phrases of very common words as the engine alone, and follow entry writes', async () => {
    const cms = await site(dialect, PAIRS);
    const engine = await site(dialect, NONE);
    // Queries that are more than one list's key: ranked by the engine, narrowed by the pairs.
    expect((await same(cms, engine, '"gamma ray" omega')).sort()).toEqual(['Burst', 'Twice']);
    expect(await same(cms, engine, '"gamma ray burst"')).toEqual(['Burst']);
    for (const q of [
      '"ray gamma" omega',
      '"gamma the ray" omega',
      '"gamma ray bu*"',
      '"gamma ray" OR decay',
      'gamma ray',
    ]) {
      await same(cms, engine, q);
    }

    const pairs = dialect === 'postgres';
    const table = (
      await cms.database.db.selectFrom('_cms_search_collections').select('index_table').executeTakeFirstOrThrow()
    ).index_table!;
    if (pairs) {
      const words = await sql<{ word: string }>`select word from ${sql.id(`${table}_pwords`)} order by word`.execute(
        cms.database.db,
      );
      // Every word of the 16 notes; "omega" (5 entries) is not among them.
      expect(words.rows.map((r) => r.word)).toEqual(expect.arrayContaining(['gamma', 'ray', 'decay']));
      expect(words.rows.map((r) => r.word)).not.toContain('omega');
    }

    // Entry writes keep the pairs: a new entry is found, an edited one is not.
    const added = await published(cms, { title: 'New', body: 'omega gamma ray' });
    await published(engine, { title: 'New', body: 'omega gamma ray' });
    expect(await same(cms, engine, '"gamma ray" omega')).toContain('New');
    for (const c of [cms, engine]) {
      const id = c === cms ? added : (await hits(c, 'new'))[0].id;
      await call(c, 'PUT', `/content/articles/${id}`, { token: c.adminToken, body: { data: { body: 'omega ray' } } });
      await call(c, 'POST', `/content/articles/${id}/publish`, { token: c.adminToken, body: {} });
    }
    expect(await same(cms, engine, '"gamma ray" omega')).not.toContain('New');

    if (pairs) {
      // The answer does come from the pairs: emptied by hand, the phrase finds nothing.
      await sql`delete from ${sql.id(`${table}_pairs`)}`.execute(cms.database.db);
      expect(await hits(cms, '"gamma ray" omega')).toEqual([]);
      expect((await hits(cms, 'omega')).length).toBeGreaterThan(0);
    }
  });
});
