/**
 * The SQL statements each REST operation's typical call (and the MCP content, media and search tools)
 * runs in steady state, on both databases, against test/perf/query-budget.snapshot.json: a change that
 * adds (or saves) a statement fails here until the snapshot is rewritten on purpose with
 * `UPDATE_QUERY_BUDGET=1 npx vitest run test/perf/query-budget-snapshot.test.ts`.
 *
 * Each call runs once to warm the caches, then twice measured; both measured runs must agree. A call is
 * measured in a query scope (src/db/query-scope.ts) opened around it, so what another call leaves running
 * is not counted, and what this one leaves running (background tasks after the answer) is waited for and
 * counted. Time stands still while measuring: no cache reaches its periodic re-check in the middle.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, expect, it, vi } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import type { DialectName } from '../../src/db/dialect.js';
import { inQueryScope } from '../../src/db/query-scope.js';
import { call, type TestCms, testCms } from '../helpers/cms.js';
import { createEntry, publish } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/db.js';
import { png, upload } from '../helpers/media.js';

const SNAPSHOT_FILE = new URL('./query-budget.snapshot.json', import.meta.url);
const UPDATE = process.env.UPDATE_QUERY_BUDGET === '1';
/** DESIGN.md, performance rules: a published get or list costs at most two statements in steady state. */
const PUBLISHED_READ_BUDGET = 2;

type Snapshot = Partial<Record<DialectName, Record<string, number>>>;

const readSnapshot = (): Snapshot => {
  try {
    return JSON.parse(readFileSync(SNAPSHOT_FILE, 'utf8')) as Snapshot;
  } catch {
    return {};
  }
};

interface Sent {
  status: number;
  body?: unknown;
}

/** One measured case: `prepare` runs unmeasured before each run and returns the call to measure. */
interface Case {
  name: string;
  /** A published-read call: held to the DESIGN.md budget as well as to the snapshot. */
  publishedRead?: boolean;
  prepare: () => Promise<() => Promise<Sent>>;
}

afterEach(() => {
  vi.useRealTimers();
});

async function seed(cms: TestCms) {
  const admin = cms.adminToken;
  const ok = async (method: string, path: string, body?: unknown, token: string | null = admin) => {
    const res = await call(cms, method, path, { token, body });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body.data;
  };
  await ok('POST', '/schema/collections', {
    slug: 'people',
    label: 'People',
    fields: [{ slug: 'title', label: 'Title', type: 'string', required: true }],
  });
  await ok('POST', '/schema/collections', {
    slug: 'posts',
    label: 'Posts',
    supports: ['drafts', 'revisions', 'comments', 'search'],
    fields: [
      { slug: 'title', label: 'Title', type: 'string', required: true, searchable: true, indexed: true },
      { slug: 'body', label: 'Body', type: 'text', searchable: true },
      {
        slug: 'authors',
        label: 'Authors',
        type: 'reference',
        validation: { targetCollection: 'people', multiple: true },
      },
    ],
  });
  await ok('POST', '/search/enable', { collection: 'posts', weights: { title: 10, body: 1 } });
  const byline = await ok('POST', '/bylines', { displayName: 'Ann Author' });
  const people: string[] = [];
  for (let i = 0; i < 3; i++) {
    const p = await createEntry(cms, { data: { title: `Person ${i}` } }, admin, 'people');
    await publish(cms, p.item.id, admin, 'people');
    people.push(p.item.id);
  }
  const posts: string[] = [];
  for (let i = 0; i < 12; i++) {
    const p = await createEntry(cms, {
      data: { title: `Seeded post ${i}`, body: `Words about gardens and rivers, number ${i}.` },
      bylines: [byline.id],
      references: { authors: people },
    });
    await publish(cms, p.item.id);
    posts.push(p.item.id);
  }
  await ok('POST', '/taxonomies', { name: 'tags', label: 'Tags', collections: ['posts'] });
  const term = await ok('POST', '/taxonomies/tags/terms', { label: 'News' });
  await ok('POST', `/content/posts/${posts[0]}/terms/tags`, { terms: ['news'] });
  await ok('POST', '/menus', { name: 'main', label: 'Main' });
  await ok('POST', '/menus/main/items', { kind: 'url', url: '/', label: 'Home' });
  await ok('POST', '/menus/main/items', { kind: 'content', collection: 'posts', entryId: posts[0] });
  const section = await ok('POST', '/sections', { title: 'Newsletter', slug: 'newsletter' });
  await ok('POST', '/widget-areas', { name: 'sidebar', label: 'Sidebar' });
  const redirect = await ok('POST', '/redirects', { source: '/old', target: '/new' });
  const media = (await upload(cms, await png(20, 20))).body.data.item;
  const commented = await call(cms, 'POST', `/comments/posts/${posts[0]}`, {
    token: null,
    body: { authorName: 'Reader', authorEmail: 'reader@example.test', body: 'Nice post.' },
    headers: { 'x-cms-request': '1' },
  });
  expect(commented.status, JSON.stringify(commented.body)).toBe(201);
  const comment = commented.body.data;
  const reader = await cms.userToken(ROLES.SUBSCRIBER);
  return { posts, people, byline, term, section, redirect, media, comment, reader };
}

