import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, testCms } from '../../helpers/cms.js';
import { createEntry, postsCollection } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';

describeEachDialect('bylines', (dialect) => {
  it('refuses byline links the url rules refuse, on create and on update', async () => {
    const cms = await testCms(dialect);
    for (const websiteUrl of ['javascript:alert(1)', '//evil.example/', 'data:text/html,x']) {
      const res = await call(cms, 'POST', '/bylines', {
        token: cms.adminToken,
        body: { displayName: 'G', websiteUrl },
      });
      expect(res.status, websiteUrl).toBe(400);
      expect(res.body.error.details.issues[0].path, websiteUrl).toEqual(['websiteUrl']);
    }
    const made = await call(cms, 'POST', '/bylines', {
      token: cms.adminToken,
      body: { displayName: 'G', websiteUrl: 'https://g.example/', avatarUrl: '/media/g.png' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const changed = await call(cms, 'PUT', `/bylines/${made.body.data.id}`, {
      token: cms.adminToken,
      body: { avatarUrl: 'javascript:alert(1)' },
    });
    expect(changed.status).toBe(400);
    expect(changed.body.error.details.issues[0].path).toEqual(['avatarUrl']);
  });

  it('creates guest and linked credits, one per user per locale', async () => {
    const cms = await testCms(dialect, { config: { i18n: { locales: ['en', 'fr'], defaultLocale: 'en' } } });
    const guest = await call(cms, 'POST', '/bylines', { token: cms.adminToken, body: { displayName: 'Guest Writer' } });
    expect(guest.status).toBe(201);
    expect(guest.body.data).toMatchObject({
      displayName: 'Guest Writer',
      slug: 'guest-writer',
      userId: null,
      locale: 'en',
    });
    const linked = await call(cms, 'POST', '/bylines', {
      token: cms.adminToken,
      body: { displayName: 'Me', userId: cms.adminId },
    });
    expect(linked.status).toBe(201);
    const twice = await call(cms, 'POST', '/bylines', {
      token: cms.adminToken,
      body: { displayName: 'Me again', userId: cms.adminId },
    });
    expect(twice.status).toBe(409);
    // A translation keeps the source's user unless userId is passed; null leaves it unlinked.
    const fr = await call(cms, 'POST', '/bylines', {
      token: cms.adminToken,
      body: { displayName: 'Moi', locale: 'fr', translationOf: linked.body.data.id },
    });
    expect(fr.status).toBe(201);
    expect(fr.body.data).toMatchObject({ userId: cms.adminId, translationGroup: linked.body.data.translationGroup });
    const frGuest = await call(cms, 'POST', '/bylines', {
      token: cms.adminToken,
      body: { displayName: 'Invité', locale: 'fr', translationOf: guest.body.data.id, userId: null },
    });
    expect(frGuest.body.data.userId).toBeNull();
    const tr = await call(cms, 'GET', `/bylines/${linked.body.data.translationGroup}/translations`, {
      token: cms.adminToken,
    });
    expect(tr.body.data.items.map((b: { locale: string }) => b.locale)).toEqual(['en', 'fr']);
    const author = await cms.userToken(ROLES.AUTHOR);
    expect((await call(cms, 'POST', '/bylines', { token: author.token, body: { displayName: 'x' } })).status).toBe(403);
    expect((await call(cms, 'GET', '/bylines', { token: author.token })).status).toBe(200);
  });

  it('credits entries in order with a primary byline; deleting a byline removes it everywhere', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const a = (await call(cms, 'POST', '/bylines', { token: cms.adminToken, body: { displayName: 'Ann' } })).body.data;
    const b = (await call(cms, 'POST', '/bylines', { token: cms.adminToken, body: { displayName: 'Bob' } })).body.data;
    const post = await createEntry(cms, {
      data: { title: 'P' },
      bylines: [{ bylineId: a.id, roleLabel: 'Writer' }, b.id],
    });
    expect(post.item.byline).toMatchObject({ id: a.id, displayName: 'Ann' });
    expect(
      post.item.bylines.map((c: { byline: { id: string }; roleLabel: string | null }) => [c.byline.id, c.roleLabel]),
    ).toEqual([
      [a.id, 'Writer'],
      [b.id, null],
    ]);
    const unknown = await call(cms, 'POST', '/content/posts', {
      token: cms.adminToken,
      body: { data: { title: 'x' }, bylines: ['nope'] },
    });
    expect(unknown.status).toBe(400);

    const del = await call(cms, 'DELETE', `/bylines/${a.id}`, { token: cms.adminToken });
    expect(del.status).toBe(200);
    const after = await call(cms, 'GET', `/content/posts/${post.item.id}`, { token: cms.adminToken });
    expect(after.body.data.item.primaryBylineId).toBeNull();
    expect(after.body.data.item.byline).toBeNull();
    expect(after.body.data.item.bylines.map((c: { byline: { id: string } }) => c.byline.id)).toEqual([b.id]);

    // An entry without credits reads as an empty list, by ID and in a list page.
    const bare = await createEntry(cms, { data: { title: 'Bare' } });
    expect(bare.item.bylines).toEqual([]);
    const list = await call(cms, 'GET', '/content/posts?status=draft', { token: cms.adminToken });
    const byId = new Map(list.body.data.items.map((i: { id: string; bylines: unknown[] }) => [i.id, i.bylines.length]));
    expect([byId.get(bare.item.id), byId.get(post.item.id)]).toEqual([0, 1]);
  });

  it('filters lists by byline, optionally including the author’s inferred byline', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const writer = await cms.userToken(ROLES.AUTHOR);
    const mine = (
      await call(cms, 'POST', '/bylines', { token: cms.adminToken, body: { displayName: 'W', userId: writer.userId } })
    ).body.data;
    const other = (await call(cms, 'POST', '/bylines', { token: cms.adminToken, body: { displayName: 'O' } })).body
      .data;
    await createEntry(cms, { data: { title: 'credited' }, bylines: [mine.id] });
    await createEntry(cms, { data: { title: 'authored, no credit' } }, writer.token);
    await createEntry(cms, { data: { title: 'authored, other credit' }, bylines: [other.id] }, writer.token);
    const list = async (q: string) =>
      (await call(cms, 'GET', `/content/posts?orderBy=title&${q}`, { token: cms.adminToken })).body.data.items.map(
        (i: { data: { title: string } }) => i.data.title,
      );
    expect(await list(`bylineId=${mine.id}`)).toEqual(['credited']);
    expect(await list(`bylineId=${mine.id}&includeAuthorByline=true`)).toEqual(['authored, no credit', 'credited']);
  });
});
