import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { type CliSite, cliSite, describeEachTarget } from '../helpers/cli.js';
import { call } from '../helpers/cms.js';

/** A schema using every field type, block type versions and each kind of relation end. */
async function buildSchema(site: CliSite) {
  const { cms } = site;
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await call(cms, method, path, { token: cms.adminToken, body });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    return res.body.data;
  };
  await ok('POST', '/schema/block-types', {
    slug: 'hero',
    label: 'Hero',
    fields: [{ slug: 'heading', label: 'Heading', type: 'string', required: true }],
  });
  await ok('PUT', '/schema/block-types/hero', {
    label: 'Hero banner',
    fields: [
      { slug: 'heading', label: 'Heading', type: 'string', required: true },
      { slug: 'image', label: 'Image', type: 'image' },
    ],
  });
  await ok('POST', '/schema/block-types/hero/versions/1/activate');
  await ok('POST', '/schema/block-types', {
    slug: 'quote',
    label: 'Quote',
    icon: 'quote',
    fields: [{ slug: 'text', label: 'Text', type: 'text' }],
  });
  await ok('POST', '/schema/collections', {
    slug: 'authors',
    label: 'Authors',
    labelSingular: 'Author',
    supports: ['drafts'],
    fields: [
      { slug: 'name', label: 'Name', type: 'string', required: true, unique: true, indexed: true },
      { slug: 'website', label: 'Website', type: 'url' },
      { slug: 'avatar', label: 'Avatar', type: 'image', validation: { allowedMimeTypes: ['image/png'] } },
    ],
  });
  await ok('POST', '/schema/collections', {
    slug: 'posts',
    label: 'Posts',
    description: 'News',
    icon: 'pen',
    supports: ['drafts', 'revisions', 'editLock', 'search', 'comments'],
    urlPattern: '/blog/{slug}',
    fields: [
      {
        slug: 'title',
        label: 'Title',
        type: 'string',
        required: true,
        searchable: true,
        validation: { maxLength: 90 },
      },
      { slug: 'body', label: 'Body', type: 'portableText', searchable: true },
      { slug: 'summary', label: 'Summary', type: 'text', options: { rows: 5 }, translatable: false },
      { slug: 'rating', label: 'Rating', type: 'number', validation: { min: 0, max: 5 } },
      { slug: 'views', label: 'Views', type: 'integer', indexed: true, defaultValue: 0 },
      { slug: 'pinned', label: 'Pinned', type: 'boolean', indexed: true },
      { slug: 'when', label: 'When', type: 'datetime' },
      { slug: 'kind', label: 'Kind', type: 'select', validation: { options: ['news', 'essay'] } },
      { slug: 'tags', label: 'Tags', type: 'multiSelect', validation: { options: ['a', 'b'] } },
      { slug: 'extra', label: 'Extra', type: 'json' },
      { slug: 'handle', label: 'Handle', type: 'slug', widget: 'slug-editor' },
      { slug: 'attachment', label: 'Attachment', type: 'file' },
      { slug: 'legacy', label: 'Legacy', type: 'reference' },
      {
        slug: 'links',
        label: 'Links',
        type: 'repeater',
        validation: { subFields: [{ slug: 'href', label: 'Href', type: 'url', required: true }], maxItems: 5 },
      },
      { slug: 'sections', label: 'Sections', type: 'blocks', validation: { allowedTypes: ['hero', 'quote'] } },
    ],
  });
  // Narrowing a blocks field retires the type it no longer allows.
  await ok('PUT', '/schema/collections/posts/fields/sections', { validation: { allowedTypes: ['hero'] } });
  await ok('POST', '/schema/collections/posts/fields', {
    slug: 'author',
    label: 'Author',
    type: 'reference',
    validation: { targetCollection: 'authors', multiple: true },
  });
  await ok('POST', '/schema/collections/authors/fields', {
    slug: 'posts',
    label: 'Posts',
    type: 'reference',
    validation: { relation: 'posts_author' },
  });
  await ok('POST', '/schema/collections', {
    slug: 'categories',
    label: 'Categories',
    fields: [{ slug: 'name', label: 'Name', type: 'string' }],
  });
  await ok('POST', '/schema/collections/categories/fields', {
    slug: 'parent',
    label: 'Parent',
    type: 'reference',
    validation: { targetCollection: 'categories' },
  });
  await ok('POST', '/schema/collections/categories/fields', {
    slug: 'children',
    label: 'Children',
    type: 'reference',
    validation: { relation: 'categories_parent', relationSide: 'child' },
  });
  // A parent end renamed after it made its relation (the relation keeps the first name).
  await ok('POST', '/schema/collections/posts/fields', {
    slug: 'editor',
    label: 'Editor',
    type: 'reference',
    validation: { targetCollection: 'authors' },
  });
  await ok('PUT', '/schema/collections/posts/fields/editor', { slug: 'reviewer', label: 'Reviewer' });
  await ok('POST', '/schema/collections/authors/fields', {
    slug: 'reviews',
    label: 'Reviews',
    type: 'reference',
    validation: { relation: 'posts_editor' },
  });
  await ok('POST', '/schema/collections/posts/fields/reorder', { slugs: ['author', 'title'] });
  await ok('POST', '/schema/collections/reorder', { slugs: ['posts', 'categories'] });
}

