import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { createEntry, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mcpClient, serve } from '../../helpers/mcp.js';

/**
 * Writes that reach a whole translation group (shared values, reference links
 * keyed by group, child-end selections) must never let a role below Editor
 * change what someone else's entry shows.
 */
const i18n = { locales: ['en', 'fr', 'de'], defaultLocale: 'en' };
const ROLES_BELOW_EDITOR = [
  ['contributor', ROLES.CONTRIBUTOR],
  ['author', ROLES.AUTHOR],
] as const;

/** posts (shared `sku`, `tags` reference, many tags per post) and tags (child end `posts`). */
async function setup(cms: TestCms, supports: string[]) {
  const collection = (slug: string, fields: unknown[]) =>
    call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      body: { slug, label: slug, supports, fields },
    });
  expect((await collection('tags', [{ slug: 'name', label: 'Name', type: 'string' }])).status).toBe(201);
  const posts = await collection('posts', [
    { slug: 'title', label: 'Title', type: 'string' },
    { slug: 'sku', label: 'SKU', type: 'string', translatable: false },
    { slug: 'tags', label: 'Tags', type: 'reference', validation: { targetCollection: 'tags', multiple: true } },
  ]);
  expect(posts.status).toBe(201);
  const child = await call(cms, 'POST', '/schema/collections/tags/fields', {
    token: cms.adminToken,
    body: { slug: 'posts', label: 'Posts', type: 'reference', validation: { relation: 'posts_tags' } },
  });
  expect(child.status).toBe(201);
  const editor = await cms.userToken(ROLES.EDITOR);
  const subscriber = await cms.userToken(ROLES.SUBSCRIBER);
  const tag = async (name: string) => {
    const t = (await createEntry(cms, { data: { name } }, editor.token, 'tags')).item;
    if (t.status !== 'published') await publish(cms, t.id, editor.token, 'tags');
    return t.id as string;
  };
  const t1 = await tag('one');
  const t2 = await tag('two');
  const t3 = await tag('three');
  // The Editor's published English post.
  const en = (await createEntry(cms, { data: { title: 'Hello', sku: 'A' }, references: { tags: [t1] } }, editor.token))
    .item;
  if (en.status !== 'published') await publish(cms, en.id, editor.token);
  /** What the live site shows of the Editor's post (or, with a token that reads drafts, what editors see). */
  const live = async (token = subscriber.token) => {
    const res = await call(cms, 'GET', `/content/posts/${en.id}`, { token });
    return {
      sku: res.body.data.item.data.sku,
      tags: res.body.data.item.references.tags.items.map((i: { id: string }) => i.id),
    };
  };
  return { editor, subscriber, en: en.id as string, t1, t2, t3, live };
}

