import { expect, it } from 'vitest';
import { tableColumns } from '../../../src/services/schema/ddl.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';

async function setup(cms: TestCms) {
  for (const slug of ['posts', 'people']) {
    const res = await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      body: { slug, label: slug, fields: [{ slug: 'title', label: 'Title', type: 'string' }] },
    });
    expect(res.status).toBe(201);
  }
}

const addField = (cms: TestCms, collection: string, body: unknown) =>
  call(cms, 'POST', `/schema/collections/${collection}/fields`, { token: cms.adminToken, body });

describeEachDialect('schema API: reference fields and relations', (dialect) => {
  it('targetCollection creates the parent end of relation {collection}_{field}, with no column', async () => {
    const cms = await testCms(dialect);
    await setup(cms);
    const res = await addField(cms, 'posts', {
      slug: 'authors',
      label: 'Authors',
      type: 'reference',
      validation: { targetCollection: 'people', multiple: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.validation).toMatchObject({
      targetCollection: 'people',
      relation: 'posts_authors',
      multiple: true,
    });
    const cols = (await tableColumns(cms.database.db as never, cms.database.dialect, 'ec_posts')).map((c) => c.name);
    expect(cols).not.toContain('authors');
    const rel = await cms.database.db.selectFrom('_cms_relations').selectAll().executeTakeFirstOrThrow();
    expect(rel.name).toBe('posts_authors');
    expect(Boolean(rel.multiple)).toBe(true);
  });

  it('binds one field per relation end and rejects a second one', async () => {
    const cms = await testCms(dialect);
    await setup(cms);
    await addField(cms, 'posts', {
      slug: 'authors',
      label: 'Authors',
      type: 'reference',
      validation: { targetCollection: 'people' },
    });
    const child = await addField(cms, 'people', {
      slug: 'posts',
      label: 'Posts',
      type: 'reference',
      validation: { relation: 'posts_authors' },
    });
    expect(child.status, JSON.stringify(child.body)).toBe(201);
    expect(child.body.data.validation).toMatchObject({ relation: 'posts_authors', targetCollection: 'posts' });
    const second = await addField(cms, 'people', {
      slug: 'more_posts',
      label: 'More',
      type: 'reference',
      validation: { relation: 'posts_authors' },
    });
    expect(second.status).toBe(409);
    const unknown = await addField(cms, 'people', {
      slug: 'x',
      label: 'X',
      type: 'reference',
      validation: { relation: 'nope' },
    });
    expect(unknown.status).toBe(400);
    const noTarget = await addField(cms, 'posts', {
      slug: 'y',
      label: 'Y',
      type: 'reference',
      validation: { targetCollection: 'missing' },
    });
    expect(noTarget.status).toBe(400);
  });

  it('needs relationSide on a self relation', async () => {
    const cms = await testCms(dialect);
    await setup(cms);
    const parent = await addField(cms, 'people', {
      slug: 'mentees',
      label: 'Mentees',
      type: 'reference',
      validation: { targetCollection: 'people' },
    });
    expect(parent.status).toBe(201);
    const noSide = await addField(cms, 'people', {
      slug: 'mentor',
      label: 'Mentor',
      type: 'reference',
      validation: { relation: 'people_mentees' },
    });
    expect(noSide.status).toBe(400);
    const withSide = await addField(cms, 'people', {
      slug: 'mentor',
      label: 'Mentor',
      type: 'reference',
      validation: { relation: 'people_mentees', relationSide: 'child' },
    });
    expect(withSide.status, JSON.stringify(withSide.body)).toBe(201);
    expect(withSide.body.data.validation.relationSide).toBe('child');
  });

  it('keeps the target fixed and rejects indexed on relation-bound fields', async () => {
    const cms = await testCms(dialect);
    await setup(cms);
    await addField(cms, 'posts', {
      slug: 'authors',
      label: 'A',
      type: 'reference',
      validation: { targetCollection: 'people' },
    });
    const change = await call(cms, 'PUT', '/schema/collections/posts/fields/authors', {
      token: cms.adminToken,
      body: { validation: { targetCollection: 'posts' } },
    });
    expect(change.status).toBe(400);
    const indexed = await addField(cms, 'posts', {
      slug: 'editor',
      label: 'E',
      type: 'reference',
      indexed: true,
      validation: { targetCollection: 'people' },
    });
    expect(indexed.status).toBe(400);
    const multiple = await call(cms, 'PUT', '/schema/collections/posts/fields/authors', {
      token: cms.adminToken,
      body: { validation: { targetCollection: 'people', multiple: true } },
    });
    expect(multiple.status, JSON.stringify(multiple.body)).toBe(200);
    expect(multiple.body.data.validation.multiple).toBe(true);
  });

  it('converts a legacy ID-as-text reference into a relation, copying the IDs as links', async () => {
    const cms = await testCms(dialect);
    await setup(cms);
    const legacy = await addField(cms, 'posts', { slug: 'author', label: 'Author', type: 'reference', indexed: true });
    expect(legacy.status, JSON.stringify(legacy.body)).toBe(201);
    const db = cms.database.db as any;
    const now = '2026-01-01T00:00:00.000Z';
    const base = { status: 'draft', locale: 'en', created_at: now, updated_at: now, version: 1 };
    await db
      .insertInto('ec_people')
      .values({ ...base, id: 'u1', translation_group: 'pg1' })
      .execute();
    await db
      .insertInto('ec_people')
      .values({ ...base, id: 'u2', translation_group: 'pg2' })
      .execute();
    await db
      .insertInto('ec_posts')
      .values({ ...base, id: 'a', translation_group: 'ga', author: 'u1' })
      .execute();
    await db
      .insertInto('ec_posts')
      .values({ ...base, id: 'b', translation_group: 'gb', author: 'u2' })
      .execute();
    await db
      .insertInto('ec_posts')
      .values({ ...base, id: 'c', translation_group: 'gc', author: 'missing' })
      .execute();

    const res = await call(cms, 'PUT', '/schema/collections/posts/fields/author', {
      token: cms.adminToken,
      body: { validation: { targetCollection: 'people' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ indexed: false, searchable: false });
    expect(res.body.data.validation).toMatchObject({ targetCollection: 'people', relation: 'posts_author' });
    const links = await db
      .selectFrom('_cms_links')
      .select(['parent_group', 'child_group'])
      .orderBy('parent_group')
      .execute();
    expect(links).toEqual([
      { parent_group: 'ga', child_group: 'pg1' },
      { parent_group: 'gb', child_group: 'pg2' },
    ]);
    // The old column is kept but no longer written; deleting the field drops it.
    const del = await call(cms, 'DELETE', '/schema/collections/posts/fields/author', { token: cms.adminToken });
    expect(del.status).toBe(200);
    const cols = (await tableColumns(cms.database.db as never, cms.database.dialect, 'ec_posts')).map((c) => c.name);
    expect(cols).not.toContain('author');
    expect(await db.selectFrom('_cms_relations').selectAll().execute()).toHaveLength(0);
    expect(await db.selectFrom('_cms_links').selectAll().execute()).toHaveLength(0);
  });

  it('deleting a collection removes relations that involve it and fields viewing them', async () => {
    const cms = await testCms(dialect);
    await setup(cms);
    await addField(cms, 'posts', {
      slug: 'authors',
      label: 'A',
      type: 'reference',
      validation: { targetCollection: 'people' },
    });
    await addField(cms, 'people', {
      slug: 'posts',
      label: 'P',
      type: 'reference',
      validation: { relation: 'posts_authors' },
    });
    const del = await call(cms, 'DELETE', '/schema/collections/posts', { token: cms.adminToken });
    expect(del.status).toBe(200);
    const people = await call(cms, 'GET', '/schema/collections/people', { token: cms.adminToken });
    expect(people.body.data.fields.map((f: { slug: string }) => f.slug)).toEqual(['title']);
    expect(await cms.database.db.selectFrom('_cms_relations').selectAll().execute()).toHaveLength(0);
  });
});
