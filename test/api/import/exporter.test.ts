import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/core/config.js';
import type { ServiceContext } from '../../../src/services/context.js';
import { fetchJson } from '../../../src/services/import/live/fetch-json.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { type StandinData, startStandin } from '../../helpers/exporter-standin.js';

const post = (id: string, slug: string, extra: Record<string, unknown> = {}) => ({
  postId: id,
  postType: 'post',
  status: 'publish',
  title: `Post ${id}`,
  postName: slug,
  creator: 'ed',
  postDateGmt: '2021-01-02 03:04:05',
  content: `<p>Body of ${id}</p>`,
  terms: [{ domain: 'category', slug: 'news', name: 'News' }],
  meta: [],
  ...extra,
});

const DATA: StandinData = {
  summary: {
    site: { title: 'Stand-in', url: 'http://standin', description: '', language: 'en' },
    authors: [{ id: '1', login: 'ed', displayName: 'Ed Itor' }],
    terms: [{ id: '5', taxonomy: 'category', slug: 'news', name: 'News' }],
    postTypes: [
      { name: 'post', count: 4, byStatus: { publish: 3, draft: 1 }, excerpt: false, featuredImage: false },
      { name: 'page', count: 1, byStatus: { publish: 1 } },
      { name: 'attachment', count: 1, byStatus: { inherit: 1 } },
    ],
    comments: 4,
    menus: [{ slug: 'main', name: 'Main' }],
  },
  items: [
    post('1', 'hello'),
    post('2', 'second', { status: 'draft' }),
    post('3', 'bonjour', { locale: 'fr', translationOf: '1', title: 'Bonjour' }),
    post('4', 'third'),
    { postId: '7', postType: 'page', status: 'publish', title: 'About', postName: 'about', content: '<p>About</p>' },
    { postId: '9', postType: 'attachment', status: 'inherit', title: 'Photo', attachmentUrl: 'http://standin/p.jpg' },
  ],
  comments: [
    { id: '100', postId: '1', author: 'A', content: 'Top', approved: '1', parent: '0', dateGmt: '2021-01-03 00:00:00' },
    { id: '101', postId: '1', author: 'B', content: 'Reply', approved: '1', parent: '100' },
    { id: '102', postId: '1', author: 'C', content: 'Reply to reply', approved: '0', parent: '101' },
    { id: '103', postId: '4', author: 'D', content: 'Other', approved: 'spam', parent: '0' },
  ],
  menuItems: [
    {
      postId: '50',
      postType: 'nav_menu_item',
      title: '',
      menuOrder: '1',
      terms: [{ domain: 'nav_menu', slug: 'main', name: 'Main' }],
      meta: [
        { key: '_menu_item_type', value: 'post_type' },
        { key: '_menu_item_object_id', value: '7' },
        { key: '_menu_item_menu_item_parent', value: '0' },
      ],
    },
  ],
};

const CONFIG = { postTypeMappings: {}, skipExisting: false };
const SUMMARY = '/wp-json/cms/v1/export/summary';

