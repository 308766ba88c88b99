import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish, roleTokens } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';

describeEachDialect('who sees and does what with content', (dialect) => {
  it('Subscribers read only published entries; hidden ones look missing', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const { subscriber } = await roleTokens(cms);
    const draft = await createEntry(cms, { data: { title: 'Draft' } });
    const live = await createEntry(cms, { data: { title: 'Live' } });
    await publish(cms, live.item.id);
    const trashed = await createEntry(cms, { data: { title: 'Trashed' } });
    await publish(cms, trashed.item.id);
    await call(cms, 'DELETE', `/content/posts/${trashed.item.id}`, { token: cms.adminToken });
    const scheduled = await createEntry(cms, { data: { title: 'Soon' } });
    await call(cms, 'POST', `/content/posts/${scheduled.item.id}/schedule`, {
      token: cms.adminToken,
      body: { scheduledAt: '2099-01-01T00:00:00Z' },
    });

    const list = await call(cms, 'GET', '/content/posts', { token: subscriber.token });
    expect(list.body.data.items.map((i: { id: string }) => i.id)).toEqual([live.item.id]);
    for (const id of [draft.item.id, trashed.item.id, scheduled.item.id]) {
      const res = await call(cms, 'GET', `/content/posts/${id}`, { token: subscriber.token });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    for (const path of [`/content/posts/${live.item.id}/compare`, '/content/posts/trash']) {
      expect((await call(cms, 'GET', path, { token: subscriber.token })).status).toBe(403);
    }
    expect(
      (await call(cms, 'POST', '/content/posts', { token: subscriber.token, body: { data: { title: 'x' } } })).status,
    ).toBe(403);
    expect((await call(cms, 'GET', '/content/posts')).status).toBe(401);
  });

  it('Contributors write their own drafts but cannot publish or touch others', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const { contributor, author } = await roleTokens(cms);
    const own = await createEntry(cms, { data: { title: 'Mine' } }, contributor.token);
    expect(own.item.authorId).toBe(contributor.userId);
    expect(
      (
        await call(cms, 'PUT', `/content/posts/${own.item.id}`, {
          token: contributor.token,
          body: { data: { title: 'Mine 2' } },
        })
      ).status,
    ).toBe(200);
    const pub = await call(cms, 'POST', `/content/posts/${own.item.id}/publish`, {
      token: contributor.token,
      body: {},
    });
    expect(pub.status).toBe(403);
    const others = await createEntry(cms, { data: { title: 'Theirs' } }, author.token);
    expect(
      (
        await call(cms, 'PUT', `/content/posts/${others.item.id}`, {
          token: contributor.token,
          body: { data: { title: 'x' } },
        })
      ).status,
    ).toBe(403);
    // Drafts of others are readable (Contributors hold content:read_drafts).
    expect((await call(cms, 'GET', `/content/posts/${others.item.id}`, { token: contributor.token })).status).toBe(200);
  });

  it('Authors publish their own; Editors everything; only Admins delete for good', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const { author, editor } = await roleTokens(cms);
    const mine = await createEntry(cms, { data: { title: 'Mine' } }, author.token);
    expect(
      (await call(cms, 'POST', `/content/posts/${mine.item.id}/publish`, { token: author.token, body: {} })).status,
    ).toBe(200);
    const adminOwned = await createEntry(cms, { data: { title: 'Admin' } });
    expect(
      (await call(cms, 'POST', `/content/posts/${adminOwned.item.id}/publish`, { token: author.token, body: {} }))
        .status,
    ).toBe(403);
    expect(
      (await call(cms, 'POST', `/content/posts/${adminOwned.item.id}/publish`, { token: editor.token, body: {} }))
        .status,
    ).toBe(200);
    expect(
      (
        await call(cms, 'PUT', `/content/posts/${mine.item.id}`, {
          token: editor.token,
          body: { data: { title: 'E' } },
        })
      ).status,
    ).toBe(200);
    await call(cms, 'DELETE', `/content/posts/${mine.item.id}`, { token: editor.token });
    expect(
      (await call(cms, 'DELETE', `/content/posts/${mine.item.id}/permanent`, { token: editor.token })).status,
    ).toBe(403);
    expect(
      (await call(cms, 'DELETE', `/content/posts/${mine.item.id}/permanent`, { token: cms.adminToken })).status,
    ).toBe(200);
  });

  it('a token scope never grants what the role lacks, and limits what the role has', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const readOnly = await cms.services.tokens.create(null, {
      userId: cms.adminId,
      name: 'ro',
      scopes: ['content:read'],
    });
    const { item } = await createEntry(cms, { data: { title: 'A' } });
    expect((await call(cms, 'GET', `/content/posts/${item.id}`, { token: readOnly.token })).status).toBe(200);
    const write = await call(cms, 'PUT', `/content/posts/${item.id}`, {
      token: readOnly.token,
      body: { data: { title: 'B' } },
    });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('INSUFFICIENT_SCOPE');
    const sub = await cms.userToken(10, ['content:read']);
    expect((await call(cms, 'GET', `/content/posts/${item.id}/compare`, { token: sub.token })).status).toBe(403);
  });
});
