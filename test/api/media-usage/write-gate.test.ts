import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { type ApiResponse, call, peerCms, type TestCms } from '../../helpers/cms.js';
import { createEntry } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mcpClient, serve } from '../../helpers/mcp.js';
import { mediaCms, png, stagedLeftovers, upload } from '../../helpers/media.js';
import { asUpgradedSite, driveActivation } from '../../helpers/media-usage.js';
import { commentablePost } from '../../helpers/public.js';
import { Browser, sessionFor } from '../../helpers/session.js';

const CODE = 'MEDIA_USAGE_ACTIVATION_IN_PROGRESS';

function expectBlocked(res: ApiResponse, what: string) {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(503);
  expect(res.body.success, what).toBe(false);
  expect(res.body.error.code, what).toBe(CODE);
}

/** What the refused writes would have changed, read through the API (reads must keep working). */
async function snapshot(cms: TestCms, editorId: string) {
  const token = cms.adminToken;
  const read = async (path: string) => {
    const res = await call(cms, 'GET', path, { token });
    expect(res.status, `GET ${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body.data;
  };
  return {
    entries: await read('/content/posts'),
    media: await read('/media'),
    settings: await read('/settings'),
    terms: await read('/taxonomies/tags/terms'),
    menus: await read('/menus'),
    comments: await read('/admin/comments'),
    redirects: await read('/redirects'),
    editor: await read(`/admin/users/${editorId}`),
    // Only the IDs: using a token stamps its last use.
    tokens: (await read('/auth/tokens')).items.map((t: any) => t.id).sort(),
    folders: await read('/media/folders'),
  };
}

describeEachDialect('Writes while media usage activation runs', (dialect) => {
  it('refuses every write of every domain with 503 and writes nothing; sign-in and reads go on; all succeed once active', async () => {
    const cms = await mediaCms(dialect, 'file', { config: { trustedProxyHeaders: ['x-forwarded-for'] } });
    const token = cms.adminToken;
    const entry = await commentablePost(cms);
    const tags = await call(cms, 'POST', '/taxonomies', {
      token,
      body: { name: 'tags', label: 'Tags', hierarchical: false, collections: ['posts'] },
    });
    expect(tags.status, JSON.stringify(tags.body)).toBe(201);
    let visitor = 0;
    const comment = () =>
      call(cms, 'POST', `/comments/posts/${entry}`, {
        token: null,
        headers: { 'x-cms-request': '1', 'x-forwarded-for': `198.51.100.${++visitor}` },
        body: { authorName: 'Visitor', authorEmail: 'v@example.test', body: `Comment ${visitor}` },
      });
    const pending = await comment();
    expect(pending.status, JSON.stringify(pending.body)).toBe(201);
    const editor = await cms.userToken(ROLES.EDITOR);
    // An operator session with a passkey, and a sign-in link to use while activation runs.
    const operator = await sessionFor(cms, cms.adminId);
    expect((await operator.addPasskey('Laptop')).status).toBe(201);
    const link = await call(cms, 'POST', `/admin/users/${cms.adminId}/recovery-link`, { token });
    const linkToken = new URL(link.body.data.link).searchParams.get('token')!;
    const picture = await png(12, 9);

    let n = 0;
    /** One representative write per domain (and the hand-written routes), fresh arguments on each run. */
    const writes: Array<[string, () => Promise<ApiResponse>]> = [
      ['entry create', () => call(cms, 'POST', '/content/posts', { token, body: { data: { title: `New ${++n}` } } })],
      ['entry update', () => call(cms, 'PUT', `/content/posts/${entry}`, { token, body: { data: { title: 'Hi' } } })],
      ['media upload', () => upload(cms, picture, { name: 'gate.png' })],
      [
        'media upload target',
        () =>
          call(cms, 'POST', '/media/upload-url', {
            token,
            body: { filename: `t${++n}.png`, contentType: 'image/png', size: picture.length },
          }),
      ],
      ['media folder create', () => call(cms, 'POST', '/media/folders', { token, body: { name: `Folder ${++n}` } })],
      ['settings update', () => call(cms, 'PUT', '/settings', { token, body: { title: `Title ${++n}` } })],
      ['term create', () => call(cms, 'POST', '/taxonomies/tags/terms', { token, body: { label: `Term ${++n}` } })],
      ['menu create', () => call(cms, 'POST', '/menus', { token, body: { name: `menu${++n}`, label: 'Main' } })],
      [
        'comment moderation',
        () =>
          call(cms, 'PUT', `/admin/comments/${pending.body.data.id}/status`, { token, body: { status: 'approved' } }),
      ],
      ['public comment', comment],
      [
        'redirect create',
        () => call(cms, 'POST', '/redirects', { token, body: { source: `/old-${++n}`, target: '/new' } }),
      ],
      ['user update', () => call(cms, 'PUT', `/admin/users/${editor.userId}`, { token, body: { role: ROLES.AUTHOR } })],
      ['token create', () => call(cms, 'POST', '/auth/tokens', { token, body: { name: 'ci', scopes: ['admin'] } })],
      ['session write', () => operator.call('PUT', '/settings', { body: { tagline: `Tagline ${++n}` } })],
    ];

    // Another process starts activation: this one has not seen `active`, so it reads the state row.
    await asUpgradedSite(cms);
    const peer = await peerCms(cms);
    const started = await call(peer, 'POST', '/admin/media-usage/activation', {
      token,
      body: { writersDrained: true },
    });
    expect(started.body.data.state).toBe('activating');

    const before = await snapshot(cms, editor.userId);
    const keys = await cms.storedKeys();
    for (const [what, run] of writes) expectBlocked(await run(), what);
    // A hand-written route (not declared with op()) is refused before it reads its body.
    expectBlocked(await call(cms, 'POST', '/import/blogplatform/execute', { token, raw: 'not multipart' }), 'import');
    expect(await snapshot(cms, editor.userId)).toEqual(before);
    expect(await cms.storedKeys()).toEqual(keys);
    expect(stagedLeftovers(cms)).toEqual([]);

    // Left open: reading activation progress, signing in (passkey, link) and out.
    const progress = await call(cms, 'GET', '/admin/media-usage/progress', { token });
    expect(progress.status).toBe(200);
    expect(progress.body.data.state).toBe('activating');
    const signIn = new Browser(cms, operator.authenticator);
    expect((await signIn.signInWithPasskey()).status).toBe(200);
    expect((await signIn.call('GET', '/auth/me')).body.data.user.id).toBe(cms.adminId);
    expect((await signIn.call('POST', '/auth/logout')).status).toBe(200);
    const byLink = new Browser(cms);
    expect((await byLink.call('POST', '/auth/magic-link/consume', { body: { token: linkToken } })).status).toBe(200);
    expect((await byLink.call('GET', '/auth/me')).body.data.user.id).toBe(cms.adminId);

    // Once active, the same writes go through.
    expect((await driveActivation(cms, token)).state).toBe('active');
    for (const [what, run] of writes) {
      const res = await run();
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    }
  }, 60_000);

  it('refuses writing MCP tools while activation runs; read-only tools and tools/list keep working', async () => {
    const cms = await mediaCms(dialect);
    const token = cms.adminToken;
    await commentablePost(cms);
    await createEntry(cms, { data: { title: 'Second' } });
    const mcp = await mcpClient(await serve(cms), token);
    const data = (await png(8, 8)).toString('base64');
    let n = 0;
    const writes: Array<[string, () => Record<string, unknown>]> = [
      ['content_create', () => ({ collection: 'posts', data: { title: `By tool ${++n}` } })],
      ['settings_update', () => ({ title: `Title ${++n}` })],
      ['menu_create', () => ({ name: `menu${++n}`, label: 'Main' })],
      ['taxonomy_create', () => ({ name: `tax${++n}`, label: 'Tags' })],
      ['media_upload', () => ({ filename: 'tool.png', data })],
    ];

    await asUpgradedSite(cms);
    await call(cms, 'POST', '/admin/media-usage/activation', { token, body: { writersDrained: true } });
    const settings = (await mcp.ok('settings_get')).title;
    for (const [name, args] of writes) {
      const res = await mcp.call(name, args());
      expect(res.isError, `${name}: ${res.content[0]?.text}`).toBe(true);
      expect(res._meta?.code, name).toBe(CODE);
      expect(res.content[0].text.startsWith(`[${CODE}]`)).toBe(true);
    }
    const listed = await mcp.ok('content_list', { collection: 'posts' });
    expect(listed.items).toHaveLength(2);
    expect((await mcp.ok('settings_get')).title).toBe(settings);
    expect((await mcp.ok('menu_list')).items).toEqual([]);
    const tools = await mcp.client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('content_create');

    await driveActivation(cms, token);
    for (const [name, args] of writes) await mcp.ok(name, args());
    expect((await mcp.ok('content_list', { collection: 'posts' })).items).toHaveLength(3);
    await mcp.close();
  }, 60_000);

  it('costs an active site no statement per write, and a site with tracking off one read', async () => {
    const cms = await mediaCms(dialect);
    const token = cms.adminToken;
    let n = 0;
    const write = () => call(cms, 'PUT', '/settings', { token, body: { title: `Title ${++n}` } });
    /** Statements of one settings update: the least of three, so a background cache re-check is not counted. */
    const cost = async () => {
      let least = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 3; i++) {
        const before = cms.database.queryCount;
        expect((await write()).status).toBe(200);
        least = Math.min(least, cms.database.queryCount - before);
      }
      return least;
    };
    await write();
    const active = await cost();
    await asUpgradedSite(cms);
    const expanded = await cost();
    expect(expanded - active).toBe(1);
  });

  it('documents the 503 on gated operations only', async () => {
    const cms = await mediaCms(dialect);
    const doc = (await (await cms.app.request('/_cms/api/openapi.json')).json()) as any;
    const byId = new Map<string, any>();
    for (const methods of Object.values<any>(doc.paths))
      for (const o of Object.values<any>(methods)) byId.set(o.operationId, o);
    const activation = (id: string) => byId.get(id).responses['503']?.description.includes('MEDIA_USAGE_ACTIVATION');
    for (const id of ['createContent', 'uploadMedia', 'updateSettings', 'createMenu', 'deleteRedirect']) {
      expect(activation(id), id).toBe(true);
    }
    // Reads are never gated; the activation routes wait only while a site import holds the site.
    // (Their 503 is the database being unavailable, which every operation documents.)
    expect(byId.get('listContent').responses['503'].description).not.toMatch(/MEDIA_USAGE|TRANSFER_IMPORT/);
    for (const id of ['advanceMediaUsageActivation', 'advanceMediaUsageProgress', 'repairMediaUsage']) {
      expect(activation(id), id).toBe(false);
      expect(byId.get(id).responses['503'].description, id).toContain('TRANSFER_IMPORT_IN_PROGRESS');
    }
    // The transfer routes drive an import, so they are never gated by it (activation does gate them).
    for (const id of ['advanceTransferImport', 'abandonTransferImport', 'uploadTransferImportFile']) {
      expect(byId.get(id).responses['503'].description, id).not.toContain('TRANSFER_IMPORT_IN_PROGRESS');
    }
  });
});
