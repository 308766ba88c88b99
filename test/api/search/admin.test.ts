import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { postsCollection, roleTokens } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { articles, ids, published } from '../../helpers/search.js';

const as = (cms: TestCms, token: string | null, method: string, path: string, body?: unknown) =>
  call(cms, method, path, { token, body });

describeEachDialect('search administration', (dialect) => {
  it('enables with a tokenizer and weights, disables keeping them, and re-enables with them', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms, { fields: [{ slug: 'summary', label: 'Summary', type: 'text', searchable: true }] });
    const enabled = await as(cms, cms.adminToken, 'POST', '/search/enable', {
      collection: 'posts',
      tokenizer: 'trigram',
      weights: { summary: 3 },
    });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    expect(enabled.body.data).toMatchObject({
      collection: 'posts',
      enabled: true,
      tokenizer: 'trigram',
      weights: { summary: 3 },
      state: 'ready',
      documents: 0,
      build: null,
      nextRequestInMs: null,
    });
    const schema = await as(cms, cms.adminToken, 'GET', '/schema/collections/posts');
    expect(schema.body.data.supports).toContain('search');

    const off = await as(cms, cms.adminToken, 'POST', '/search/enable', { collection: 'posts', enabled: false });
    expect(off.body.data).toMatchObject({ enabled: false, state: 'disabled', tokenizer: 'trigram', documents: null });
    expect((await as(cms, cms.adminToken, 'GET', '/schema/collections/posts')).body.data.supports).not.toContain(
      'search',
    );

    const again = await as(cms, cms.adminToken, 'POST', '/search/enable', { collection: 'posts' });
    expect(again.body.data).toMatchObject({ enabled: true, tokenizer: 'trigram', weights: { summary: 3 } });
  });

  it('validates the collection, tokenizer and weights', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms, { fields: [{ slug: 'summary', label: 'Summary', type: 'text', searchable: true }] });
    const cases: Array<[unknown, number, unknown[]]> = [
      [{ collection: 'nope' }, 404, []],
      [{ collection: 'posts', tokenizer: 'porter' }, 400, ['tokenizer']],
      [{ collection: 'posts', weights: { title: 2 } }, 400, ['weights', 'title']],
      [{ collection: 'posts', weights: { summary: 0 } }, 400, ['weights', 'summary']],
      [{ collection: 'posts', weights: { summary: 101 } }, 400, ['weights', 'summary']],
      [{ collection: 'posts', unknown: true }, 400, []],
      [{ collection: 'Bad Slug' }, 400, ['collection']],
    ];
    for (const [body, status, path] of cases) {
      const res = await as(cms, cms.adminToken, 'POST', '/search/enable', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (path.length) expect(res.body.error.details.issues[0].path, JSON.stringify(body)).toEqual(path);
    }
    const notOn = await as(cms, cms.adminToken, 'POST', '/search/rebuild', { collection: 'posts' });
    expect(notOn.status).toBe(409);
    expect(notOn.body.error.code).toBe('INVALID_STATE');
  });

  it('lets Editors and content:write tokens manage indexes; Authors and read-only tokens cannot', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const { subscriber, author, editor } = await roleTokens(cms);
    const readOnlyEditor = await cms.userToken(ROLES.EDITOR, ['content:read']);
    const body = { collection: 'articles' };
    for (const [path, method, b] of [
      ['/search/enable', 'POST', body],
      ['/search/rebuild', 'POST', body],
      ['/search/stats', 'GET', undefined],
    ] as const) {
      expect((await as(cms, null, method, path, b)).status, path).toBe(401);
      const sub = await as(cms, subscriber.token, method, path, b);
      expect(sub.status, path).toBe(403);
      expect(sub.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
      expect((await as(cms, author.token, method, path, b)).status, path).toBe(403);
      const scoped = await as(cms, readOnlyEditor.token, method, path, b);
      expect(scoped.status, path).toBe(403);
      expect(scoped.body.error.code).toBe('INSUFFICIENT_SCOPE');
      expect((await as(cms, editor.token, method, path, b)).status, path).toBe(200);
    }
    // Everyone who reads content may search.
    expect((await as(cms, subscriber.token, 'GET', '/search?q=x')).status).toBe(200);
    expect((await as(cms, null, 'GET', '/search?q=x')).status).toBe(401);
  });

  it('rebuilds with a new tokenizer, reports stats and counts documents', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const id = await published(cms, { title: 'Swimming lessons', body: 'Swims daily' });
    await published(cms, { title: 'Second' });
    expect(await ids(cms, 'swim')).toEqual([id]);
    const before = (await as(cms, cms.adminToken, 'GET', '/search/stats')).body.data.collections[0];
    expect(before).toMatchObject({
      collection: 'articles',
      state: 'ready',
      documents: 2,
      tokenizer: 'porter unicode61',
    });
    expect(before.sizeBytes).toBeGreaterThan(0);
    expect(before.lastRebuildAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const changed = await as(cms, cms.adminToken, 'POST', '/search/enable', {
      collection: 'articles',
      tokenizer: 'unicode61',
    });
    expect(changed.body.data).toMatchObject({ tokenizer: 'unicode61', state: 'ready', documents: 2 });
    expect(await ids(cms, 'swim')).toEqual([]);
    expect(await ids(cms, 'swimming')).toEqual([id]);

    const rebuilt = await as(cms, cms.adminToken, 'POST', '/search/rebuild', { collection: 'articles' });
    expect(rebuilt.body.data).toMatchObject({ state: 'ready', documents: 2, build: null, nextRequestInMs: null });
    expect(await ids(cms, 'swimming')).toEqual([id]);
    const all = (await as(cms, cms.adminToken, 'GET', '/search/stats')).body.data.collections;
    expect(all.map((c: { collection: string }) => c.collection)).toEqual(['articles']);
    expect((await as(cms, cms.adminToken, 'GET', '/search/stats?collection=nope')).status).toBe(404);
  });

  it('reports progress of a chunked rebuild and resumes it where it stopped', async () => {
    const cms = await testCms(dialect, { config: { searchRebuildBatch: 3 } });
    await articles(cms);
    for (let i = 0; i < 7; i++) await published(cms, { title: `Ibis ${i}` });
    const c = (await cms.services.schema.snapshot()).collections.get('articles')!;
    // A schema change on a collection larger than one step starts a rebuild and leaves it to steps.
    await as(cms, cms.adminToken, 'PUT', '/schema/collections/articles/fields/body', { searchable: false });
    const started = (await as(cms, cms.adminToken, 'GET', '/search/stats?collection=articles')).body.data
      .collections[0];
    expect(started).toMatchObject({ state: 'building', build: { done: 0, total: 7 } });
    await cms.services.search.advance(c.id, 0);
    await cms.services.search.advance(c.id, 0);
    const halfway = (await as(cms, cms.adminToken, 'GET', '/search/stats?collection=articles')).body.data
      .collections[0];
    expect(halfway.build).toMatchObject({ done: 6, total: 7 });
    // Searches keep answering (from the previous index) while it runs.
    expect(await ids(cms, 'ibis')).toHaveLength(7);
    const done = await as(cms, cms.adminToken, 'POST', '/search/rebuild', { collection: 'articles' });
    expect(done.body.data).toMatchObject({ state: 'ready', build: null, documents: 7 });
    expect(done.body.data.lastRebuildAt).not.toBe(started.lastRebuildAt);
  });

  it('indexes collections whose search flag was set before the search service saw it (upgrade)', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const id = await published(cms, { title: 'Pangolin' });
    const c = (await cms.services.schema.snapshot()).collections.get('articles')!;
    // Forget the index as a database from before search existed would.
    await cms.database.db.deleteFrom('_cms_search_collections').execute();
    expect(await ids(cms, 'pangolin')).toEqual([]);
    await cms.services.search.worker.runOnce();
    expect(await ids(cms, 'pangolin')).toEqual([id]);
    expect(c.supports).toContain('search');
  });
});