/** A hostile source: its answer to every request never ends, fast (`flood`) or one byte at a time (`trickle`). */
const hostile: Server[] = [];
afterEach(async () => {
  while (hostile.length) {
    const s = hostile.pop()!;
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});
async function startHostile(mode: 'flood' | 'trickle') {
  const stats = { sent: 0, closed: null as Promise<void> | null };
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    stats.closed = new Promise<void>((done) => res.once('close', () => done()));
    if (mode === 'trickle') {
      res.write('{"site":');
      const timer = setInterval(() => res.write(' '), 50);
      res.once('close', () => clearInterval(timer));
      return;
    }
    // An endless JSON string, written as fast as the client reads it.
    const chunk = Buffer.alloc(64 * 1024, 'a');
    res.write('{"site":"');
    const pump = () => {
      while (!res.destroyed) {
        stats.sent += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  hostile.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stats };
}

/** The admin page's loop: each phase until done, merging the chunks into the maps it sends back. */
async function runPlugin(cms: TestCms, url: string, token: string, config: Record<string, unknown>) {
  const state = { idMap: {}, translationGroups: {}, commentRoots: {} } as Record<string, Record<string, unknown>>;
  const results: any[] = [];
  for (const phase of ['content', 'comments', 'finalize']) {
    let cursor: string | null = null;
    for (let guard = 0; guard < 50; guard++) {
      const res: any = await call(cms, 'POST', '/import/blogplatform-plugin/execute', {
        token: cms.adminToken,
        body: { url, token, config, phase, cursor, ...state },
      });
      if (res.status !== 200) throw new Error(`${phase}: ${JSON.stringify(res.body)}`);
      const step: any = res.body.data;
      for (const k of Object.keys(state)) Object.assign(state[k], step.chunk[k]);
      results.push(step.result);
      if (step.done) break;
      cursor = step.cursor;
    }
  }
  return { state, results };
}

describeEachDialect('WordPress import from a live site (exporter plugin)', (dialect) => {
  const open = (allowPrivate = true) =>
    testCms(dialect, {
      config: { importAllowPrivateHosts: allowPrivate, i18n: { locales: ['en', 'fr'], defaultLocale: 'en' } },
    });

  it('probes: exporter plugin, plain REST (recommends a file), not WordPress', async () => {
    const cms = await open();
    const plugin = await startStandin(DATA);
    const rest = await startStandin(DATA, { plugin: false });
    const p: any = await call(cms, 'POST', '/import/probe', { token: cms.adminToken, body: { url: plugin.url } });
    expect(p.status).toBe(200);
    expect(p.body.result).toMatchObject({
      isBlogPlatform: true,
      bestMatch: { source: 'blogplatform-plugin', canImport: true },
    });
    const r: any = await call(cms, 'POST', '/import/probe', { token: cms.adminToken, body: { url: rest.url } });
    expect(r.body.result.bestMatch).toMatchObject({ source: 'blogplatform-rest', canImport: false });
    expect(r.body.result.bestMatch.message).toContain('export file');
    const none: any = await call(cms, 'POST', '/import/probe', {
      token: cms.adminToken,
      body: { url: `${plugin.url}/nowhere/` },
    });
    expect(none.body.result).toMatchObject({ isBlogPlatform: false, bestMatch: null, allMatches: [] });
  });

  it('refuses private addresses unless CMS_IMPORT_ALLOW_PRIVATE_HOSTS is on', async () => {
    const cms = await open(false);
    const site = await startStandin(DATA);
    const res = await call(cms, 'POST', '/import/blogplatform-plugin/analyze', {
      token: cms.adminToken,
      body: { url: site.url, token: site.token },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.reason).toBe('PRIVATE_ADDRESS');
    expect(site.requests).toEqual([]);
  });

  it('analyzes and imports in chunks: translations, comment threads across pages, menus; re-runs safely', async () => {
    const cms = await open();
    const site = await startStandin(DATA);
    const bad = await call(cms, 'POST', '/import/blogplatform-plugin/analyze', {
      token: cms.adminToken,
      body: { url: site.url, token: 'd3Jvbmc6d3Jvbmc=' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.reason).toBe('UNAUTHORIZED');
    const analyzed: any = await call(cms, 'POST', '/import/blogplatform-plugin/analyze', {
      token: cms.adminToken,
      body: { url: site.url, token: site.token },
    });
    expect(analyzed.status).toBe(200);
    const analysis = analyzed.body.analysis;
    expect(analysis.postTypes.map((p: any) => [p.name, p.review.state])).toEqual([
      ['post', 'New collection'],
      ['page', 'New collection'],
    ]);
    const prep = await call(cms, 'POST', '/import/blogplatform/prepare', {
      token: cms.adminToken,
      body: {
        postTypes: analysis.postTypes.map((p: any) => ({ name: p.name, collection: p.collection, fields: p.fields })),
      },
    });
    expect(prep.body.data.success).toBe(true);

    const { state, results } = await runPlugin(cms, site.url, site.token, CONFIG);
    expect(results.reduce((n, r) => n + r.failed, 0)).toBe(0);
    const db = cms.ctx.db as any;
    const posts = await db.selectFrom('ec_posts').selectAll().execute();
    expect(posts.length).toBe(4);
    const hello = posts.find((p: any) => p.slug === 'hello');
    const bonjour = posts.find((p: any) => p.slug === 'bonjour');
    expect(bonjour.locale).toBe('fr');
    expect(bonjour.translation_group).toBe(hello.translation_group);
    expect(posts.find((p: any) => p.slug === 'second').status).toBe('draft');
    expect(Object.keys(state.idMap).sort()).toEqual(['1', '2', '3', '4', '7']);

    // Threads survive the page boundary (the stand-in pages two comments at a time).
    const comments = await db.selectFrom('_cms_comments').selectAll().execute();
    expect(comments.length).toBe(4);
    const top = comments.find((c: any) => c.body === 'Top');
    const deep = comments.find((c: any) => c.body === 'Reply to reply');
    expect(deep.root_id).toBe(top.id);
    expect(comments.find((c: any) => c.body === 'Reply').parent_id).toBe(top.id);

    const menu = await call(cms, 'GET', '/menus/main', { token: cms.adminToken });
    expect(menu.body.data.items.map((i: any) => i.kind)).toEqual(['content']);

    // Re-run: nothing twice; the map is rebuilt from the matched entries.
    const again = await runPlugin(cms, site.url, site.token, { ...CONFIG, skipExisting: true });
    expect(again.results.reduce((n, r) => n + r.imported, 0)).toBe(0);
    expect(Object.keys(again.state.idMap).sort()).toEqual(['1', '2', '3', '4', '7']);
    expect((await db.selectFrom('ec_posts').selectAll().execute()).length).toBe(4);
    expect((await db.selectFrom('_cms_comments').selectAll().execute()).length).toBe(4);
  });

  it('does not send the application password to another origin a redirect names', async () => {
    const cms = await open();
    // Two origins: the same address, another port.
    const elsewhere = await startStandin(DATA);
    const site = await startStandin(DATA, { redirects: { [SUMMARY]: `${elsewhere.url}${SUMMARY}` } });
    const res = await call(cms, 'POST', '/import/blogplatform-plugin/analyze', {
      token: cms.adminToken,
      body: { url: site.url, token: site.token },
    });
    expect(site.seen.map((s) => [s.path, s.headers.authorization])).toEqual([[SUMMARY, `Basic ${site.token}`]]);
    expect(elsewhere.seen.map((s) => s.path)).toEqual([SUMMARY]);
    expect(elsewhere.seen[0].headers.authorization).toBeUndefined();
    expect(elsewhere.seen[0].headers.cookie).toBeUndefined();
    // Without them the other origin refuses, and the message says where the redirect went.
    expect(res.status).toBe(400);
    expect(res.body.error.details.reason).toBe('UNAUTHORIZED');
    expect(res.body.error.message).toContain(elsewhere.url);
  });

  it('keeps the credentials on a redirect within the site', async () => {
    const cms = await open();
    const site = await startStandin(DATA, { redirects: { [SUMMARY]: `${SUMMARY}?moved=1` } });
    const res = await call(cms, 'POST', '/import/blogplatform-plugin/analyze', {
      token: cms.adminToken,
      body: { url: site.url, token: site.token },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(site.seen.map((s) => [s.path, s.headers.authorization])).toEqual([
      [SUMMARY, `Basic ${site.token}`],
      [`${SUMMARY}?moved=1`, `Basic ${site.token}`],
    ]);
  });

  it('stops reading an endless answer at the size limit (analyze and probe)', async () => {
    const cms = await open();
    const flood = await startHostile('flood');
    const t0 = Date.now();
    const res = await call(cms, 'POST', '/import/blogplatform-plugin/analyze', {
      token: cms.adminToken,
      body: { url: flood.url, token: 'dXNlcjpwdw==' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.reason).toBe('TOO_LARGE');
    // The connection was dropped at the limit (32 MiB), not read on.
    await flood.stats.closed;
    expect(flood.stats.sent).toBeLessThan(64 * 1024 * 1024);
    const probe: any = await call(cms, 'POST', '/import/probe', { token: cms.adminToken, body: { url: flood.url } });
    expect(probe.body.result).toMatchObject({ isBlogPlatform: false });
    expect(Date.now() - t0).toBeLessThan(20_000);
  });
});

describe('Live-site JSON reads are bounded in time', () => {
  it('gives up on an answer that never ends at the deadline', async () => {
    const trickle = await startHostile('trickle');
    const ctx = { config: resolveConfig({ importAllowPrivateHosts: true }) } as ServiceContext;
    const t0 = Date.now();
    const err: any = await fetchJson(ctx, `${trickle.url}${SUMMARY}`, {}, 400).catch((e) => e);
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.details.reason).toBe('TIMEOUT');
    expect(Date.now() - t0).toBeLessThan(5_000);
  });
});

describeEachDialect('WordPress import from a live site: client maps', (dialect) => {
  const open = () =>
    testCms(dialect, {
      config: { importAllowPrivateHosts: true, i18n: { locales: ['en', 'fr'], defaultLocale: 'en' } },
    });

  it('trusts client maps only for entries that exist', async () => {
    const cms = await open();
    const site = await startStandin(DATA);
    await call(cms, 'POST', '/import/blogplatform/prepare', {
      token: cms.adminToken,
      body: {
        postTypes: [{ name: 'post', collection: 'posts', fields: [{ slug: 'title', label: 'Title', type: 'string' }] }],
      },
    });
    const res = await call(cms, 'POST', '/import/blogplatform-plugin/execute', {
      token: cms.adminToken,
      body: {
        url: site.url,
        token: site.token,
        config: CONFIG,
        phase: 'comments',
        idMap: { '1': { collection: 'posts', id: '01HZZZZZZZZZZZZZZZZZZZZZZZ', group: 'x' } },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.result.comments.imported).toBe(0);
    expect((await (cms.ctx.db as any).selectFrom('_cms_comments').selectAll().execute()).length).toBe(0);
    // A translation group that is no group of the collection is not joined: the item gets its own.
    const content = await call(cms, 'POST', '/import/blogplatform-plugin/execute', {
      token: cms.adminToken,
      body: {
        url: site.url,
        token: site.token,
        config: CONFIG,
        phase: 'content',
        cursor: '2',
        translationGroups: { '1': 'NOTAGROUP' },
      },
    });
    expect(content.status, JSON.stringify(content.body)).toBe(200);
    const fr = await (cms.ctx.db as any)
      .selectFrom('ec_posts')
      .selectAll()
      .where('slug', '=', 'bonjour')
      .executeTakeFirst();
    expect(fr.locale).toBe('fr');
    expect(fr.translation_group).not.toBe('NOTAGROUP');
  });
});
