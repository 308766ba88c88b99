import { describe, expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { ManualClock } from '../../../src/core/clock.js';
import type { ConfigInput } from '../../../src/core/config.js';
import { frontendOrigin } from '../../../src/http/admin.js';
import { call, callOk, type TestCms, testCms } from '../../helpers/cms.js';
import { createEntry, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mcpClient, serve } from '../../helpers/mcp.js';

const SITE = 'https://site.example/base';

/** A routable `posts` collection (drafts and revisions), and the site's front end unless `site` is null. */
async function previewSite(
  dialect: 'sqlite' | 'postgres',
  options: { clock?: ManualClock; config?: ConfigInput; site?: string | null; urlPattern?: unknown } = {},
): Promise<TestCms> {
  const cms = await testCms(dialect, { clock: options.clock, config: options.config });
  await callOk(cms, cms.adminToken, 'POST', '/schema/collections', {
    slug: 'posts',
    label: 'Posts',
    urlPattern: options.urlPattern === undefined ? '/blog/{slug}' : options.urlPattern,
    fields: [
      { slug: 'title', label: 'Title', type: 'string', required: true },
      { slug: 'body', label: 'Body', type: 'text' },
    ],
  });
  const site = options.site === undefined ? SITE : options.site;
  if (site) await callOk(cms, cms.adminToken, 'PUT', '/settings', { siteUrl: site });
  return cms;
}

const link = (cms: TestCms, id: string, token = cms.adminToken) =>
  call<{ token: string; expiresAt: string; url: string | null; missing: string | null }>(
    cms,
    'GET',
    `/content/posts/${id}/preview-url`,
    { token },
  );

/** A read with a preview token, anonymously unless a bearer token is given. */
const read = (cms: TestCms, path: string, preview: string, token: string | null = null) =>
  call(cms, 'GET', `/content/posts/${path}${path.includes('?') ? '&' : '?'}preview=${encodeURIComponent(preview)}`, {
    token,
  });

const refusal = (res: { status: number; body: any }) => [res.status, res.body.error?.code, res.body.error?.details];

describeEachDialect('preview links', (dialect) => {
  it("reads a draft through its link, anonymously, and the link is the entry's page on the front end", async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const cms = await previewSite(dialect, { clock });
    const { item } = await createEntry(cms, { slug: 'hello', data: { title: 'Draft title', body: 'Words' } });
    expect(item.status).toBe('draft');

    const res = await link(cms, item.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { token, expiresAt, url, missing } = res.body.data;
    expect(expiresAt).toBe('2026-03-01T11:00:00.000Z');
    expect(missing).toBeNull();
    expect(url).toBe(`${SITE}/blog/hello?preview=${token}`);
    expect(new URL(url!).searchParams.get('preview')).toBe(token);
    // Compact and URL-safe: nothing to escape in a query string.
    expect(token).toMatch(/^pv1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);

    expect((await call(cms, 'GET', `/content/posts/${item.id}`)).status).toBe(401);
    const got = await read(cms, item.id, token);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body.data.item).toMatchObject({ id: item.id, status: 'draft', data: { title: 'Draft title' } });
    expect(got.headers.get('cache-control')).toBe('no-store');
    // By slug too, and with the header instead of the parameter.
    const bySlug = await call(cms, 'GET', '/content/posts/hello', { headers: { 'x-cms-preview': token } });
    expect(bySlug.status).toBe(200);
    expect(bySlug.body.data.item.id).toBe(item.id);
    expect(bySlug.headers.get('cache-control')).toBe('no-store');
    // A read without a token is cacheable as before.
    expect(
      (await call(cms, 'GET', `/content/posts/${item.id}`, { token: cms.adminToken })).headers.get('cache-control'),
    ).toBeNull();
  });

  it('answers the pending draft of a published entry (values and slug) while everyone else sees the live one', async () => {
    const cms = await previewSite(dialect);
    const reader = await cms.userToken(ROLES.SUBSCRIBER);
    const { item } = await createEntry(cms, { slug: 'live', data: { title: 'Live title' } });
    await publish(cms, item.id);
    await callOk(cms, cms.adminToken, 'PUT', `/content/posts/${item.id}`, {
      slug: 'renamed',
      data: { title: 'Staged title' },
    });
    const { token, url } = (await link(cms, item.id)).body.data;
    // The page the draft will have.
    expect(url).toBe(`${SITE}/blog/renamed?preview=${token}`);

    const live = await call(cms, 'GET', `/content/posts/${item.id}`, { token: reader.token });
    expect(live.body.data.item).toMatchObject({ slug: 'live', data: { title: 'Live title' }, hasDraft: true });
    for (const path of [item.id, 'renamed', 'live']) {
      const seen = await read(cms, path, token, reader.token);
      expect(seen.status, path).toBe(200);
      expect(seen.body.data.item, path).toMatchObject({
        id: item.id,
        status: 'published',
        slug: 'renamed',
        data: { title: 'Staged title' },
      });
    }
    // Without the token the draft's slug finds nothing for a Subscriber.
    expect((await call(cms, 'GET', '/content/posts/renamed', { token: reader.token })).status).toBe(404);
  });

  it('refuses a read of another entry, of another collection, with a tampered or made-up token', async () => {
    const cms = await previewSite(dialect);
    await callOk(cms, cms.adminToken, 'POST', '/schema/collections', {
      slug: 'pages',
      label: 'Pages',
      fields: [{ slug: 'title', label: 'Title', type: 'string' }],
    });
    const a = (await createEntry(cms, { slug: 'a', data: { title: 'A' } })).item;
    const b = (await createEntry(cms, { slug: 'b', data: { title: 'B' } })).item;
    await publish(cms, b.id);
    const page = (await createEntry(cms, { slug: 'a', data: { title: 'Page' } }, cms.adminToken, 'pages')).item;
    const { token } = (await link(cms, a.id)).body.data;

    const otherEntry = ['PREVIEW_TOKEN_INVALID', { reason: 'other_entry' }];
    expect(refusal(await read(cms, b.id, token))).toEqual([403, ...otherEntry]);
    expect(refusal(await read(cms, 'b', token))).toEqual([403, ...otherEntry]);
    expect(refusal(await read(cms, 'nothing-here', token))).toEqual([403, ...otherEntry]);
    const otherCollection = await call(cms, 'GET', `/content/pages/${page.id}?preview=${token}`);
    expect(refusal(otherCollection)).toEqual([403, ...otherEntry]);
    // The refusal is not cached either, and says what happened.
    const refused = await read(cms, b.id, token);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(refused.body.error.message).toMatch(/another entry/);

    const [version, claims, signature] = token.split('.');
    const wire = JSON.parse(Buffer.from(claims, 'base64url').toString());
    const retargeted = Buffer.from(JSON.stringify({ ...wire, e: b.id })).toString('base64url');
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    for (const forged of [
      `${version}.${retargeted}.${signature}`,
      `${version}.${claims}.${flipped}`,
      `${version}.${claims}`,
      `pv9.${claims}.${signature}`,
      'not-a-token',
      'x'.repeat(2048),
    ]) {
      const res = await read(cms, a.id, forged);
      expect(refusal(res), forged.slice(0, 40)).toEqual([403, 'PREVIEW_TOKEN_INVALID', { reason: 'forged' }]);
    }
    // A header that is no token is refused the same way, never a 500.
    const header = await call(cms, 'GET', `/content/posts/${a.id}`, { headers: { 'x-cms-preview': '..' } });
    expect(refusal(header)).toEqual([403, 'PREVIEW_TOKEN_INVALID', { reason: 'forged' }]);
  });

  it('expires after the configured lifetime, which is bounded', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const cms = await previewSite(dialect, { clock, config: { previewTokenTtl: 120 } });
    const { item } = await createEntry(cms, { data: { title: 'Soon gone' } });
    const { token, expiresAt } = (await link(cms, item.id)).body.data;
    expect(expiresAt).toBe('2026-03-01T10:02:00.000Z');
    clock.advance(119_999);
    expect((await read(cms, item.id, token)).status).toBe(200);
    clock.advance(1);
    const late = await read(cms, item.id, token);
    expect(refusal(late)).toEqual([403, 'PREVIEW_TOKEN_INVALID', { reason: 'expired' }]);
    expect(late.body.error.message).toMatch(/expired/);
    for (const previewTokenTtl of [59, 604_801]) {
      await expect(testCms(dialect, { config: { previewTokenTtl } })).rejects.toThrow(/previewTokenTtl/);
    }
  });

  it('stops every outstanding token when an Admin rotates the secret', async () => {
    const cms = await previewSite(dialect);
    const editor = await cms.userToken(ROLES.EDITOR);
    const { item } = await createEntry(cms, { data: { title: 'Rotating' } });
    const before = (await link(cms, item.id)).body.data.token;
    const other = (await link(cms, item.id, editor.token)).body.data.token;
    expect((await read(cms, item.id, before)).status).toBe(200);

    const denied = await call(cms, 'POST', '/content/preview/rotate', { token: editor.token });
    expect(refusal(denied)).toEqual([403, 'INSUFFICIENT_PERMISSIONS', { permission: 'settings:manage' }]);
    expect((await read(cms, item.id, before)).status).toBe(200);

    const rotated = await call(cms, 'POST', '/content/preview/rotate', { token: cms.adminToken });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.rotatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    for (const old of [before, other]) {
      expect(refusal(await read(cms, item.id, old))).toEqual([403, 'PREVIEW_TOKEN_INVALID', { reason: 'forged' }]);
    }
    const after = (await link(cms, item.id)).body.data.token;
    expect((await read(cms, item.id, after)).status).toBe(200);
  });

  it('is for draft readers: Subscribers and tokens without content:read are refused, Contributors preview any draft', async () => {
    const cms = await previewSite(dialect);
    const subscriber = await cms.userToken(ROLES.SUBSCRIBER);
    const contributor = await cms.userToken(ROLES.CONTRIBUTOR);
    const writeOnly = await cms.userToken(ROLES.EDITOR, ['content:write']);
    const mine = (await createEntry(cms, { data: { title: 'Mine' } }, contributor.token)).item;
    const theirs = (await createEntry(cms, { data: { title: 'Theirs' } })).item;

    expect(refusal(await link(cms, theirs.id, subscriber.token)).slice(0, 2)).toEqual([
      403,
      'INSUFFICIENT_PERMISSIONS',
    ]);
    expect(refusal(await link(cms, theirs.id, writeOnly.token)).slice(0, 2)).toEqual([403, 'INSUFFICIENT_SCOPE']);
    expect((await call(cms, 'GET', `/content/posts/${theirs.id}/preview-url`)).status).toBe(401);
    // Contributors read every draft (content:read_drafts), so they may preview every one.
    for (const entry of [mine, theirs]) {
      const res = await link(cms, entry.id, contributor.token);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await read(cms, entry.id, res.body.data.token)).body.data.item.id).toBe(entry.id);
    }
    expect((await link(cms, '01ARZ3NDEKTSV4RRFFQ69G5FAV')).body.error.code).toBe('NOT_FOUND');
    expect((await call(cms, 'GET', `/content/nope/${theirs.id}/preview-url`, { token: cms.adminToken })).status).toBe(
      404,
    );
  });

  it("ends a user's links when they are disabled or may no longer read drafts", async () => {
    const cms = await previewSite(dialect);
    const editor = await cms.userToken(ROLES.EDITOR);
    const author = await cms.userToken(ROLES.AUTHOR);
    const { item } = await createEntry(cms, { data: { title: 'Issued' } });
    const byEditor = (await link(cms, item.id, editor.token)).body.data.token;
    const byAuthor = (await link(cms, item.id, author.token)).body.data.token;
    expect((await read(cms, item.id, byEditor)).status).toBe(200);

    await callOk(cms, cms.adminToken, 'PUT', `/admin/users/${editor.userId}`, { role: ROLES.SUBSCRIBER });
    await callOk(cms, cms.adminToken, 'POST', `/admin/users/${author.userId}/disable`);
    for (const token of [byEditor, byAuthor]) {
      expect(refusal(await read(cms, item.id, token))).toEqual([403, 'PREVIEW_TOKEN_INVALID', { reason: 'revoked' }]);
    }
  });

  it('without a front end answers url null with what is missing, and the token still reads the draft', async () => {
    const cms = await previewSite(dialect, { site: null });
    const { item } = await createEntry(cms, { slug: 'plain', data: { title: 'No site' } });
    const res = await link(cms, item.id);
    expect(res.body.data).toMatchObject({ url: null, missing: 'siteUrl' });
    expect((await read(cms, item.id, res.body.data.token)).status).toBe(200);
    // publicUrl (the service's own address) is not a front end: the admin frames nothing.
    expect(await frontendOrigin(cms.services)).toBeNull();

    await callOk(cms, cms.adminToken, 'PUT', '/settings', { siteUrl: 'http://127.0.0.1:8080/site/' });
    expect(await frontendOrigin(cms.services)).toBe('http://127.0.0.1:8080');
    expect((await link(cms, item.id)).body.data.url).toMatch(
      /^http:\/\/127\.0\.0\.1:8080\/site\/blog\/plain\?preview=/,
    );

    await callOk(cms, cms.adminToken, 'POST', '/schema/collections', {
      slug: 'notes',
      label: 'Notes',
      fields: [{ slug: 'title', label: 'Title', type: 'string' }],
    });
    const note = (await createEntry(cms, { data: { title: 'Unrouted' } }, cms.adminToken, 'notes')).item;
    const unrouted = await call(cms, 'GET', `/content/notes/${note.id}/preview-url`, { token: cms.adminToken });
    expect(unrouted.body.data).toMatchObject({ url: null, missing: 'urlPattern' });
  });

  it('follows the fallback chain by slug: the token entry’s draft counts as a match, a published entry first ends the walk', async () => {
    const i18n = { locales: ['en', 'fr', 'de'], defaultLocale: 'en', fallback: { de: 'fr' } };
    const cms = await previewSite(dialect, { config: { i18n } });
    const en = (await createEntry(cms, { slug: 'hello', data: { title: 'Hello (draft)' } })).item;
    const { token, url } = (await link(cms, en.id)).body.data;
    expect(url).toBe(`${SITE}/blog/hello?preview=${token}`);

    // de → fr → en: no published "hello" before en, so the lookup lands on the token's draft.
    for (const locale of ['en', 'fr', 'de']) {
      const res = await read(cms, `hello?locale=${locale}`, token);
      expect(res.status, locale).toBe(200);
      expect(res.body.data.item).toMatchObject({ id: en.id, locale: 'en', data: { title: 'Hello (draft)' } });
    }

    // A published French "hello" comes first in the chain for fr and de: that read is another entry's.
    const fr = (
      await callOk(cms, cms.adminToken, 'POST', '/content/posts', {
        locale: 'fr',
        translationOf: en.id,
        slug: 'hello',
        data: { title: 'Bonjour' },
      })
    ).item;
    await publish(cms, fr.id);
    for (const locale of ['fr', 'de']) {
      expect(refusal(await read(cms, `hello?locale=${locale}`, token)), locale).toEqual([
        403,
        'PREVIEW_TOKEN_INVALID',
        { reason: 'other_entry' },
      ]);
    }
    expect((await read(cms, 'hello?locale=en', token)).body.data.item.id).toBe(en.id);

    // The French entry's own link: its page is under /fr, and its draft is found by its slug.
    const frLink = (await link(cms, fr.id)).body.data;
    expect(frLink.url).toBe(`${SITE}/fr/blog/hello?preview=${frLink.token}`);
    expect((await read(cms, 'hello?locale=de', frLink.token)).body.data.item.id).toBe(fr.id);
    expect(refusal(await read(cms, 'hello?locale=en', frLink.token))[2]).toEqual({ reason: 'other_entry' });
  });

  it('never grants lists, other reads or writes', async () => {
    const cms = await previewSite(dialect);
    const reader = await cms.userToken(ROLES.SUBSCRIBER);
    const { item } = await createEntry(cms, { slug: 'secret', data: { title: 'Unreleased' } });
    const live = (await createEntry(cms, { slug: 'out', data: { title: 'Out' } })).item;
    await publish(cms, live.id);
    const { token } = (await link(cms, item.id)).body.data;
    const q = `preview=${token}`;
    const header = { 'x-cms-preview': token };

    // Lists: anonymous is still anonymous; a reader sees the published list only.
    expect((await call(cms, 'GET', `/content/posts?${q}`)).status).toBe(401);
    const list = await call(cms, 'GET', `/content/posts?${q}`, { token: reader.token, headers: header });
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((i: any) => i.id)).toEqual([live.id]);

    // Other reads of the entry and every write: the token is no credential, so each answers as it does
    // to an anonymous caller without it (a refusal), and nothing changes.
    for (const [method, path, body] of [
      ['GET', `/content/posts/${item.id}/compare`, undefined],
      ['GET', `/content/posts/${item.id}/revisions`, undefined],
      ['GET', `/content/posts/${item.id}/translations`, undefined],
      ['GET', `/content/posts/${item.id}/preview-url`, undefined],
      ['PUT', `/content/posts/${item.id}`, { data: { title: 'Changed' } }],
      ['POST', `/content/posts/${item.id}/publish`, {}],
      ['DELETE', `/content/posts/${item.id}`, undefined],
      ['POST', '/content/posts', { data: { title: 'New' } }],
      ['POST', '/content/preview/rotate', undefined],
    ] as const) {
      const res = await call(cms, method, `${path}?${q}`, { body, headers: header });
      const without = await call(cms, method, path, { body });
      expect(res.status, `${method} ${path}`).toBe(without.status);
      expect([401, 404], `${method} ${path}`).toContain(res.status);
    }
    // A reader's writes stay refused too (a draft looks missing to a Subscriber, token or not).
    const put = await call(cms, 'PUT', `/content/posts/${item.id}?${q}`, {
      token: reader.token,
      headers: header,
      body: { data: { title: 'Changed' } },
    });
    expect(put.status).toBe(404);
    expect((await read(cms, item.id, token)).body.data.item.data.title).toBe('Unreleased');
  });

  it('is offered as the MCP tool content_preview_url with the content:read scope', async () => {
    const cms = await previewSite(dialect);
    const { item } = await createEntry(cms, { slug: 'tool', data: { title: 'From a tool' } });
    const url = await serve(cms);
    const admin = await mcpClient(url, cms.adminToken);
    const made = await admin.ok('content_preview_url', { collection: 'posts', id: item.id });
    expect(made.url).toBe(`${SITE}/blog/tool?preview=${made.token}`);
    expect((await read(cms, item.id, made.token)).body.data.item.data.title).toBe('From a tool');
    await admin.close();

    const reader = await cms.userToken(ROLES.EDITOR, ['content:read']);
    const scoped = await mcpClient(url, reader.token);
    expect((await scoped.ok('content_preview_url', { collection: 'posts', id: item.id })).token).toMatch(/^pv1\./);
    await scoped.close();

    for (const [role, scopes, code] of [
      [ROLES.SUBSCRIBER, ['content:read'], 'INSUFFICIENT_PERMISSIONS'],
      [ROLES.EDITOR, ['media:read'], 'INSUFFICIENT_SCOPE'],
    ] as const) {
      const t = await cms.userToken(role, [...scopes]);
      const client = await mcpClient(url, t.token);
      const res = await client.call('content_preview_url', { collection: 'posts', id: item.id });
      expect(res.isError, code).toBe(true);
      expect(res._meta?.code).toBe(code);
      await client.close();
    }
  });
});

describe('preview in the OpenAPI document', () => {
  it('documents getContentPreviewUrl, the rotation and getContent’s preview parameter', async () => {
    const cms = await testCms('sqlite', { withAdmin: false });
    const doc = (await (await cms.app.request('/_cms/api/openapi.json')).json()) as any;
    const previewUrl = doc.paths['/content/{collection}/{id}/preview-url'].get;
    expect(previewUrl.operationId).toBe('getContentPreviewUrl');
    expect(previewUrl.responses['200'].content['application/json'].schema).toBeDefined();
    expect(doc.paths['/content/preview/rotate'].post.operationId).toBe('rotateContentPreviewSecret');
    const get = doc.paths['/content/{collection}/{id}'].get;
    expect(get.parameters.map((p: any) => `${p.in}:${p.name}`)).toContain('query:preview');
    expect(doc.components.schemas.ContentPreviewLink.required).toEqual(['token', 'expiresAt', 'url', 'missing']);
  });
});