describeEachTarget('cms schema', (kind) => {
  it('exports every collection, field and block type, and applying the export to an empty site reproduces it exactly', async () => {
    const source = await cliSite(kind);
    await buildSchema(source);
    const exported = await source.run(['schema', 'export']);
    expect(exported.code, exported.stderr).toBe(0);
    const doc = exported.json();
    expect(doc.collections.map((c: any) => c.slug)).toEqual(['posts', 'categories', 'authors']);
    expect(doc.blockTypes.map((b: any) => [b.slug, b.activeVersion, b.versions.length])).toEqual([
      ['hero', 1, 2],
      ['quote', 1, 1],
    ]);
    const posts = doc.collections[0];
    expect(posts.fields.slice(0, 2).map((f: any) => f.slug)).toEqual(['author', 'title']);
    expect(posts.fields.find((f: any) => f.slug === 'sections').validation).toEqual({
      allowedTypes: ['hero'],
      retiredTypes: ['quote'],
    });
    expect(JSON.stringify(doc)).not.toMatch(/"(id|createdAt|updatedAt)"/);

    const file = join(source.dir, 'schema.json');
    const toFile = await source.run(['schema', 'export', '--output', 'schema.json']);
    expect(toFile.code).toBe(0);
    expect(toFile.stderr).toContain('Wrote schema.json: 3 collections, 2 block types');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(doc);

    const empty = await cliSite(kind);
    writeFileSync(join(empty.dir, 'schema.json'), readFileSync(file));
    const applied = await empty.run(['schema', 'apply', 'schema.json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('+ block type hero (2 versions)');
    expect(applied.stdout).toContain('+ collection posts (');
    expect(applied.stdout).not.toContain('[destructive]');
    expect(applied.stderr).toMatch(/\[1\/\d+\] \+ block type hero/);
    const again = await empty.run(['schema', 'export']);
    expect(again.json()).toEqual(doc);
    // Relation names and the relation-bound ends are the same too.
    const relations = async (site: CliSite) =>
      (
        await site.cms.database.db.selectFrom('_cms_relations').select(['name', 'multiple']).orderBy('name').execute()
      ).map((r) => [r.name, Boolean(r.multiple)]);
    expect(await relations(empty)).toEqual(await relations(source));
    expect(await relations(empty)).toEqual([
      ['categories_parent', false],
      ['posts_author', true],
      ['posts_editor', false],
    ]);
    const noop = await empty.run(['schema', 'apply', 'schema.json']);
    expect(noop.code).toBe(0);
    expect(noop.stdout).toMatch(/: no changes\.\n$/);
  });

  it('plans changes, refuses destructive ones without --yes, and applies them with it', async () => {
    const site = await cliSite(kind);
    await buildSchema(site);
    const doc = (await site.run(['schema', 'export'])).json();
    const posts = doc.collections.find((c: any) => c.slug === 'posts');
    posts.label = 'Articles';
    posts.urlPattern = '/articles/{slug}';
    posts.fields = posts.fields.filter((f: any) => f.slug !== 'summary');
    posts.fields.find((f: any) => f.slug === 'title').required = false;
    const kindField = posts.fields.find((f: any) => f.slug === 'kind');
    kindField.type = 'string';
    delete kindField.validation;
    posts.fields.push({ slug: 'subtitle', label: 'Subtitle', type: 'string' });
    doc.collections = doc.collections.filter((c: any) => c.slug !== 'categories');
    doc.collections.push({
      slug: 'pages',
      label: 'Pages',
      fields: [{ slug: 'title', label: 'Title', type: 'string' }],
    });
    writeFileSync(join(site.dir, 'next.json'), JSON.stringify(doc));
    const before = (await site.run(['schema', 'export'])).stdout;

    const refused = await site.run(['schema', 'apply', 'next.json']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain(
      '- collection categories and all of its entries (cannot be undone)   [destructive]',
    );
    expect(refused.stdout).toContain(
      '- field posts.summary (text) and its stored values (cannot be undone)   [destructive]',
    );
    expect(refused.stdout).toContain('- field posts.kind to add it again: type select → string');
    expect(refused.stdout).toContain(
      '~ collection posts: label "Posts" → "Articles", urlPattern "/blog/{slug}" → "/articles/{slug}"',
    );
    expect(refused.stdout).toContain('~ field posts.title: required true → false');
    expect(refused.stdout).toContain('+ field posts.subtitle (string)');
    expect(refused.stdout).toContain('+ collection pages (1 field)');
    expect(refused.stderr).toContain('Nothing was applied: 3 destructive changes delete data. Run again with --yes');
    expect((await site.run(['schema', 'export'])).stdout).toBe(before);

    const dry = await site.run(['schema', 'apply', 'next.json', '--dry-run', '--yes', '--json']);
    expect(dry.code).toBe(0);
    expect(dry.json().applied).toBe(false);
    expect(dry.json().changes).toContainEqual({ change: '+ collection pages (1 field)', destructive: false });
    expect((await site.run(['schema', 'export'])).stdout).toBe(before);

    const done = await site.run(['schema', 'apply', 'next.json', '--yes']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toMatch(/Applied \d+ changes\./);
    const after = (await site.run(['schema', 'export'])).json();
    expect(after.collections.map((c: any) => c.slug)).toEqual(['posts', 'authors', 'pages']);
    expect(after.collections[0].fields.map((f: any) => f.slug)).toEqual(posts.fields.map((f: any) => f.slug));
    expect(after.collections[0].fields.find((f: any) => f.slug === 'kind').type).toBe('string');
    expect((await site.run(['schema', 'apply', 'next.json'])).stdout).toMatch(/: no changes\.\n$/);

    const list = await site.run(['schema', 'list']);
    expect(list.stdout).toMatch(
      /^SLUG +LABEL +FIELDS +SUPPORTS\nposts +Articles +\d+ +drafts, revisions, editLock, search, comments\n/,
    );
    const get = await site.run(['schema', 'get', 'posts']);
    expect(get.stdout).toMatch(/\ntitle +string +Title +searchable\n/);
    expect((await site.run(['schema', 'get', 'posts', '--json'])).json().label).toBe('Articles');
  });

  it('refuses a document that is not a schema, naming what is wrong', async () => {
    const site = await cliSite(kind);
    const bad = {
      version: 1,
      collections: [
        {
          slug: 'posts',
          label: 'Posts',
          fields: [{ slug: 'author', label: 'A', type: 'reference', validation: { targetCollection: 'people' } }],
        },
        { slug: 'posts', label: 'Again', fields: [] },
      ],
    };
    writeFileSync(join(site.dir, 'bad.yaml'), JSON.stringify(bad));
    const res = await site.run(['schema', 'apply', 'bad.yaml']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('collections.posts: listed twice');
    expect(res.stderr).toContain('targetCollection "people" is not a collection of this document');
    writeFileSync(join(site.dir, 'broken.yaml'), 'collections: [\n');
    expect((await site.run(['schema', 'apply', 'broken.yaml'])).stderr).toContain('is not valid YAML');
    expect((await site.run(['schema', 'apply', 'missing.json'])).stderr).toContain('No such file: missing.json');
    // A field the server refuses: the step says where it stopped.
    writeFileSync(
      join(site.dir, 'refused.json'),
      JSON.stringify({
        version: 1,
        collections: [{ slug: 'notes', label: 'Notes', fields: [{ slug: 'id', label: 'Id', type: 'string' }] }],
      }),
    );
    const refused = await site.run(['schema', 'apply', 'refused.json']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Step 1/1 (+ collection notes (1 field)) failed: ');
    expect(refused.stderr).toContain('[VALIDATION_ERROR]');
    expect(refused.stderr).toContain('No step was applied');
  });
});
