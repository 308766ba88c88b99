import { expect, it } from 'vitest';
import type { Actor } from '../../../src/auth/actor.js';
import { ROLES } from '../../../src/auth/roles.js';
import { REVISION_RETENTION } from '../../../src/services/content/revisions.js';
import { call, testCms } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';

describeEachDialect('revisions', (dialect) => {
  it('lists revisions newest first and restores one (staged as a draft on a live entry)', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const admin = (await cms.services.tokens.authenticate(cms.adminToken)) as Actor;
    const { item } = await createEntry(cms, { data: { title: 'v1' } });
    await call(cms, 'PUT', `/content/posts/${item.id}`, { token: cms.adminToken, body: { data: { title: 'v2' } } });
    await publish(cms, item.id);
    await call(cms, 'PUT', `/content/posts/${item.id}`, { token: cms.adminToken, body: { data: { title: 'v3' } } });
    const list = await cms.services.content.revisions(admin, 'posts', item.id);
    expect(list.items.map((r) => [r.kind, r.data.title])).toEqual([
      ['draft', 'v3'],
      ['publish', 'v2'],
      ['save', 'v2'],
      ['save', 'v1'],
    ]);
    expect(list.items[0].draft).toBe(true);
    expect(list.items[1].live).toBe(true);
    const first = list.items[3];
    const restored = await cms.services.content.restoreRevision(admin, 'posts', item.id, first.id);
    expect(restored.item).toMatchObject({ status: 'published', hasDraft: true, data: { title: 'v1' } });
    await expect(cms.services.content.restoreRevision(admin, 'posts', item.id, 'nope')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('keeps a bounded number of revisions and never prunes the live or the draft one', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const admin = (await cms.services.tokens.authenticate(cms.adminToken)) as Actor;
    const { item } = await createEntry(cms, { data: { title: 'start' } });
    const live = await publish(cms, item.id);
    for (let i = 0; i < REVISION_RETENTION + 10; i++) {
      await cms.services.content.update(admin, 'posts', item.id, { data: { title: `draft ${i}` } });
    }
    const rows = await cms.database.db
      .selectFrom('_cms_revisions')
      .select('id')
      .where('entry_id', '=', item.id)
      .execute();
    expect(rows.length).toBeLessThanOrEqual(REVISION_RETENTION + 1);
    const ids = new Set(rows.map((r) => r.id));
    expect(ids.has(live.item.liveRevisionId)).toBe(true);
    const cur = await cms.services.content.get(admin, 'posts', item.id);
    expect(ids.has(cur.item.draftRevisionId as string)).toBe(true);
    expect(cur.item.data.title).toBe(`draft ${REVISION_RETENTION + 9}`);
  });

  it('names who saved each revision and the fields that save changed', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const { user: eve } = await cms.services.users.create(null, {
      email: 'eve@example.test',
      name: 'Eve Editor',
      role: ROLES.EDITOR,
    });
    const { token: eveToken } = await cms.services.tokens.create(null, { userId: eve.id, name: 'eve' });
    const { item } = await createEntry(cms, { data: { title: 'v1', body: 'first' } });
    const put = (token: string, body: unknown) =>
      call(cms, 'PUT', `/content/posts/${item.id}`, { token, body }).then((r) => expect(r.status).toBe(200));
    await put(eveToken, { data: { title: 'v2' } });
    await put(cms.adminToken, { data: { body: 'second', views: 3 }, slug: 'renamed' });
    await put(eveToken, { data: { views: 3 } });

    const all = await call(cms, 'GET', `/content/posts/${item.id}/revisions`, { token: cms.adminToken });
    expect(all.status).toBe(200);
    const rows = all.body.data.items.map((r: any) => [r.createdBy, r.createdByName, r.changedFields]);
    expect(rows).toEqual([
      // A save that changed nothing says so.
      [eve.id, 'Eve Editor', []],
      [cms.adminId, 'Admin', ['slug', 'body', 'views']],
      [eve.id, 'Eve Editor', ['title']],
      // The first revision has nothing before it.
      [cms.adminId, 'Admin', null],
    ]);
    // Paged: the last row of a page still compares with the revision before it.
    const first = await call(cms, 'GET', `/content/posts/${item.id}/revisions?limit=2`, { token: cms.adminToken });
    expect(first.body.data.items.map((r: any) => r.changedFields)).toEqual([[], ['slug', 'body', 'views']]);
    const next = await call(
      cms,
      'GET',
      `/content/posts/${item.id}/revisions?limit=2&cursor=${encodeURIComponent(first.body.data.nextCursor)}`,
      { token: cms.adminToken },
    );
    expect(next.body.data.items.map((r: any) => r.changedFields)).toEqual([['title'], null]);
  });
});
