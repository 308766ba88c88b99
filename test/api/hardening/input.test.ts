import { expect, it } from 'vitest';
import { createApi } from '../../../src/http/app.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';

const b64 = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

/** Cursors a client could craft: wrong shapes, wrong types, NUL bytes, non-JSON, oversize. */
const CRAFTED_CURSORS = [
  b64([{ a: 1 }, 'x']),
  b64({ x: [1, 2] }),
  b64([null, null]),
  b64('not json at all'),
  b64([['nested'], 'x']),
  b64(['2026-01-01T00:00:00.000Z', '\u0000']),
  b64('[1e400,"x"]'),
  b64([true, { id: 1 }]),
  b64([]),
  'not-base64!!',
  'A'.repeat(5000),
];

/** Hostile values for every query parameter a list route might take. */
const HOSTILE_QUERIES = [
  'limit=-1',
  'limit=0',
  'limit=101',
  'limit=abc',
  'limit=1e400',
  'page=0',
  'page=-3',
  'page=1e20',
  'page=x',
  'page=1&cursor=abc',
  'orderBy=..%2F..',
  'orderBy=title;drop%20table%20x',
  'orderBy=__proto__',
  'order=sideways',
  'fieldFilters=%7B',
  'fieldFilters=%7B%22title%22%3A%7B%22in%22%3A%5B%5D%7D%7D',
  'fieldFilters=%7B%22title%22%3A%7B%22regex%22%3A%22.*%22%7D%7D',
  `fieldFilters=${encodeURIComponent(JSON.stringify({ title: { in: Array(500).fill('x') } }))}`,
  `fieldFilters=${encodeURIComponent(JSON.stringify({ views: { gt: { $ne: 1 } } }))}`,
  `fieldFilters=${encodeURIComponent('['.repeat(5000))}`,
  'locale=zz-ZZ',
  'locale=%00',
  'status=deleted',
  'status[]=draft',
  `q=${'x'.repeat(20000)}`,
  'q=%00',
  'bylineId=%27%20or%201%3D1',
  'include=everything',
  'includeAuthorByline=maybe',
  'role=999',
  'userId=%00',
];

async function fixture(cms: TestCms) {
  await postsCollection(cms, {
    supports: ['drafts', 'revisions'],
    fields: [
      {
        slug: 'related',
        label: 'Related',
        type: 'reference',
        validation: { targetCollection: 'posts', multiple: true },
      },
    ],
  });
  const a = await createEntry(cms, { data: { title: 'A', views: 1 } });
  const b = await createEntry(cms, { data: { title: 'B', views: 2 }, references: { related: [a.item.id] } });
  await publish(cms, a.item.id);
  return { a: a.item.id as string, b: b.item.id as string };
}

