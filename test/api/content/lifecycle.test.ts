import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, testCms } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';

describeEachDialect('content lifecycle', (dialect) => {
  it('creates a draft with a derived unique slug, readable by ID and by slug', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const a = await createEntry(cms, { data: { title: 'Hello World', views: 3 } });
    expect(a.item).toMatchObject({
      type: 'posts',
      slug: 'hello-world',
      status: 'draft',
      locale: 'en',
      data: { title: 'Hello World', views: 3 },
      publishedAt: null,
      hasDraft: false,
    });
    expect(a._rev).toEqual(expect.any(String));
    const b = await createEntry(cms, { data: { title: 'Hello world!' } });
    expect(b.item.slug).toBe('hello-world-2');
    const byId = await call(cms, 'GET', `/content/posts/${a.item.id}`, { token: cms.adminToken });
    expect(byId.status).toBe(200);
    expect(byId.body.data.item.id).toBe(a.item.id);
    const bySlug = await call(cms, 'GET', '/content/posts/hello-world', { token: cms.adminToken });
    expect(bySlug.body.data.item.id).toBe(a.item.id);
    const taken = await call(cms, 'POST', '/content/posts', {
      token: cms.adminToken,
      body: { slug: 'hello-world', data: { title: 'x' } },
    });
    expect(taken.status).toBe(409);
    const missingRequired = await call(cms, 'POST', '/content/posts', { token: cms.adminToken, body: { data: {} } });
    expect(missingRequired.status).toBe(400);
    expect(missingRequired.body.error.details.issues[0].path).toEqual(['data', 'title']);
    expect((await call(cms, 'GET', '/content/nope/x', { token: cms.adminToken })).status).toBe(404);
  });

  it('stages updates of a published entry as a draft while the live version stays', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const sub = await cms.userToken(ROLES.SUBSCRIBER);
    const { item } = await createEntry(cms, { data: { title: 'Live title', body: 'v1' } });
    const published = await publish(cms, item.id);
    expect(published.item).toMatchObject({ status: 'published', hasDraft: false });
    const publishedAt = published.item.publishedAt;
    expect(publishedAt).toMatch(/Z$/);

    const upd = await call(cms, 'PUT', `/content/posts/${item.id}`, {
      token: cms.adminToken,
      body: { data: { title: 'Draft title' } },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.data.item).toMatchObject({
      status: 'published',
      hasDraft: true,
      data: { title: 'Draft title', body: 'v1' },
    });

    const asSubscriber = await call(cms, 'GET', `/content/posts/${item.id}`, { token: sub.token });
    expect(asSubscriber.body.data.item.data.title).toBe('Live title');

    const cmp = await call(cms, 'GET', `/content/posts/${item.id}/compare`, { token: cms.adminToken });
    expect(cmp.status).toBe(200);
    expect(cmp.body.data).toMatchObject({
      hasDraft: true,
      live: { data: { title: 'Live title' } },
      draft: { data: { title: 'Draft title' } },
      changedFields: ['title'],
    });

    const again = await publish(cms, item.id);
    expect(again.item).toMatchObject({ hasDraft: false, publishedAt, data: { title: 'Draft title' } });
    const live = await call(cms, 'GET', `/content/posts/${item.id}`, { token: sub.token });
    expect(live.body.data.item.data.title).toBe('Draft title');

    await call(cms, 'PUT', `/content/posts/${item.id}`, { token: cms.adminToken, body: { data: { title: 'Scrap' } } });
    const discarded = await call(cms, 'POST', `/content/posts/${item.id}/discard-draft`, {
      token: cms.adminToken,
      body: {},
    });
    expect(discarded.status).toBe(200);
    expect(discarded.body.data.item).toMatchObject({ hasDraft: false, data: { title: 'Draft title' } });
    const noDraft = await call(cms, 'POST', `/content/posts/${item.id}/discard-draft`, {
      token: cms.adminToken,
      body: {},
    });
    expect(noDraft.status).toBe(409);
    expect(noDraft.body.error.code).toBe('INVALID_STATE');
  });

  it('applies updates directly on collections without revisions', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms, { supports: ['drafts', 'editLock'] });
    const { item } = await createEntry(cms, { data: { title: 'One' } });
    await publish(cms, item.id);
    const upd = await call(cms, 'PUT', `/content/posts/${item.id}`, {
      token: cms.adminToken,
      body: { data: { title: 'Two' } },
    });
    expect(upd.body.data.item).toMatchObject({ status: 'published', hasDraft: false, data: { title: 'Two' } });
  });

  it('unpublish keeps content and publication date and cancels a pending schedule', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const { item } = await createEntry(cms, { data: { title: 'A' } });
    const p = await publish(cms, item.id);
    await call(cms, 'PUT', `/content/posts/${item.id}`, { token: cms.adminToken, body: { data: { title: 'B' } } });
    const future = new Date(Date.now() + 3600_000).toISOString();
    const sch = await call(cms, 'POST', `/content/posts/${item.id}/schedule`, {
      token: cms.adminToken,
      body: { scheduledAt: future },
    });
    expect(sch.status).toBe(200);
    expect(sch.body.data.item).toMatchObject({ status: 'published', scheduledAt: future });
    const un = await call(cms, 'POST', `/content/posts/${item.id}/unpublish`, { token: cms.adminToken, body: {} });
    expect(un.status).toBe(200);
    expect(un.body.data.item).toMatchObject({ status: 'draft', scheduledAt: null, publishedAt: p.item.publishedAt });
    const sub = await cms.userToken(ROLES.SUBSCRIBER);
    expect((await call(cms, 'GET', `/content/posts/${item.id}`, { token: sub.token })).status).toBe(404);
    const again = await call(cms, 'POST', `/content/posts/${item.id}/unpublish`, { token: cms.adminToken, body: {} });
    expect(again.status).toBe(409);
  });

  it('schedules only in the future, with an offset, and unschedules back to draft', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const { item } = await createEntry(cms, { data: { title: 'A' } });
    for (const scheduledAt of ['2020-01-01T00:00:00Z', '2099-01-01T00:00:00', 'tomorrow']) {
      const res = await call(cms, 'POST', `/content/posts/${item.id}/schedule`, {
        token: cms.adminToken,
        body: { scheduledAt },
      });
      expect(res.status, scheduledAt).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const sch = await call(cms, 'POST', `/content/posts/${item.id}/schedule`, {
      token: cms.adminToken,
      body: { scheduledAt: '2099-01-01T10:00:00+02:00' },
    });
    expect(sch.body.data.item).toMatchObject({ status: 'scheduled', scheduledAt: '2099-01-01T08:00:00.000Z' });
    const un = await call(cms, 'DELETE', `/content/posts/${item.id}/schedule`, { token: cms.adminToken });
    expect(un.status).toBe(200);
    expect(un.body.data.item).toMatchObject({ status: 'draft', scheduledAt: null });
    expect((await call(cms, 'DELETE', `/content/posts/${item.id}/schedule`, { token: cms.adminToken })).status).toBe(
      409,
    );
  });

  it('trash, restore (to draft, no schedule), and permanent delete only from the trash', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const editor = await cms.userToken(ROLES.EDITOR);
    const { item } = await createEntry(cms, { data: { title: 'A' } });
    await publish(cms, item.id);
    const notTrashed = await call(cms, 'DELETE', `/content/posts/${item.id}/permanent`, { token: cms.adminToken });
    expect(notTrashed.status).toBe(409);
    const del = await call(cms, 'DELETE', `/content/posts/${item.id}`, { token: cms.adminToken });
    expect(del.status).toBe(200);
    expect(del.body.data.item).toMatchObject({ status: 'trashed', trashedAt: expect.any(String) });
    const list = await call(cms, 'GET', '/content/posts', { token: cms.adminToken });
    expect(list.body.data.items).toHaveLength(0);
    const trash = await call(cms, 'GET', '/content/posts/trash', { token: cms.adminToken });
    expect(trash.body.data.items.map((i: { id: string }) => i.id)).toEqual([item.id]);
    const editPut = await call(cms, 'PUT', `/content/posts/${item.id}`, {
      token: cms.adminToken,
      body: { data: { title: 'x' } },
    });
    expect(editPut.status).toBe(409);
    const restored = await call(cms, 'POST', `/content/posts/${item.id}/restore`, { token: cms.adminToken, body: {} });
    expect(restored.body.data.item).toMatchObject({ status: 'draft', scheduledAt: null, trashedAt: null });
    await call(cms, 'DELETE', `/content/posts/${item.id}`, { token: cms.adminToken });
    const byEditor = await call(cms, 'DELETE', `/content/posts/${item.id}/permanent`, { token: editor.token });
    expect(byEditor.status).toBe(403);
    const gone = await call(cms, 'DELETE', `/content/posts/${item.id}/permanent`, { token: cms.adminToken });
    expect(gone.status).toBe(200);
    expect(gone.body.data).toEqual({ deleted: true, id: item.id });
    expect((await call(cms, 'GET', `/content/posts/${item.id}`, { token: cms.adminToken })).status).toBe(404);
    const revs = await cms.database.db
      .selectFrom('_cms_revisions')
      .selectAll()
      .where('entry_id', '=', item.id)
      .execute();
    expect(revs).toHaveLength(0);
  });

  it('duplicates as a new draft with a unique slug; lists authors', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const { item } = await createEntry(cms, { slug: 'orig', data: { title: 'Original', views: 9 } });
    await publish(cms, item.id);
    const dup = await call(cms, 'POST', `/content/posts/${item.id}/duplicate`, { token: cms.adminToken, body: {} });
    expect(dup.status).toBe(201);
    expect(dup.body.data.item).toMatchObject({
      slug: 'orig-copy',
      status: 'draft',
      data: { title: 'Original', views: 9 },
    });
    expect(dup.body.data.item.id).not.toBe(item.id);
    const dup2 = await call(cms, 'POST', `/content/posts/${item.id}/duplicate`, { token: cms.adminToken, body: {} });
    expect(dup2.body.data.item.slug).toBe('orig-copy-2');
    const authors = await call(cms, 'GET', '/content/posts/authors', { token: cms.adminToken });
    expect(authors.body.data.items).toEqual([{ id: cms.adminId, name: 'Admin', count: 3 }]);
  });
});

describeEachDialect('automatic slugs', (dialect) => {
  it('numbers siblings without gaps and skips taken numbers', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const slugs: string[] = [];
    for (let i = 0; i < 12; i++) slugs.push((await createEntry(cms, { data: { title: 'Same Title' } })).item.slug);
    expect(slugs).toEqual(['same-title', ...Array.from({ length: 11 }, (_, i) => `same-title-${i + 2}`)]);
    // A hand-made slug further up is stepped over, and the lowest free number after the run is used.
    await createEntry(cms, { slug: 'same-title-13', data: { title: 'x' } });
    expect((await createEntry(cms, { data: { title: 'Same title' } })).item.slug).toBe('same-title-14');
    expect((await createEntry(cms, { data: { title: 'Ünïcödé & Spaces!' } })).item.slug).toBe('unicode-spaces');
  });
});
