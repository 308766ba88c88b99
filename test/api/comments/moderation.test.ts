import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, testCms } from '../../helpers/cms.js';
import { roleTokens } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { commentablePost } from '../../helpers/public.js';

describeEachDialect('comment moderation', (dialect) => {
  async function setup() {
    const cms = await testCms(dialect, { config: { trustedProxyHeaders: ['x-forwarded-for'] } });
    const entry = await commentablePost(cms);
    let n = 0;
    const submit = async (body: Record<string, unknown>) => {
      const res = await call(cms, 'POST', `/comments/posts/${entry}`, {
        token: null,
        headers: { 'x-cms-request': '1', 'x-forwarded-for': `198.51.100.${++n}` },
        body: { authorName: 'Visitor', authorEmail: 'v@example.test', ...body },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.id as string;
    };
    return { cms, entry, submit };
  }

  it('lists the queue newest first with status, collection and entry filters, and counts per status', async () => {
    const { cms, entry, submit } = await setup();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await submit({ body: `comment ${i}` }));
    await submit({ body: 'spam', honeypot: 'yes' });
    await call(cms, 'PUT', `/admin/comments/${ids[0]}/status`, { token: cms.adminToken, body: { status: 'approved' } });
    await call(cms, 'PUT', `/admin/comments/${ids[1]}/status`, { token: cms.adminToken, body: { status: 'trash' } });

    const counts = await call(cms, 'GET', '/admin/comments/counts', { token: cms.adminToken });
    expect(counts.body.data).toEqual({ pending: 3, approved: 1, spam: 1, trash: 1, total: 6 });
    const other = await call(cms, 'GET', '/admin/comments/counts?collection=pages', { token: cms.adminToken });
    expect(other.body.data.total).toBe(0);

    const pending = await call(cms, 'GET', '/admin/comments?status=pending&limit=2', { token: cms.adminToken });
    expect(pending.status).toBe(200);
    expect(pending.body.data.items.map((c: { id: string }) => c.id)).toEqual([ids[4], ids[3]]);
    expect(pending.body.data.items[0]).toMatchObject({
      collection: 'posts',
      contentId: entry,
      status: 'pending',
      authorEmail: 'v@example.test',
      entry: { slug: 'hello', title: 'Hello', status: 'published' },
    });
    const next = await call(
      cms,
      'GET',
      `/admin/comments?status=pending&limit=2&cursor=${pending.body.data.nextCursor}`,
      {
        token: cms.adminToken,
      },
    );
    expect(next.body.data.items.map((c: { id: string }) => c.id)).toEqual([ids[2]]);
    expect(next.body.data.nextCursor).toBeUndefined();
    const all = await call(cms, 'GET', `/admin/comments?collection=posts&contentId=${entry}`, {
      token: cms.adminToken,
    });
    expect(all.body.data.items).toHaveLength(6);
    const bad = await call(cms, 'GET', '/admin/comments?status=deleted', { token: cms.adminToken });
    expect(bad.status).toBe(400);
    const crafted = Buffer.from(JSON.stringify([1, { x: 1 }])).toString('base64url');
    const badCursor = await call(cms, 'GET', `/admin/comments?cursor=${crafted}`, { token: cms.adminToken });
    expect(badCursor.status).toBe(400);
  });

  it('changes statuses one by one and in bulk, in one transaction with per-ID results', async () => {
    const { cms, submit } = await setup();
    const a = await submit({ body: 'a' });
    const b = await submit({ body: 'b' });
    const c = await submit({ body: 'c' });
    const missing = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
    const bulk = await call(cms, 'POST', '/admin/comments/bulk', {
      token: cms.adminToken,
      body: { action: 'approve', ids: [a, b, missing] },
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.data).toMatchObject({ action: 'approve', affected: 2 });
    expect(bulk.body.data.results).toEqual([
      { id: a, ok: true },
      { id: b, ok: true },
      { id: missing, ok: false, error: 'NOT_FOUND' },
    ]);
    const got = await call(cms, 'GET', `/admin/comments/${a}`, { token: cms.adminToken });
    expect(got.body.data).toMatchObject({ status: 'approved', moderatedBy: cms.adminId });
    expect(got.body.data.moderatedAt).toMatch(/\.\d{3}Z$/);

    const spam = await call(cms, 'POST', '/admin/comments/bulk', {
      token: cms.adminToken,
      body: { action: 'spam', ids: [c] },
    });
    expect(spam.body.data.affected).toBe(1);
    const trash = await call(cms, 'POST', '/admin/comments/bulk', {
      token: cms.adminToken,
      body: { action: 'trash', ids: [b] },
    });
    expect(trash.body.data.affected).toBe(1);
    const counts = await call(cms, 'GET', '/admin/comments/counts', { token: cms.adminToken });
    expect(counts.body.data).toMatchObject({ approved: 1, spam: 1, trash: 1, pending: 0 });

    const tooMany = await call(cms, 'POST', '/admin/comments/bulk', {
      token: cms.adminToken,
      body: { action: 'trash', ids: Array.from({ length: 101 }, (_, i) => `id${i}`) },
    });
    expect(tooMany.status).toBe(400);
    const badAction = await call(cms, 'POST', '/admin/comments/bulk', {
      token: cms.adminToken,
      body: { action: 'publish', ids: [a] },
    });
    expect(badAction.status).toBe(400);
    expect(badAction.body.error.details.issues[0].path).toEqual(['action']);
    const badStatus = await call(cms, 'PUT', `/admin/comments/${a}/status`, {
      token: cms.adminToken,
      body: { status: 'published' },
    });
    expect(badStatus.status).toBe(400);
    expect(
      (await call(cms, 'PUT', `/admin/comments/${missing}/status`, { token: cms.adminToken, body: { status: 'spam' } }))
        .status,
    ).toBe(404);
  });

  it('deletes for good, a thread with its replies; bulk delete too', async () => {
    const { cms, entry } = await setup();
    const editor = await cms.userToken(ROLES.EDITOR);
    const post = async (body: Record<string, unknown>) =>
      (await call(cms, 'POST', `/comments/posts/${entry}`, { token: editor.token, body })).body.data.id as string;
    const root = await post({ body: 'root' });
    const reply = await post({ body: 'reply', parentId: root });
    const lone = await post({ body: 'lone' });
    const other = await post({ body: 'other' });
    const del = await call(cms, 'DELETE', `/admin/comments/${root}`, { token: cms.adminToken });
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ deleted: true, id: root, count: 2 });
    expect((await call(cms, 'GET', `/admin/comments/${reply}`, { token: cms.adminToken })).status).toBe(404);
    expect((await call(cms, 'DELETE', `/admin/comments/${root}`, { token: cms.adminToken })).status).toBe(404);
    const bulk = await call(cms, 'POST', '/admin/comments/bulk', {
      token: cms.adminToken,
      body: { action: 'delete', ids: [lone, other] },
    });
    expect(bulk.body.data.affected).toBe(2);
    expect((await call(cms, 'GET', '/admin/comments/counts', { token: cms.adminToken })).body.data.total).toBe(0);
  });

  it('removes an entry’s comments when the entry is deleted for good', async () => {
    const { cms, entry, submit } = await setup();
    await submit({ body: 'bye' });
    await call(cms, 'DELETE', `/content/posts/${entry}`, { token: cms.adminToken });
    // Trashed: still in the queue (the entry may come back).
    expect((await call(cms, 'GET', '/admin/comments', { token: cms.adminToken })).body.data.items[0].entry.status).toBe(
      'trashed',
    );
    const gone = await call(cms, 'DELETE', `/content/posts/${entry}/permanent`, { token: cms.adminToken });
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect((await call(cms, 'GET', '/admin/comments/counts', { token: cms.adminToken })).body.data.total).toBe(0);
  });

  it('is Editor work: lower roles, anonymous callers and narrow tokens are refused', async () => {
    const { cms, submit } = await setup();
    const id = await submit({ body: 'x' });
    const roles = await roleTokens(cms);
    for (const who of [roles.subscriber, roles.contributor, roles.author]) {
      const res = await call(cms, 'GET', '/admin/comments', { token: who.token });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
      expect(
        (await call(cms, 'PUT', `/admin/comments/${id}/status`, { token: who.token, body: { status: 'approved' } }))
          .status,
      ).toBe(403);
    }
    expect((await call(cms, 'GET', '/admin/comments/counts', { token: null })).status).toBe(401);
    expect((await call(cms, 'GET', '/admin/comments', { token: roles.editor.token })).status).toBe(200);
    const narrow = await cms.userToken(ROLES.EDITOR, ['content:read']);
    const scoped = await call(cms, 'POST', '/admin/comments/bulk', {
      token: narrow.token,
      body: { action: 'approve', ids: [id] },
    });
    expect(scoped.status).toBe(403);
    expect(scoped.body.error.code).toBe('INSUFFICIENT_SCOPE');
    const writer = await cms.userToken(ROLES.EDITOR, ['content:write']);
    expect(
      (await call(cms, 'POST', '/admin/comments/bulk', { token: writer.token, body: { action: 'approve', ids: [id] } }))
        .status,
    ).toBe(200);
  });
});