describeEachDialect('crafted input at the door', (dialect) => {
  it('answers a crafted cursor with 400 VALIDATION_ERROR on every list that takes one', async () => {
    const cms = await testCms(dialect);
    const { b } = await fixture(cms);
    const lists = [
      '/content/posts',
      '/content/posts/trash',
      '/admin/users',
      '/bylines',
      `/content/posts/${b}/references/related`,
      '/content/posts?orderBy=views',
      '/content/posts?orderBy=title',
    ];
    for (const path of lists) {
      for (const cursor of CRAFTED_CURSORS) {
        const sep = path.includes('?') ? '&' : '?';
        const res = await call(cms, 'GET', `${path}${sep}cursor=${encodeURIComponent(cursor)}`, {
          token: cms.adminToken,
        });
        expect([res.status, res.body.error?.code], `${path} cursor=${cursor.slice(0, 40)}`).toEqual([
          400,
          'VALIDATION_ERROR',
        ]);
      }
    }
    // A cursor the list wrote itself still pages on.
    const first = await call(cms, 'GET', '/content/posts?limit=1&orderBy=views', { token: cms.adminToken });
    const next = await call(cms, 'GET', `/content/posts?limit=1&orderBy=views&cursor=${first.body.data.nextCursor}`, {
      token: cms.adminToken,
    });
    expect(next.status).toBe(200);
    expect(next.body.data.items).toHaveLength(1);
  });

  it('never answers 500 to hostile query parameters on any GET route', async () => {
    const cms = await testCms(dialect);
    const { a, b } = await fixture(cms);
    const values: Record<string, string> = {
      collection: 'posts',
      id: b,
      field: 'related',
      slug: 'posts',
      fieldSlug: 'title',
      token: 'x',
      userCode: 'ABCD-EFGH',
    };
    const routes = createApi(cms.config)
      .routes.filter((r) => r.method === 'GET' && !r.path.includes('*'))
      .map((r) => r.path.replace(/:([A-Za-z]+)/g, (_m, name: string) => values[name] ?? a));
    expect(routes.length).toBeGreaterThan(25);
    const failures: string[] = [];
    for (const path of new Set(routes)) {
      for (const query of HOSTILE_QUERIES) {
        const res = await call(cms, 'GET', `${path}?${query}`, { token: cms.adminToken });
        if (res.status >= 500) failures.push(`${path}?${query.slice(0, 60)} → ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses NUL bytes and unpaired surrogates alike on both engines, naming the field', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms, { fields: [{ slug: 'meta', label: 'Meta', type: 'json' }] });
    const cases: Array<[string, string, (string | number)[]]> = [
      ['{"data":{"title":"a\\u0000b"}}', 'string value', ['data', 'title']],
      ['{"data":{"title":"x","meta":{"k":"v\\u0000"}}}', 'json value', ['data', 'meta', 'k']],
      ['{"data":{"title":"x","meta":{"k\\u0000":1}}}', 'json key', ['data', 'meta', 'k\u0000']],
      ['{"data":{"title":"x","meta":["\\ud800"]}}', 'lone surrogate in json', ['data', 'meta', 0]],
      ['{"data":{"title":"\\udc00x"}}', 'lone low surrogate', ['data', 'title']],
    ];
    for (const [raw, what, path] of cases) {
      const res = await call(cms, 'POST', '/content/posts', {
        token: cms.adminToken,
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expect([res.status, res.body.error?.code], what).toEqual([400, 'VALIDATION_ERROR']);
      expect(res.body.error.details.issues[0].path, what).toEqual(path);
    }
    // A well-formed pair (an emoji) is fine.
    const ok = await call(cms, 'POST', '/content/posts', { token: cms.adminToken, body: { data: { title: 'ok 😀' } } });
    expect(ok.status).toBe(201);
    expect(ok.body.data.item.data.title).toBe('ok 😀');
    // Labels and URLs too.
    const label = await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      body: { slug: 'pages', label: 'Pa\u0000ges' },
    });
    expect(label.status).toBe(400);
    expect((await call(cms, 'GET', '/content/posts/a%00b', { token: cms.adminToken })).status).toBe(400);
    const nothing = await call(cms, 'GET', '/content/posts', { token: cms.adminToken });
    expect(nothing.body.data.items).toHaveLength(1);
  });

  it('rejects a body nested beyond 64 levels before validating it', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms, { fields: [{ slug: 'meta', label: 'Meta', type: 'json' }] });
    const deep = `${'['.repeat(10000)}${']'.repeat(10000)}`;
    const res = await call(cms, 'POST', '/content/posts', {
      token: cms.adminToken,
      raw: `{"data":{"title":"x","meta":${deep}}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect([res.status, res.body.error.details.issues[0].code]).toEqual([400, 'too_deep']);
  });

  it('refuses an unauthenticated body by its declared length without reading it', async () => {
    const cms = await testCms(dialect);
    // A body that never ends: reading it would hang the request.
    const endless = new ReadableStream({
      start(controller) {
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const res = await cms.app.request('/_cms/api/content/posts', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '40000000' },
      body: endless,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
  });

  it('limits JSON bodies separately from uploads (configurable)', async () => {
    const cms = await testCms(dialect, { config: { jsonBodyLimit: 100_000, maxUploadSize: 10_000_000 } });
    await postsCollection(cms);
    const big = await call(cms, 'POST', '/content/posts', {
      token: cms.adminToken,
      body: { data: { title: 'x', body: 'y'.repeat(150_000) } },
    });
    expect([big.status, big.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const fits = await call(cms, 'POST', '/content/posts', {
      token: cms.adminToken,
      body: { data: { title: 'x', body: 'y'.repeat(50_000) } },
    });
    expect(fits.status).toBe(201);
  });

  it('answers a wrong method on a known route with 405 and Allow', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const res = await call(cms, 'PATCH', '/content/posts/01J00000000000000000000000', {
      token: cms.adminToken,
      body: {},
    });
    expect([res.status, res.body.error.code]).toEqual([405, 'METHOD_NOT_ALLOWED']);
    expect(res.headers.get('allow')?.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'PUT']);
    expect((await call(cms, 'GET', '/no/such/route', { token: cms.adminToken })).status).toBe(404);
  });

  it('treats names of Object.prototype members as plain names', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms, {
      fields: [
        { slug: 'constructor', label: 'Constructor', type: 'string', unique: true },
        { slug: 'valueof', label: 'Value', type: 'integer' },
      ],
    });
    const made = await call(cms, 'POST', '/content/posts', { token: cms.adminToken, body: { data: { title: 'x' } } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data.item.data.constructor).toBeNull();
    for (const orderBy of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const res = await call(cms, 'GET', `/content/posts?orderBy=${orderBy}`, { token: cms.adminToken });
      expect(res.status, orderBy).toBe(400);
    }
    const op = await call(
      cms,
      'GET',
      `/content/posts?fieldFilters=${encodeURIComponent(JSON.stringify({ title: { constructor: 'x' } }))}`,
      { token: cms.adminToken },
    );
    expect(op.status).toBe(400);
    const scope = await call(cms, 'POST', '/auth/tokens', {
      token: cms.adminToken,
      body: { name: 'x', scopes: ['toString'] },
    });
    expect(scope.status).toBe(400);
  });

  it('reports one limit for a too-long collection slug', async () => {
    const cms = await testCms(dialect);
    const res = await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      body: { slug: 'a'.repeat(64), label: 'X' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.issues).toHaveLength(1);
    expect(res.body.error.details.issues[0].message).toContain('60');
  });

  it('gives entries that predate a field its default: [] for blocks, defaultValue otherwise', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const old = await createEntry(cms, { data: { title: 'Old' } });
    await call(cms, 'POST', '/schema/block-types', {
      token: cms.adminToken,
      body: { slug: 'quote', label: 'Quote', fields: [{ slug: 'text', label: 'Text', type: 'text' }] },
    });
    const fields = [
      { slug: 'sections', label: 'Sections', type: 'blocks', validation: { allowedTypes: ['quote'] } },
      { slug: 'tagline', label: 'Tagline', type: 'string', defaultValue: 'hello' },
      { slug: 'featured', label: 'Featured', type: 'boolean', defaultValue: false },
      { slug: 'score', label: 'Score', type: 'integer', defaultValue: 3 },
      { slug: 'tags', label: 'Tags', type: 'multiSelect', defaultValue: ['a'] },
    ];
    for (const f of fields) {
      const res = await call(cms, 'POST', '/schema/collections/posts/fields', { token: cms.adminToken, body: f });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const read = await call(cms, 'GET', `/content/posts/${old.item.id}`, { token: cms.adminToken });
    expect(read.body.data.item.data).toMatchObject({
      sections: [],
      tagline: 'hello',
      featured: false,
      score: 3,
      tags: ['a'],
    });
    const listed = await call(cms, 'GET', '/content/posts', { token: cms.adminToken });
    expect(listed.body.data.items[0].data.sections).toEqual([]);
  });
});