type Seeded = Awaited<ReturnType<typeof seed>>;

function restCases(cms: TestCms, s: Seeded): Case[] {
  const admin = cms.adminToken;
  let seq = 0;
  const send =
    (method: string, path: string, body?: unknown, token: string | null = admin, headers?: Record<string, string>) =>
    () =>
      call(cms, method, path, { token, body, headers });
  const fixed = (name: string, method: string, path: string, token: string | null = admin, publishedRead = false) => ({
    name,
    publishedRead,
    prepare: async () => send(method, path, undefined, token),
  });
  const post = (i: number) => `/content/posts/${s.posts[i]}`;
  const fresh = async (title = `Fresh entry ${++seq}`) =>
    (await createEntry(cms, { data: { title, body: 'Some words.' } })).item as { id: string };
  const rev = async (path: string) => (await call(cms, 'GET', path, { token: admin })).body.data._rev as string;
  const comment = { 'x-cms-request': '1' };

  return [
    // Content: the published-read path (a reader's token, and anonymous)
    fixed('GET getContent (reader)', 'GET', post(1), s.reader.token, true),
    fixed('GET listContent limit=20 (reader)', 'GET', '/content/posts?limit=20', s.reader.token, true),
    fixed(
      'GET listContent include=references (reader)',
      'GET',
      '/content/posts?limit=20&include=references',
      s.reader.token,
      true,
    ),
    fixed('GET listContent term filter (reader)', 'GET', '/content/posts?term=tags:news', s.reader.token),
    // Content: the editor's side
    fixed('GET getContent (admin)', 'GET', post(1)),
    fixed('GET listContent (admin)', 'GET', '/content/posts?limit=20'),
    fixed('GET listTrashedContent', 'GET', '/content/posts/trash'),
    fixed('GET listContentAuthors', 'GET', '/content/posts/authors'),
    fixed('GET listContentRevisions', 'GET', `${post(1)}/revisions`),
    fixed('GET getContentTranslations', 'GET', `${post(1)}/translations`),
    fixed('GET listContentReferences', 'GET', `${post(1)}/references/authors`),
    fixed('GET getEntryLock', 'GET', `${post(2)}/lock`),
    fixed('GET getContentTerms', 'GET', `${post(0)}/terms/tags`),
    fixed('GET getEntrySeo', 'GET', `/seo/posts/${s.posts[1]}`),
    {
      name: 'POST createContent',
      prepare: async () => send('POST', '/content/posts', { data: { title: `Created ${++seq}`, body: 'Text.' } }),
    },
    {
      name: 'PUT updateContent (published entry: a pending draft)',
      prepare: async () => {
        const path = post(3);
        const _rev = await rev(path);
        return send('PUT', path, { data: { title: `Edited ${++seq}` }, _rev });
      },
    },
    {
      name: 'POST publishContent (pending draft)',
      prepare: async () => {
        const path = post(4);
        await call(cms, 'PUT', path, { token: admin, body: { data: { title: `Draft ${++seq}` } } });
        return send('POST', `${path}/publish`, {});
      },
    },
    {
      name: 'POST unpublishContent',
      prepare: async () => {
        const path = post(5);
        await call(cms, 'POST', `${path}/publish`, { token: admin, body: {} });
        return send('POST', `${path}/unpublish`, {});
      },
    },
    {
      name: 'POST scheduleContent',
      prepare: async () => {
        const { id } = await fresh();
        return send('POST', `/content/posts/${id}/schedule`, {
          scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
        });
      },
    },
    {
      name: 'POST duplicateContent',
      // A fresh entry each time: copies of one entry would search ever further for a free slug.
      prepare: async () => {
        const { id } = await fresh();
        return send('POST', `/content/posts/${id}/duplicate`, {});
      },
    },
    {
      name: 'DELETE deleteContent (to the trash)',
      prepare: async () => {
        const { id } = await fresh();
        return send('DELETE', `/content/posts/${id}`);
      },
    },
    {
      name: 'POST restoreContent',
      prepare: async () => {
        const { id } = await fresh();
        await call(cms, 'DELETE', `/content/posts/${id}`, { token: admin });
        return send('POST', `/content/posts/${id}/restore`, {});
      },
    },
    {
      name: 'POST acquireEntryLock',
      prepare: async () => send('POST', `${post(7)}/lock`, { token: 'tab-1' }),
    },
    {
      name: 'POST setContentTerms',
      prepare: async () => send('POST', `${post(8)}/terms/tags`, { terms: ['news'] }),
    },
    // Schema
    fixed('GET listCollections', 'GET', '/schema/collections'),
    fixed('GET getCollection', 'GET', '/schema/collections/posts'),
    fixed('GET listFields', 'GET', '/schema/collections/posts/fields'),
    fixed('GET getField', 'GET', '/schema/collections/posts/fields/title'),
    fixed('GET getContentModel', 'GET', '/admin/content/model'),
    fixed('GET getContentDashboard', 'GET', '/admin/content/dashboard'),
    // Media
    fixed('GET listMedia', 'GET', '/media'),
    fixed('GET getMedia', 'GET', `/media/${s.media.id}`),
    fixed('GET getMediaUsage', 'GET', `/media/${s.media.id}/usage`),
    fixed('GET listMediaFolders', 'GET', '/media/folders'),
    {
      name: 'PUT updateMedia',
      prepare: async () => send('PUT', `/media/${s.media.id}`, { alt: `Alt ${++seq}` }),
    },
    {
      name: 'POST uploadMedia (new image)',
      // Bytes of its own each time: the library keeps one item per content hash.
      prepare: async () => {
        const bytes = await png(16, 16, { r: ++seq % 256, g: 40, b: 90 });
        return () => upload(cms, bytes, { name: `image-${seq}.png` });
      },
    },
    // Taxonomies
    fixed('GET listTaxonomies', 'GET', '/taxonomies'),
    fixed('GET getTaxonomy', 'GET', '/taxonomies/tags'),
    fixed('GET listTerms', 'GET', '/taxonomies/tags/terms'),
    fixed('GET getTerm', 'GET', `/taxonomies/tags/terms/${s.term.id}`),
    {
      name: 'POST createTerm',
      prepare: async () => send('POST', '/taxonomies/tags/terms', { label: `Topic ${++seq}` }),
    },
    // Menus, sections, widgets, bylines
    fixed('GET listMenus', 'GET', '/menus'),
    fixed('GET getMenu', 'GET', '/menus/main'),
    {
      name: 'POST createMenuItem',
      prepare: async () => send('POST', '/menus/main/items', { kind: 'url', url: `/page-${++seq}`, label: 'Page' }),
    },
    fixed('GET listSections', 'GET', '/sections'),
    fixed('GET getSection', 'GET', `/sections/${s.section.slug}`),
    fixed('GET listWidgetAreas', 'GET', '/widget-areas'),
    fixed('GET getWidgetArea', 'GET', '/widget-areas/sidebar'),
    fixed('GET listBylines', 'GET', '/bylines'),
    fixed('GET getByline', 'GET', `/bylines/${s.byline.id}`),
    // Settings
    fixed('GET getSettings', 'GET', '/settings'),
    {
      name: 'PUT updateSettings',
      prepare: async () => send('PUT', '/settings', { tagline: `Tagline ${++seq}` }),
    },
    // Search
    fixed('GET search', 'GET', '/search?q=gardens'),
    fixed('GET search (reader)', 'GET', '/search?q=rivers', s.reader.token),
    fixed('GET searchSuggest', 'GET', '/search/suggest?q=gar'),
    fixed('GET getSearchStats', 'GET', '/search/stats'),
    // Comments
    fixed('GET listPublicComments', 'GET', `/comments/posts/${s.posts[0]}`, null),
    {
      name: 'POST createComment',
      prepare: async () =>
        send(
          'POST',
          `/comments/posts/${s.posts[1]}`,
          { authorName: 'Reader', authorEmail: 'reader@example.test', body: `Comment ${++seq}` },
          null,
          comment,
        ),
    },
    fixed('GET listAdminComments', 'GET', '/admin/comments'),
    fixed('GET getCommentCounts', 'GET', '/admin/comments/counts'),
    fixed('GET getComment', 'GET', `/admin/comments/${s.comment.id}`),
    {
      name: 'PUT updateCommentStatus',
      prepare: async () => {
        const status = ++seq % 2 ? 'approved' : 'pending';
        return send('PUT', `/admin/comments/${s.comment.id}/status`, { status });
      },
    },
    // Redirects
    fixed('GET listRedirects', 'GET', '/redirects'),
    fixed('GET getRedirect', 'GET', `/redirects/${s.redirect.id}`),
    fixed('GET testRedirect', 'GET', '/redirects/test?path=/old'),
    {
      name: 'POST createRedirect',
      prepare: async () => send('POST', '/redirects', { source: `/moved-${++seq}`, target: '/new' }),
    },
    // Users and tokens
    fixed('GET listUsers', 'GET', '/admin/users'),
    fixed('GET getUser', 'GET', `/admin/users/${cms.adminId}`),
    fixed('GET authMe', 'GET', '/auth/me'),
    fixed('GET listTokens', 'GET', '/auth/tokens'),
  ];
}