describeEachDialect('writes that reach a translation group', (dialect) => {
  for (const [name, role] of ROLES_BELOW_EDITOR) {
    it(`a ${name} cannot change another's live entry through a translation (no revisions)`, async () => {
      const cms = await testCms(dialect, { config: { i18n } });
      const { editor, en, t1, t2, live } = await setup(cms, ['drafts']);
      const me = await cms.userToken(role);
      const before = await live();
      expect(before).toEqual({ sku: 'A', tags: [t1] });

      // (a) shared values: taken from the source at creation, and a draft's save changes only that entry.
      const fr = await call(cms, 'POST', '/content/posts', {
        token: me.token,
        body: { locale: 'fr', translationOf: en, data: { title: 'Bonjour', sku: 'HACK' } },
      });
      expect(fr.status, JSON.stringify(fr.body)).toBe(201);
      expect(fr.body.data.item.data.sku).toBe('A');
      const frId = fr.body.data.item.id;
      const put = await call(cms, 'PUT', `/content/posts/${frId}`, {
        token: me.token,
        body: { data: { sku: 'HACK' } },
      });
      expect(put.status).toBe(200);
      expect(await live()).toEqual(before);

      // (b) references are keyed by the group: without revisions they cannot wait in a draft, so they are refused.
      const de = await call(cms, 'POST', '/content/posts', {
        token: me.token,
        body: { locale: 'de', translationOf: en, data: { title: 'Hallo' }, references: { tags: [t2] } },
      });
      expect([de.status, de.body.error?.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS']);
      expect(de.body.error.details.entries).toEqual([
        expect.objectContaining({ collection: 'posts', id: en, locale: 'en', status: 'published' }),
      ]);
      const refs = await call(cms, 'PUT', `/content/posts/${frId}`, {
        token: me.token,
        body: { references: { tags: [t2] } },
      });
      expect([refs.status, refs.body.error?.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS']);
      expect(await live()).toEqual(before);

      // Publishing its own translation would copy its shared values onto the Editor's entry.
      const pub = await call(cms, 'POST', `/content/posts/${frId}/publish`, { token: me.token, body: {} });
      expect(pub.status).toBe(403);
      expect(await live()).toEqual(before);

      // Someone allowed publishes it: the change goes live across the group.
      await publish(cms, frId, editor.token);
      expect((await live()).sku).toBe('HACK');
    });

    it(`a ${name}'s selections on a translation wait in its draft (revisions)`, async () => {
      const cms = await testCms(dialect, { config: { i18n } });
      const { editor, en, t2, t3, live } = await setup(cms, ['drafts', 'revisions']);
      const me = await cms.userToken(role);
      const before = await live();

      const fr = await call(cms, 'POST', '/content/posts', {
        token: me.token,
        body: { locale: 'fr', translationOf: en, data: { title: 'Bonjour' }, references: { tags: [t2] } },
      });
      expect(fr.status, JSON.stringify(fr.body)).toBe(201);
      const frId = fr.body.data.item.id;
      // The writer sees its staged selection; the live site does not.
      expect(fr.body.data.item.references.tags.items.map((i: { id: string }) => i.id)).toEqual([t2]);
      expect(await live()).toEqual(before);
      const upd = await call(cms, 'PUT', `/content/posts/${frId}`, {
        token: me.token,
        body: { data: { sku: 'HACK' }, references: { tags: [t3] } },
      });
      expect(upd.status).toBe(200);
      expect(await live()).toEqual(before);

      // Neither publishing nor scheduling it lets the selection or the shared value through.
      const pub = await call(cms, 'POST', `/content/posts/${frId}/publish`, { token: me.token, body: {} });
      expect(pub.status).toBe(403);
      const sched = await call(cms, 'POST', `/content/posts/${frId}/schedule`, {
        token: me.token,
        body: { scheduledAt: '2099-01-01T00:00:00Z' },
      });
      expect(sched.status).toBe(403);
      expect(await live()).toEqual(before);

      await publish(cms, frId, editor.token);
      expect(await live()).toEqual({ sku: 'HACK', tags: [t3] });
    });

    it(`a ${name} cannot add its entry to another's selection from the child end`, async () => {
      const cms = await testCms(dialect, { config: { i18n } });
      const { editor, en, t1, live } = await setup(cms, ['drafts']);
      const me = await cms.userToken(role);
      const mine = await call(cms, 'POST', '/content/tags', {
        token: me.token,
        body: { data: { name: 'mine' }, references: { posts: [en] } },
      });
      expect([mine.status, mine.body.error?.code]).toEqual([403, 'INSUFFICIENT_PERMISSIONS']);
      const plain = await createEntry(cms, { data: { name: 'plain' } }, me.token, 'tags');
      const join = await call(cms, 'PUT', `/content/tags/${plain.item.id}`, {
        token: me.token,
        body: { references: { posts: [en] } },
      });
      expect(join.status).toBe(403);
      expect((await live()).tags).toEqual([t1]);
      // Its own post may select the tag it made: nothing of anyone else's changes (positive control).
      const own = await call(cms, 'POST', '/content/posts', {
        token: me.token,
        body: { data: { title: 'Mine' }, references: { tags: [plain.item.id] } },
      });
      expect(own.status, JSON.stringify(own.body)).toBe(201);
      // An Editor may join the tag to the Editor's post from the child end.
      const ok = await call(cms, 'PUT', `/content/tags/${plain.item.id}`, {
        token: editor.token,
        body: { references: { posts: [en, own.body.data.item.id] } },
      });
      expect(ok.status).toBe(200);
    });

    it(`a ${name}'s duplicate does not join another's selection`, async () => {
      const cms = await testCms(dialect, { config: { i18n } });
      const { editor, t1, live } = await setup(cms, ['drafts']);
      const me = await cms.userToken(role);
      const dup = await call(cms, 'POST', `/content/tags/${t1}/duplicate`, { token: me.token, body: {} });
      expect(dup.status).toBe(201);
      // The copy is a draft: look with a draft reader's eyes, where it would show.
      expect((await live(editor.token)).tags).toEqual([t1]);
      const byEditor = await call(cms, 'POST', `/content/tags/${t1}/duplicate`, { token: editor.token, body: {} });
      expect((await live(editor.token)).tags).toEqual([t1, byEditor.body.data.item.id]);
    });
  }

  it('a Subscriber cannot write at all', async () => {
    const cms = await testCms(dialect, { config: { i18n } });
    const { en, subscriber } = await setup(cms, ['drafts']);
    const fr = await call(cms, 'POST', '/content/posts', {
      token: subscriber.token,
      body: { locale: 'fr', translationOf: en, data: { title: 'x' } },
    });
    expect(fr.status).toBe(403);
  });

  it('refuses the same writes through MCP', async () => {
    const cms = await testCms(dialect, { config: { i18n } });
    const { en, t2, live } = await setup(cms, ['drafts']);
    const before = await live();
    const url = await serve(cms);
    for (const [, role] of ROLES_BELOW_EDITOR) {
      const me = await cms.userToken(role);
      const mcp = await mcpClient(url, me.token);
      const refused = await mcp.call('content_create', {
        collection: 'posts',
        locale: role === ROLES.AUTHOR ? 'de' : 'fr',
        translationOf: en,
        data: { title: 'x' },
        references: { tags: [t2] },
      });
      expect(refused.isError).toBe(true);
      expect(refused._meta?.code).toBe('INSUFFICIENT_PERMISSIONS');
      const fr = await mcp.ok('content_create', {
        collection: 'posts',
        locale: role === ROLES.AUTHOR ? 'de' : 'fr',
        translationOf: en,
        data: { title: 'x' },
      });
      await mcp.ok('content_update', { collection: 'posts', id: fr.item.id, data: { sku: 'HACK' } });
      const pub = await mcp.call('content_publish', { collection: 'posts', id: fr.item.id });
      expect(pub.isError).toBe(true);
      const joined = await mcp.call('content_create', {
        collection: 'tags',
        data: { name: 'sneaky' },
        references: { posts: [en] },
      });
      expect(joined._meta?.code).toBe('INSUFFICIENT_PERMISSIONS');
      await mcp.close();
    }
    expect(await live()).toEqual(before);
  });

  it('publishes a schedule with its scheduler’s rights at the time it runs', async () => {
    let now = new Date('2030-01-01T00:00:00.000Z');
    const cms = await testCms(dialect, { config: { i18n }, clock: { now: () => now } });
    await setup(cms, ['drafts']);
    const author = await cms.userToken(ROLES.AUTHOR);
    const a = await createEntry(cms, { data: { title: 'First' } }, author.token);
    const b = await createEntry(cms, { data: { title: 'Second' } }, author.token);
    const schedule = async (id: string, at: string) =>
      expect(
        (await call(cms, 'POST', `/content/posts/${id}/schedule`, { token: author.token, body: { scheduledAt: at } }))
          .status,
      ).toBe(200);
    await schedule(a.item.id, '2030-01-01T01:00:00Z');
    await schedule(b.item.id, '2030-01-01T03:00:00Z');
    const read = async (id: string) =>
      (await call(cms, 'GET', `/content/posts/${id}`, { token: cms.adminToken })).body.data.item;

    now = new Date('2030-01-01T01:30:00.000Z');
    expect((await cms.services.content.scheduler.runOnce()).published).toBe(1);
    expect((await read(a.item.id)).status).toBe('published');

    // The author may no longer publish by the time the second one is due: it is cancelled, not retried forever.
    const demote = await call(cms, 'PUT', `/admin/users/${author.userId}`, {
      token: cms.adminToken,
      body: { role: ROLES.CONTRIBUTOR },
    });
    expect(demote.status).toBe(200);
    now = new Date('2030-01-01T04:00:00.000Z');
    expect((await cms.services.content.scheduler.runOnce()).published).toBe(0);
    expect(await read(b.item.id)).toMatchObject({ status: 'draft', scheduledAt: null });
    expect((await cms.services.content.scheduler.runOnce()).published).toBe(0);
  });

  it('gives a content:write token without content:read the entries it writes', async () => {
    const cms = await testCms(dialect, { config: { i18n } });
    await setup(cms, ['drafts']);
    const author = await cms.userToken(ROLES.AUTHOR, ['content:write']);
    const made = await call(cms, 'POST', '/content/posts', { token: author.token, body: { data: { title: 'Mine' } } });
    expect([made.status, made.body.data?.item?.status]).toEqual([201, 'draft']);
    const id = made.body.data.item.id;
    const upd = await call(cms, 'PUT', `/content/posts/${id}`, {
      token: author.token,
      body: { data: { title: 'Mine 2' }, _rev: made.body.data._rev },
    });
    expect([upd.status, upd.body.data?.item?.data?.title]).toEqual([200, 'Mine 2']);
    expect((await call(cms, 'GET', `/content/posts/${id}`, { token: author.token })).status).toBe(200);
    const pub = await call(cms, 'POST', `/content/posts/${id}/publish`, { token: author.token, body: {} });
    expect([pub.status, pub.body.data?.item?.status]).toEqual([200, 'published']);
    // Others' drafts stay out of sight.
    const other = await createEntry(cms, { data: { title: 'Not yours' } });
    expect((await call(cms, 'GET', `/content/posts/${other.item.id}`, { token: author.token })).status).toBe(404);

    const mcp = await mcpClient(await serve(cms), author.token);
    const viaMcp = await mcp.ok('content_create', { collection: 'posts', data: { title: 'Agent' } });
    expect(viaMcp.item).toMatchObject({ status: 'draft', data: { title: 'Agent' } });
    const again = await mcp.ok('content_update', {
      collection: 'posts',
      id: viaMcp.item.id,
      data: { title: 'Agent 2' },
    });
    expect(again.item.data.title).toBe('Agent 2');
    await mcp.close();
  });
});
