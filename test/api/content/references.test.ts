import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { createEntry, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';

const i18n = { locales: ['en', 'fr'], defaultLocale: 'en', fallback: { fr: 'en' } };

async function setup(cms: TestCms, multiple = false) {
  for (const [slug, fields] of [
    ['people', [{ slug: 'name', label: 'Name', type: 'string' }]],
    ['posts', [{ slug: 'title', label: 'Title', type: 'string' }]],
  ] as const) {
    const res = await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      body: { slug, label: slug, fields },
    });
    expect(res.status).toBe(201);
  }
  const parent = await call(cms, 'POST', '/schema/collections/posts/fields', {
    token: cms.adminToken,
    body: {
      slug: 'authors',
      label: 'Authors',
      type: 'reference',
      validation: { targetCollection: 'people', multiple },
    },
  });
  expect(parent.status).toBe(201);
  const child = await call(cms, 'POST', '/schema/collections/people/fields', {
    token: cms.adminToken,
    body: { slug: 'posts', label: 'Posts', type: 'reference', validation: { relation: 'posts_authors' } },
  });
  expect(child.status).toBe(201);
}

const person = async (cms: TestCms, name: string) =>
  (await createEntry(cms, { data: { name } }, cms.adminToken, 'people')).item;

describeEachDialect('references and relations', (dialect) => {
  it('writes a selection in order and reads linked entries with their details', async () => {
    const cms = await testCms(dialect);
    await setup(cms, true);
    const ann = await person(cms, 'Ann');
    const bob = await person(cms, 'Bob');
    const post = await createEntry(cms, { data: { title: 'P' }, references: { authors: [bob.id, ann.id] } });
    expect(post.item.references.authors.items).toEqual([
      {
        id: bob.id,
        slug: 'bob',
        collection: 'people',
        title: 'Bob',
        locale: 'en',
        translationGroup: bob.translationGroup,
        status: 'draft',
      },
      {
        id: ann.id,
        slug: 'ann',
        collection: 'people',
        title: 'Ann',
        locale: 'en',
        translationGroup: ann.translationGroup,
        status: 'draft',
      },
    ]);
    expect(post.item.references.authors.nextCursor).toBeUndefined();
    // The child end selects the entries pointing at it.
    const annRead = await call(cms, 'GET', `/content/people/${ann.id}`, { token: cms.adminToken });
    expect(annRead.body.data.item.references.posts.items.map((i: { id: string }) => i.id)).toEqual([post.item.id]);
    // A reference value is not part of data.
    expect(post.item.data.authors).toBeUndefined();
    const inData = await call(cms, 'POST', '/content/posts', {
      token: cms.adminToken,
      body: { data: { title: 'x', authors: [ann.id] } },
    });
    expect(inData.status).toBe(400);
  });

  it('returns the first 50 links and a cursor with a route to page on', async () => {
    const cms = await testCms(dialect);
    await setup(cms, true);
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) ids.push((await person(cms, `P${String(i).padStart(2, '0')}`)).id);
    const post = await createEntry(cms, { data: { title: 'Many' }, references: { authors: ids } });
    const page1 = post.item.references.authors;
    expect(page1.items).toHaveLength(50);
    expect(page1.items.map((i: { id: string }) => i.id)).toEqual(ids.slice(0, 50));
    expect(page1.nextCursor).toEqual(expect.any(String));
    expect(page1.next).toBe(`/content/posts/${post.item.id}/references/authors?cursor=${page1.nextCursor}`);
    const page2 = await call(cms, 'GET', page1.next, { token: cms.adminToken });
    expect(page2.status).toBe(200);
    expect(page2.body.data.items.map((i: { id: string }) => i.id)).toEqual(ids.slice(50));
    expect(page2.body.data.nextCursor).toBeUndefined();
  });

  it('validates IDs and limits: unknown field, missing entry, more than 1000, one parent per child', async () => {
    const cms = await testCms(dialect);
    await setup(cms, false);
    const ann = await person(cms, 'Ann');
    const bad = async (references: unknown) =>
      call(cms, 'POST', '/content/posts', { token: cms.adminToken, body: { data: { title: 'x' }, references } });
    expect((await bad({ nope: [ann.id] })).status).toBe(400);
    const missing = await bad({ authors: ['01ARZ3NDEKTSV4RRFFQ69G5FAV'] });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.issues[0].path).toEqual(['references', 'authors', 0]);
    expect((await bad({ authors: Array.from({ length: 1001 }, (_, i) => `id${i}`) })).status).toBe(400);

    await createEntry(cms, { data: { title: 'First' }, references: { authors: [ann.id] } });
    const second = await bad({ authors: [ann.id] });
    expect(second.status).toBe(400);
    expect(second.body.error.details.issues[0].code).toBe('too_many_parents');
    // Child end: one parent only.
    const p1 = await createEntry(cms, { data: { title: 'P1' } });
    const p2 = await createEntry(cms, { data: { title: 'P2' } });
    const bob = await person(cms, 'Bob');
    const twoParents = await call(cms, 'PUT', `/content/people/${bob.id}`, {
      token: cms.adminToken,
      body: { references: { posts: [p1.item.id, p2.item.id] } },
    });
    expect(twoParents.status).toBe(400);
    const oneParent = await call(cms, 'PUT', `/content/people/${bob.id}`, {
      token: cms.adminToken,
      body: { references: { posts: [p2.item.id] } },
    });
    expect(oneParent.status).toBe(200);
    const p2Read = await call(cms, 'GET', `/content/posts/${p2.item.id}`, { token: cms.adminToken });
    expect(p2Read.body.data.item.references.authors.items.map((i: { id: string }) => i.id)).toEqual([bob.id]);
  });

  it('stages a changed selection on a published entry; publish applies it, discard drops it', async () => {
    const cms = await testCms(dialect);
    await setup(cms, true);
    const sub = await cms.userToken(ROLES.SUBSCRIBER);
    const ann = await person(cms, 'Ann');
    const bob = await person(cms, 'Bob');
    await publish(cms, ann.id, cms.adminToken, 'people');
    await publish(cms, bob.id, cms.adminToken, 'people');
    const post = await createEntry(cms, { data: { title: 'P' }, references: { authors: [ann.id] } });
    await publish(cms, post.item.id);
    const ids = (r: { body: { data: { item: { references: { authors: { items: Array<{ id: string }> } } } } } }) =>
      r.body.data.item.references.authors.items.map((i) => i.id);

    await call(cms, 'PUT', `/content/posts/${post.item.id}`, {
      token: cms.adminToken,
      body: { references: { authors: [bob.id] } },
    });
    expect(ids(await call(cms, 'GET', `/content/posts/${post.item.id}`, { token: sub.token }))).toEqual([ann.id]);
    expect(ids(await call(cms, 'GET', `/content/posts/${post.item.id}`, { token: cms.adminToken }))).toEqual([bob.id]);

    await call(cms, 'POST', `/content/posts/${post.item.id}/discard-draft`, { token: cms.adminToken, body: {} });
    expect(ids(await call(cms, 'GET', `/content/posts/${post.item.id}`, { token: cms.adminToken }))).toEqual([ann.id]);

    await call(cms, 'PUT', `/content/posts/${post.item.id}`, {
      token: cms.adminToken,
      body: { references: { authors: [bob.id, ann.id] } },
    });
    await publish(cms, post.item.id);
    expect(ids(await call(cms, 'GET', `/content/posts/${post.item.id}`, { token: sub.token }))).toEqual([
      bob.id,
      ann.id,
    ]);
  });

  it('re-checks relation limits on publish', async () => {
    const cms = await testCms(dialect);
    await setup(cms, false);
    const ann = await person(cms, 'Ann');
    const post = await createEntry(cms, { data: { title: 'P' } });
    await publish(cms, post.item.id);
    await call(cms, 'PUT', `/content/posts/${post.item.id}`, {
      token: cms.adminToken,
      body: { references: { authors: [ann.id] } },
    });
    // Meanwhile another post takes Ann as its (only allowed) parent link.
    await createEntry(cms, { data: { title: 'Other' }, references: { authors: [ann.id] } });
    const res = await call(cms, 'POST', `/content/posts/${post.item.id}/publish`, { token: cms.adminToken, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.error.details.issues[0].code).toBe('too_many_parents');
  });

  it('shares one selection across translations and resolves links in the reading locale', async () => {
    const cms = await testCms(dialect, { config: { i18n } });
    await setup(cms, true);
    const annEn = await person(cms, 'Ann');
    const annFr = (
      await createEntry(
        cms,
        { locale: 'fr', translationOf: annEn.id, data: { name: 'Anne' } },
        cms.adminToken,
        'people',
      )
    ).item;
    const bob = await person(cms, 'Bob');
    const postEn = await createEntry(cms, { data: { title: 'Hello' }, references: { authors: [annEn.id, bob.id] } });
    const postFr = await createEntry(cms, { locale: 'fr', translationOf: postEn.item.id, data: { title: 'Bonjour' } });
    const refs = postFr.item.references.authors.items;
    expect(refs.map((r: { id: string; locale: string }) => [r.id, r.locale])).toEqual([
      [annFr.id, 'fr'],
      [bob.id, 'en'],
    ]);
    // Changing the selection through the French entry changes it for the English one too.
    await call(cms, 'PUT', `/content/posts/${postFr.item.id}`, {
      token: cms.adminToken,
      body: { references: { authors: [bob.id] } },
    });
    const en = await call(cms, 'GET', `/content/posts/${postEn.item.id}`, { token: cms.adminToken });
    expect(en.body.data.item.references.authors.items.map((r: { id: string }) => r.id)).toEqual([bob.id]);
  });
});
