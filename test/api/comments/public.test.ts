import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { createLogger } from '../../../src/core/log.js';
import { createCms } from '../../../src/index.js';
import { call, testCms } from '../../helpers/cms.js';
import { createEntry, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { commentablePost, submitComment, submitComment as submitFrom } from '../../helpers/public.js';

const trusted = { config: { trustedProxyHeaders: ['x-forwarded-for' as const] } };

describeEachDialect('public comments', (dialect) => {
  it('takes a submission into moderation and lists it once approved, HTML escaped', async () => {
    const cms = await testCms(dialect, trusted);
    const id = await commentablePost(cms);
    const sent = await submitComment(cms, id, {
      authorName: 'Ann <b>',
      authorEmail: 'ann@example.test',
      authorUrl: 'https://ann.example/me',
      body: 'Hi <script>alert(1)</script> & bye\r\n\r\n\r\n\r\nsecond',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.data.status).toBe('pending');

    // Pending comments are not public.
    const before = await call(cms, 'GET', `/comments/posts/${id}`, { token: null });
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({ items: [], total: 0 });

    const approve = await call(cms, 'PUT', `/admin/comments/${sent.body.data.id}/status`, {
      token: cms.adminToken,
      body: { status: 'approved' },
    });
    expect(approve.status).toBe(200);
    const after = await call(cms, 'GET', `/comments/posts/${id}`, { token: null });
    expect(after.body.data.total).toBe(1);
    const [c] = after.body.data.items;
    expect(c.body).toBe('Hi &lt;script&gt;alert(1)&lt;/script&gt; &amp; bye\n\nsecond');
    expect(c.authorName).toBe('Ann &lt;b&gt;');
    expect(c.authorUrl).toBe('https://ann.example/me');
    expect(c).not.toHaveProperty('authorEmail');
    expect(JSON.stringify(after.body)).not.toContain('<script');
    // Stored escaped, too.
    const row = await cms.database.db.selectFrom('_cms_comments').select('body').executeTakeFirstOrThrow();
    expect(row.body).not.toContain('<');
  });

  it('refuses drafts, trashed and missing entries (404) and closed collections (409)', async () => {
    const cms = await testCms(dialect, trusted);
    const id = await commentablePost(cms);
    const draft = await createEntry(cms, { data: { title: 'Draft' } });
    expect((await submitComment(cms, draft.item.id, { authorName: 'A', body: 'x' })).status).toBe(404);
    expect((await call(cms, 'GET', `/comments/posts/${draft.item.id}`, { token: null })).status).toBe(404);
    expect((await submitComment(cms, '01ARZ3NDEKTSV4RRFFQ69G5FAV', { authorName: 'A', body: 'x' })).status).toBe(404);
    expect((await submitComment(cms, id, { authorName: 'A', body: 'x' }, undefined, 'nope')).status).toBe(404);

    const trashed = await createEntry(cms, { data: { title: 'T' } });
    await publish(cms, trashed.item.id);
    await call(cms, 'DELETE', `/content/posts/${trashed.item.id}`, { token: cms.adminToken });
    expect((await submitComment(cms, trashed.item.id, { authorName: 'A', body: 'x' })).status).toBe(404);

    const closed = await call(cms, 'PUT', '/schema/collections/posts', {
      token: cms.adminToken,
      body: { supports: ['drafts', 'revisions'] },
    });
    expect(closed.status).toBe(200);
    const refused = await submitComment(cms, id, { authorName: 'A', body: 'x' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('COMMENTS_CLOSED');
    // Closing keeps the approved comments readable.
    expect((await call(cms, 'GET', `/comments/posts/${id}`, { token: null })).status).toBe(200);
  });

  it('applies the browser-write rule: X-CMS-Request or a same-site Origin', async () => {
    const cms = await testCms(dialect, { config: { publicUrl: 'https://site.example', ...trusted.config } });
    const id = await commentablePost(cms);
    const body = { authorName: 'A', body: 'hello' };
    const bare = await submitComment(cms, id, body, { 'x-forwarded-for': '198.51.100.1' });
    expect(bare.status).toBe(403);
    expect(bare.body.error.code).toBe('CSRF_REJECTED');
    const foreign = await submitComment(cms, id, body, {
      origin: 'https://evil.example',
      'x-forwarded-for': '198.51.100.1',
    });
    expect(foreign.status).toBe(403);
    const sameSite = await submitComment(cms, id, body, {
      origin: 'https://site.example',
      'x-forwarded-for': '198.51.100.1',
    });
    expect(sameSite.status).toBe(201);
    const header = await submitComment(
      cms,
      id,
      { ...body, body: 'again' },
      { 'x-cms-request': '1', 'x-forwarded-for': '198.51.100.1' },
    );
    expect(header.status).toBe(201);
    // Bearer tokens need neither.
    const token = await call(cms, 'POST', `/comments/posts/${id}`, {
      token: cms.adminToken,
      body: { body: 'from a token' },
    });
    expect(token.status).toBe(201);
  });

  it('rate-limits submissions per client IP across processes (429 with Retry-After)', async () => {
    const cms = await testCms(dialect, trusted);
    const id = await commentablePost(cms);
    // A second service on the same database (another process in production) shares the count.
    const other = (await createCms({
      config: cms.config,
      database: cms.database,
      migrate: false,
      scheduler: false,
      logger: createLogger('silent'),
    })) as typeof cms;
    const ip = { 'x-cms-request': '1', 'x-forwarded-for': '192.0.2.50' };
    for (let i = 0; i < 5; i++) {
      const ok = await submitComment(i % 2 ? other : cms, id, { authorName: 'A', body: `comment ${i}` }, ip);
      expect(ok.status).toBe(201);
    }
    const limited = await submitComment(other, id, { authorName: 'A', body: 'one more' }, ip);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client is not affected.
    const another = await submitComment(
      cms,
      id,
      { authorName: 'B', body: 'hi' },
      { ...ip, 'x-forwarded-for': '192.0.2.51' },
    );
    expect(another.status).toBe(201);
    await other.services.redirects.close();
  });

  it('validates input: limits, NUL bytes, lone surrogates, unknown keys and oversized bodies', async () => {
    const cms = await testCms(dialect, trusted);
    const id = await commentablePost(cms);
    const issuePath = async (body: Record<string, unknown>) => {
      const res = await submitComment(cms, id, body, { 'x-cms-request': '1' });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      return res.body.error.details.issues.map((i: { path: string[] }) => i.path.join('.'));
    };
    expect(await issuePath({ authorName: 'A', body: '   ' })).toContain('body');
    expect(await issuePath({ body: 'no name' })).toContain('authorName');
    expect(await issuePath({ authorName: 'A', body: 'x'.repeat(5001) })).toContain('body');
    expect(await issuePath({ authorName: 'A'.repeat(101), body: 'x' })).toContain('authorName');
    expect(await issuePath({ authorName: 'A', body: 'nul \u0000 byte' })).toContain('body');
    expect(await issuePath({ authorName: 'lone \ud800', body: 'x' })).toContain('authorName');
    expect(await issuePath({ authorName: 'A', body: 'x', authorUrl: 'javascript:alert(1)' })).toContain('authorUrl');
    expect(await issuePath({ authorName: 'A', body: 'x', authorEmail: 'not-an-email' })).toContain('authorEmail');
    expect(await issuePath({ authorName: 'A', body: 'x', status: 'approved' })).toEqual(['']);
    const huge = await call(cms, 'POST', `/comments/posts/${id}`, {
      token: null,
      headers: { 'x-cms-request': '1' },
      raw: JSON.stringify({ authorName: 'A', body: 'y'.repeat(20_000) }),
    });
    expect(huge.status).toBe(413);
    expect(await cms.database.db.selectFrom('_cms_comments').select('id').execute()).toEqual([]);
  });

  it('routes honeypot and spammy submissions to spam with the same answer', async () => {
    const cms = await testCms(dialect, trusted);
    const id = await commentablePost(cms);
    // Each submission from its own address (the rate limit is tested on its own); the duplicate shares Ann's.
    let n = 0;
    const submitComment = (
      _cms: unknown,
      entry: string,
      body: Record<string, unknown>,
      headers?: Record<string, string>,
    ) =>
      submitFrom(
        cms,
        entry,
        body,
        headers ?? { 'x-cms-request': '1', 'x-forwarded-for': `198.18.0.${body.authorName === 'Ann' ? 1 : ++n + 1}` },
      );
    const honey = await submitComment(cms, id, { authorName: 'Bot', body: 'Great post', honeypot: 'http://x' });
    expect(honey.status).toBe(201);
    expect(honey.body.data.status).toBe('pending');
    const links = await submitComment(cms, id, {
      authorName: 'Seller',
      body: 'see http://a.example http://b.example http://c.example http://d.example',
    });
    const markup = await submitComment(cms, id, { authorName: 'Seller', body: '<a href="http://x">cheap</a>' });
    const named = await submitComment(cms, id, { authorName: 'www.cheap.example', body: 'nice' });
    const first = await submitComment(cms, id, { authorName: 'Ann', body: 'Same text' });
    const dup = await submitComment(cms, id, { authorName: 'Ann', body: 'Same text' });
    const ok = await submitComment(
      cms,
      id,
      { authorName: 'Bea', body: 'A real comment' },
      {
        'x-cms-request': '1',
        'x-forwarded-for': '203.0.113.77',
      },
    );
    const reasons = async (res: { body: { data: { id: string } } }) =>
      (await call(cms, 'GET', `/admin/comments/${res.body.data.id}`, { token: cms.adminToken })).body.data;
    expect(await reasons(honey)).toMatchObject({ status: 'spam', spamReasons: ['honeypot'] });
    expect(await reasons(links)).toMatchObject({ status: 'spam', spamReasons: ['too_many_links'] });
    expect((await reasons(markup)).spamReasons).toContain('link_markup');
    expect(await reasons(named)).toMatchObject({ status: 'spam', spamReasons: ['link_in_name'] });
    expect(await reasons(first)).toMatchObject({ status: 'pending', spamReasons: [] });
    expect(await reasons(dup)).toMatchObject({ status: 'spam', spamReasons: ['duplicate'] });
    expect(await reasons(ok)).toMatchObject({ status: 'pending' });
  });

  it('threads replies under their top-level comment, paginated, approved only', async () => {
    const cms = await testCms(dialect, trusted);
    const id = await commentablePost(cms);
    const editor = await cms.userToken(ROLES.EDITOR);
    // A moderator's own comments are approved at once.
    const post = async (body: Record<string, unknown>) => {
      const res = await call(cms, 'POST', `/comments/posts/${id}`, { token: editor.token, body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data.status).toBe('approved');
      return res.body.data.id as string;
    };
    const roots: string[] = [];
    for (let i = 0; i < 3; i++) roots.push(await post({ body: `root ${i}` }));
    const replies: string[] = [];
    for (let i = 0; i < 12; i++) replies.push(await post({ body: `reply ${i}`, parentId: roots[0] }));
    const nested = await post({ body: 'reply to a reply', parentId: replies[0] });
    // A pending reply stays hidden.
    const hidden = await submitComment(cms, id, { authorName: 'X', body: 'pending reply', parentId: roots[0] });
    expect(hidden.status).toBe(201);
    // A reply to a comment that is not approved, or of another entry, is refused.
    const other = await createEntry(cms, { data: { title: 'Other' } });
    await publish(cms, other.item.id);
    const wrongParent = await call(cms, 'POST', `/comments/posts/${other.item.id}`, {
      token: editor.token,
      body: { body: 'x', parentId: roots[0] },
    });
    expect(wrongParent.status).toBe(400);
    expect(wrongParent.body.error.details.issues[0].path).toEqual(['parentId']);
    const toPending = await call(cms, 'POST', `/comments/posts/${id}`, {
      token: editor.token,
      body: { body: 'x', parentId: hidden.body.data.id },
    });
    expect(toPending.status).toBe(400);

    const page1 = await call(cms, 'GET', `/comments/posts/${id}?limit=2`, { token: null });
    expect(page1.body.data.total).toBe(3 + 13);
    expect(page1.body.data.items.map((t: { id: string }) => t.id)).toEqual(roots.slice(0, 2));
    const thread = page1.body.data.items[0];
    expect(thread.replyCount).toBe(13);
    expect(thread.replies).toHaveLength(10);
    expect(thread.replies[0]).toMatchObject({ id: replies[0], parentId: roots[0], inReplyTo: null });
    expect(thread.repliesCursor).toBeTruthy();
    const page2 = await call(cms, 'GET', `/comments/posts/${id}?limit=2&cursor=${page1.body.data.nextCursor}`, {
      token: null,
    });
    expect(page2.body.data.items.map((t: { id: string }) => t.id)).toEqual([roots[2]]);
    expect(page2.body.data.nextCursor).toBeUndefined();
    const rest = await call(cms, 'GET', `/comments/posts/${id}?thread=${roots[0]}&cursor=${thread.repliesCursor}`, {
      token: null,
    });
    expect(rest.body.data.items.map((r: { id: string }) => r.id)).toEqual([...replies.slice(10), nested]);
    expect(rest.body.data.items[2].inReplyTo).toMatchObject({ id: replies[0] });
    const newest = await call(cms, 'GET', `/comments/posts/${id}?order=desc&limit=1`, { token: null });
    expect(newest.body.data.items[0].id).toBe(roots[2]);
    const badCursor = await call(cms, 'GET', `/comments/posts/${id}?cursor=bm9wZQ`, { token: null });
    expect(badCursor.status).toBe(400);
    expect(badCursor.body.error.details.issues[0].path).toEqual(['cursor']);
    const badThread = await call(cms, 'GET', `/comments/posts/${id}?thread=${replies[0]}`, { token: null });
    expect(badThread.status).toBe(400);
  });
});