/** An MCP client that reaches the app in this process (its requests run inside the test's scopes). */
async function inProcessMcp(cms: TestCms) {
  const transport = new StreamableHTTPClientTransport(new URL('http://localhost/_cms/api/mcp'), {
    requestInit: { headers: { Authorization: `Bearer ${cms.adminToken}` } },
    fetch: (url, init) => Promise.resolve(cms.app.request(String(url), init)),
  });
  const client = new Client({ name: 'query-budget', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

function mcpCases(client: Client, s: Seeded): Case[] {
  let seq = 0;
  const tool = (name: string, args: () => Record<string, unknown> | Promise<Record<string, unknown>>) => ({
    name: `MCP ${name}`,
    prepare: async () => {
      const a = await args();
      return async (): Promise<Sent> => {
        const res = await client.callTool({ name, arguments: a });
        return { status: res.isError ? 500 : 200, body: res.content };
      };
    },
  });
  return [
    tool('content_get', () => ({ collection: 'posts', id: s.posts[1] })),
    tool('content_list', () => ({ collection: 'posts', limit: 20 })),
    tool('content_create', () => ({ collection: 'posts', data: { title: `Tool entry ${++seq}` } })),
    tool('content_update', () => ({ collection: 'posts', id: s.posts[9], data: { title: `Tool edit ${++seq}` } })),
    tool('media_list', () => ({})),
    tool('media_get', () => ({ id: s.media.id })),
    tool('search', () => ({ query: 'gardens' })),
  ];
}

describeEachDialect('query budget per operation', (dialect) => {
  it('each call runs the statements the snapshot says, and published reads stay within the budget', async () => {
    const cms = await testCms(dialect);
    const seeded = await seed(cms);
    const client = await inProcessMcp(cms);
    const cases = [...restCases(cms, seeded), ...mcpCases(client, seeded)];

    // From here time stands still (see the top of this file).
    vi.useFakeTimers({ toFake: ['Date'] });
    const failed: string[] = [];
    const measure = async (c: Case): Promise<number> => {
      const run = await c.prepare();
      const scope = await inQueryScope(async (scope) => {
        const res = await run();
        if (res.status >= 300) failed.push(`${c.name}: ${res.status} ${JSON.stringify(res.body)}`);
        return scope;
      });
      // Work the call left running after its answer (mail and other background tasks) counts too.
      await cms.services.auth.settled();
      return scope.statements;
    };
    const measured: Record<string, number> = {};
    for (const c of cases) {
      await measure(c);
      const first = await measure(c);
      const second = await measure(c);
      expect(second, `${c.name}: the same call cost ${first}, then ${second} statements`).toBe(first);
      measured[c.name] = first;
    }
    await client.close();
    expect(failed, 'every measured call succeeds').toEqual([]);

    const restCount = cases.filter((c) => !c.name.startsWith('MCP ')).length;
    expect(restCount).toBeGreaterThanOrEqual(40);
    const overBudget = cases
      .filter((c) => c.publishedRead && measured[c.name] > PUBLISHED_READ_BUDGET)
      .map((c) => `${c.name}: ${measured[c.name]}`);
    expect(overBudget, 'published reads over the DESIGN.md budget of two statements').toEqual([]);

    if (UPDATE) {
      const snapshot = readSnapshot();
      snapshot[dialect] = measured;
      writeFileSync(SNAPSHOT_FILE, `${JSON.stringify(snapshot, null, 2)}\n`);
    }
    const expected = readSnapshot()[dialect];
    expect(expected, `no ${dialect} snapshot: run with UPDATE_QUERY_BUDGET=1`).toBeDefined();
    expect(measured).toEqual(expected);
  }, 300_000);
});
