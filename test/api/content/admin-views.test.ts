import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, testCms } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';

const I18N = { i18n: { locales: ['en', 'fr'], defaultLocale: 'en' } };

describeEachDialect('admin content views', (dialect) => {
  it('content model: collections in sidebar order with fields, counts per status and locale, for writers only', async () => {
    const cms = await testCms(dialect, { config: I18N });
    await postsCollection(cms);
    await postsCollection(cms, { slug: 'pages' });
    await call(cms, 'POST', '/schema/collections/reorder', { token: cms.adminToken, body: { slugs: ['pages'] } });
    const a = await createEntry(cms, { data: { title: 'A' } });
    await createEntry(cms, { data: { title: 'B' } });
    const c = await createEntry(cms, { data: { title: 'C' } });
    await publish(cms, a.item.id);
    await call(cms, 'DELETE', `/content/posts/${c.item.id}`, { token: cms.adminToken });
    await createEntry(cms, { data: { title: 'Fr' }, locale: 'fr' });

    const contributor = await cms.userToken(ROLES.CONTRIBUTOR);
    const res = await call(cms, 'GET', '/admin/content/model', { token: contributor.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const model = res.body.data;
    expect(model.i18n).toEqual({ locales: ['en', 'fr'], defaultLocale: 'en', fallback: {} });
    expect(model.collections.map((x: { slug: string }) => x.slug)).toEqual(['pages', 'posts']);
    const posts = model.collections[1];
    expect(posts.counts).toEqual({ all: 2, draft: 1, published: 1, scheduled: 0, trashed: 1 });
    expect(posts.titleField).toBe('title');
    expect(posts.fields.map((f: { slug: string }) => f.slug)).toEqual(['title', 'body', 'views', 'link']);
    const fr = await call(cms, 'GET', '/admin/content/model?locale=fr', { token: contributor.token });
    expect(fr.body.data.collections[1].counts.all).toBe(1);

    const subscriber = await cms.userToken(ROLES.SUBSCRIBER);
    expect((await call(cms, 'GET', '/admin/content/model', { token: subscriber.token })).status).toBe(403);
    expect((await call(cms, 'GET', '/admin/content/model', {})).status).toBe(401);
    const bad = await call(cms, 'GET', '/admin/content/model?locale=de', { token: cms.adminToken });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('dashboard: recent edits, own drafts, contributor drafts for reviewers only, upcoming schedules', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const contributor = await cms.userToken(ROLES.CONTRIBUTOR);
    const editor = await cms.userToken(ROLES.EDITOR);
    const submitted = await createEntry(cms, { data: { title: 'Please review' } }, contributor.token);
    const mine = await createEntry(cms, { data: { title: 'Editor draft' } }, editor.token);
    const later = await createEntry(cms, { data: { title: 'Later' } });
    const at = new Date(Date.now() + 86_400_000).toISOString();
    const sched = await call(cms, 'POST', `/content/posts/${later.item.id}/schedule`, {
      token: cms.adminToken,
      body: { scheduledAt: at },
    });
    expect(sched.status).toBe(200);

    const ed = (await call(cms, 'GET', '/admin/content/dashboard', { token: editor.token })).body.data;
    expect(ed.recent.map((e: { title: string }) => e.title)).toEqual(['Later', 'Editor draft', 'Please review']);
    expect(ed.mine.map((e: { id: string }) => e.id)).toEqual([mine.item.id]);
    expect(ed.review.map((e: { id: string }) => e.id)).toEqual([submitted.item.id]);
    expect(ed.review[0]).toMatchObject({ collection: 'posts', status: 'draft', authorId: contributor.userId });
    expect(ed.scheduled).toHaveLength(1);
    expect(ed.scheduled[0]).toMatchObject({ id: later.item.id, status: 'scheduled', scheduledAt: at });

    const co = (await call(cms, 'GET', '/admin/content/dashboard', { token: contributor.token })).body.data;
    expect(co.review).toBeNull();
    expect(co.mine.map((e: { id: string }) => e.id)).toEqual([submitted.item.id]);
  });

  it('lookup: slug, title (case-insensitive, wildcards literal) and ID; trash left out; hostile input refused alike', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const hello = await createEntry(cms, { data: { title: 'Hello World' }, slug: 'hello' });
    await createEntry(cms, { data: { title: '100% pure' }, slug: 'pure' });
    const gone = await createEntry(cms, { data: { title: 'Hello again' }, slug: 'hello-again' });
    await call(cms, 'DELETE', `/content/posts/${gone.item.id}`, { token: cms.adminToken });
    const author = await cms.userToken(ROLES.AUTHOR);
    const find = async (q: string) =>
      (await call(cms, 'GET', `/admin/content/posts/lookup?q=${encodeURIComponent(q)}`, { token: author.token })).body
        .data.items as Array<{ slug: string; title: string }>;
    expect((await find('WORLD')).map((e) => e.slug)).toEqual(['hello']);
    expect((await find('hel')).map((e) => e.slug)).toEqual(['hello']);
    expect((await find('%')).map((e) => e.slug)).toEqual(['pure']);
    expect((await find('_')).map((e) => e.slug)).toEqual([]);
    expect((await find(hello.item.id.toLowerCase())).map((e) => e.slug)).toEqual(['hello']);
    expect((await find('')).length).toBe(2);
    // A query string cannot carry a lone surrogate (it is not encodable); NUL can.
    for (const q of ['a%00b', '%00']) {
      const res = await call(cms, 'GET', `/admin/content/posts/lookup?q=${q}`, {
        token: author.token,
      });
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await call(cms, 'GET', '/admin/content/nope/lookup', { token: author.token })).status).toBe(404);
    const long = await call(cms, 'GET', `/admin/content/posts/lookup?q=${'x'.repeat(201)}`, { token: author.token });
    expect(long.status).toBe(400);
  });

  it('revisions over REST: list newest first with cursor pages, restore one, subscribers refused', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const { item } = await createEntry(cms, { data: { title: 'v1' } });
    await call(cms, 'PUT', `/content/posts/${item.id}`, { token: cms.adminToken, body: { data: { title: 'v2' } } });
    await publish(cms, item.id);
    const page1 = await call(cms, 'GET', `/content/posts/${item.id}/revisions?limit=2`, { token: cms.adminToken });
    expect(page1.status).toBe(200);
    expect(page1.body.data.items.map((r: { kind: string }) => r.kind)).toEqual(['publish', 'save']);
    const page2 = await call(
      cms,
      'GET',
      `/content/posts/${item.id}/revisions?limit=2&cursor=${encodeURIComponent(page1.body.data.nextCursor)}`,
      { token: cms.adminToken },
    );
    const first = page2.body.data.items.at(-1);
    expect(first.data.title).toBe('v1');
    const current = await call(cms, 'GET', `/content/posts/${item.id}`, { token: cms.adminToken });
    const restored = await call(cms, 'POST', `/content/posts/${item.id}/revisions/${first.id}/restore`, {
      token: cms.adminToken,
      body: { _rev: current.body.data._rev },
    });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body.data.item).toMatchObject({ status: 'published', hasDraft: true, data: { title: 'v1' } });
    const stale = await call(cms, 'POST', `/content/posts/${item.id}/revisions/${first.id}/restore`, {
      token: cms.adminToken,
      body: { _rev: current.body.data._rev },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('REV_CONFLICT');
    const subscriber = await cms.userToken(ROLES.SUBSCRIBER);
    expect((await call(cms, 'GET', `/content/posts/${item.id}/revisions`, { token: subscriber.token })).status).toBe(
      403,
    );
    const badCursor = await call(cms, 'GET', `/content/posts/${item.id}/revisions?cursor=%00zz`, {
      token: cms.adminToken,
    });
    expect(badCursor.status).toBe(400);
  });
});
