import { expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { roleTokens } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mcpClient, serve } from '../../helpers/mcp.js';
import { articles, ids, published, search } from '../../helpers/search.js';

async function stats(cms: TestCms) {
  const res = await call(cms, 'GET', '/search/stats?collection=articles', { token: cms.adminToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.collections[0];
}

/** The index moves with every kind of entry write, inside its transaction. */
describeEachDialect('search index maintenance', (dialect) => {
  it('follows an entry through its lifecycle: drafts for draft readers only, live text for everyone', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const cms = await testCms(dialect, { clock });
    await articles(cms);
    const { subscriber, contributor } = await roleTokens(cms);
    const sub = (q: string) => ids(cms, q, {}, subscriber.token);
    const con = (q: string) => ids(cms, q, {}, contributor.token);
    const admin = cms.adminToken;
    const post = (id: string, action: string, body = {}) =>
      call(cms, 'POST', `/content/articles/${id}/${action}`, { token: admin, body });

    const id = (await call(cms, 'POST', '/content/articles', { token: admin, body: { data: { title: 'Aardvark' } } }))
      .body.data.item.id as string;
    expect(await sub('aardvark')).toEqual([]);
    expect(await con('aardvark')).toEqual([id]);
    expect((await search(cms, 'aardvark', {}, contributor.token)).body.data.items[0].status).toBe('draft');

    await post(id, 'publish');
    expect(await sub('aardvark')).toEqual([id]);

    // An edit of a live entry is a pending draft: readers keep the live text.
    await call(cms, 'PUT', `/content/articles/${id}`, { token: admin, body: { data: { title: 'Bison' } } });
    expect(await sub('aardvark')).toEqual([id]);
    expect(await sub('bison')).toEqual([]);
    expect(await con('bison')).toEqual([id]);
    expect(await con('aardvark')).toEqual([]);
    expect((await stats(cms)).documents).toBe(2);

    await post(id, 'discard-draft');
    expect(await con('aardvark')).toEqual([id]);
    expect(await con('bison')).toEqual([]);
    expect((await stats(cms)).documents).toBe(1);

    await call(cms, 'PUT', `/content/articles/${id}`, { token: admin, body: { data: { title: 'Bison' } } });
    await post(id, 'publish');
    expect(await sub('bison')).toEqual([id]);
    expect(await sub('aardvark')).toEqual([]);

    await post(id, 'unpublish');
    expect(await sub('bison')).toEqual([]);
    expect(await con('bison')).toEqual([id]);

    await call(cms, 'DELETE', `/content/articles/${id}`, { token: admin });
    expect(await con('bison')).toEqual([]);
    expect(await ids(cms, 'bison')).toEqual([]);

    await post(id, 'restore');
    expect(await con('bison')).toEqual([id]);
    expect(await sub('bison')).toEqual([]);

    await post(id, 'schedule', { scheduledAt: '2026-03-01T10:05:00Z' });
    expect((await search(cms, 'bison', {}, contributor.token)).body.data.items[0].status).toBe('scheduled');
    expect(await sub('bison')).toEqual([]);
    clock.set('2026-03-01T10:06:00.000Z');
    expect((await cms.services.content.scheduler.runOnce()).published).toBe(1);
    expect(await sub('bison')).toEqual([id]);

    await call(cms, 'DELETE', `/content/articles/${id}`, { token: admin });
    await call(cms, 'DELETE', `/content/articles/${id}/permanent`, { token: admin });
    expect(await con('bison')).toEqual([]);
    expect((await stats(cms)).documents).toBe(0);
  });

  it('indexes duplicates and restored revisions', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const { contributor } = await roleTokens(cms);
    const id = await published(cms, { title: 'Original walrus' });
    await call(cms, 'PUT', `/content/articles/${id}`, {
      token: cms.adminToken,
      body: { data: { title: 'Edited narwhal' } },
    });
    await call(cms, 'POST', `/content/articles/${id}/publish`, { token: cms.adminToken, body: {} });
    const copy = (await call(cms, 'POST', `/content/articles/${id}/duplicate`, { token: cms.adminToken, body: {} }))
      .body.data.item.id;
    expect((await ids(cms, 'narwhal', {}, contributor.token)).sort()).toEqual([id, copy].sort());
    expect(await ids(cms, 'narwhal')).toEqual(expect.arrayContaining([copy]));

    // Revisions are restored through MCP (they have no REST route).
    const mcp = await mcpClient(await serve(cms), cms.adminToken);
    const revs = (await mcp.ok('revision_list', { collection: 'articles', id })).items as Array<{
      id: string;
      data: { title?: string };
    }>;
    const first = revs.find((r) => r.data.title === 'Original walrus')!;
    await mcp.ok('revision_restore', { collection: 'articles', id, revisionId: first.id });
    expect(await ids(cms, 'walrus', {}, contributor.token)).toEqual([id]);
    expect(await ids(cms, 'walrus')).toEqual([id]);
    expect(await ids(cms, 'walrus', {}, (await roleTokens(cms)).subscriber.token)).toEqual([]);
    await mcp.close();
  });

  it('keeps one index per locale and follows shared values copied to translations', async () => {
    const cms = await testCms(dialect, { config: { i18n: { locales: ['en', 'fr'], defaultLocale: 'en' } } });
    await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      body: {
        slug: 'articles',
        label: 'Articles',
        supports: ['drafts', 'revisions', 'search'],
        fields: [
          { slug: 'title', label: 'Title', type: 'string', searchable: true },
          { slug: 'code', label: 'Code', type: 'string', searchable: true, translatable: false },
        ],
      },
    });
    const en = await published(cms, { title: 'Harbour lights', code: 'XJ9' });
    const fr = (
      await call(cms, 'POST', '/content/articles', {
        token: cms.adminToken,
        body: { locale: 'fr', translationOf: en, data: { title: 'Lumières du port' } },
      })
    ).body.data.item.id as string;
    await call(cms, 'POST', `/content/articles/${fr}/publish`, { token: cms.adminToken, body: {} });
    expect(await ids(cms, 'harbour')).toEqual([en]);
    expect(await ids(cms, 'port')).toEqual([]);
    expect(await ids(cms, 'port', { locale: 'fr' })).toEqual([fr]);
    expect(await ids(cms, 'lumieres', { locale: 'fr' })).toEqual([fr]);
    expect(await ids(cms, 'harbour', { locale: 'fr' })).toEqual([]);
    expect(await ids(cms, 'xj9', { locale: 'fr' })).toEqual([fr]);

    // Publishing a new shared value copies it to the translation, and the index follows.
    await call(cms, 'PUT', `/content/articles/${en}`, { token: cms.adminToken, body: { data: { code: 'QK7' } } });
    await call(cms, 'POST', `/content/articles/${en}/publish`, { token: cms.adminToken, body: {} });
    expect(await ids(cms, 'qk7', { locale: 'fr' })).toEqual([fr]);
    expect(await ids(cms, 'xj9', { locale: 'fr' })).toEqual([]);
    const bad = await search(cms, 'port', { locale: 'de' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues[0].path).toEqual(['locale']);
  });

  it('rolls the index back with a write that fails later in its transaction', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    await published(cms, { title: 'Stable entry' });
    cms.services.content.hooks.afterWrite('failing-after-search', async (_trx, change) => {
      if (change.kind === 'update') throw new Error('downstream index unavailable');
    });
    const id = (await ids(cms, 'stable'))[0];
    const res = await call(cms, 'PUT', `/content/articles/${id}`, {
      token: cms.adminToken,
      body: { data: { title: 'Vanished words' } },
    });
    expect(res.status).toBe(500);
    expect(await ids(cms, 'vanished')).toEqual([]);
    expect(await ids(cms, 'stable')).toEqual([id]);
    expect((await stats(cms)).documents).toBe(1);
  });
});
