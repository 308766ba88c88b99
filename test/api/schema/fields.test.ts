import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { FIELD_TYPES } from '../../../src/services/fields/types.js';
import { tableColumns } from '../../../src/services/schema/ddl.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';

async function columns(cms: TestCms, table: string): Promise<string[]> {
  return (await tableColumns(cms.database.db as never, cms.database.dialect, table)).map((c) => c.name);
}

async function collection(cms: TestCms, slug: string, fields: unknown[] = []) {
  const res = await call(cms, 'POST', '/schema/collections', {
    token: cms.adminToken,
    body: { slug, label: slug, fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

async function insertRow(cms: TestCms, table: string, values: Record<string, unknown>) {
  const now = '2026-01-01T00:00:00.000Z';
  await (cms.database.db as any)
    .insertInto(table)
    .values({ status: 'draft', locale: 'en', created_at: now, updated_at: now, version: 1, ...values })
    .execute();
}

const sample: Record<string, Record<string, unknown>> = {
  string: { validation: { minLength: 1, maxLength: 80, pattern: '^[A-Z]' } },
  text: { validation: { maxLength: 5000 }, options: { rows: 6 } },
  url: {},
  number: { validation: { min: 0, max: 10.5 } },
  integer: { validation: { min: 1, max: 100 } },
  boolean: {},
  datetime: {},
  select: { validation: { options: ['red', 'green'] } },
  multiSelect: { validation: { options: ['a', 'b', 'c'] } },
  portableText: {},
  image: { validation: { allowedMimeTypes: ['image/png', 'image/jpeg'] }, options: { darkVariant: true } },
  file: { validation: { allowedMimeTypes: ['application/pdf'] } },
  reference: {},
  json: {},
  slug: { unique: true },
  repeater: {
    validation: {
      subFields: [
        { slug: 'label', label: 'Label', type: 'string', required: true },
        { slug: 'kind', label: 'Kind', type: 'select', options: ['a', 'b'] },
      ],
      minItems: 0,
      maxItems: 5,
    },
  },
  blocks: { validation: { allowedTypes: ['hero'], maxItems: 20 } },
};

describeEachDialect('schema API: fields', (dialect) => {
  it('adds a column for every one of the 17 field types', async () => {
    const cms = await testCms(dialect);
    await call(cms, 'POST', '/schema/block-types', {
      token: cms.adminToken,
      body: { slug: 'hero', label: 'Hero', fields: [{ slug: 'heading', label: 'Heading', type: 'string' }] },
    });
    await collection(cms, 'all_types');
    for (const type of FIELD_TYPES) {
      const res = await call(cms, 'POST', '/schema/collections/all_types/fields', {
        token: cms.adminToken,
        body: { slug: `f_${type.toLowerCase()}`, label: type, type, ...sample[type] },
      });
      expect(res.status, `${type}: ${JSON.stringify(res.body)}`).toBe(201);
      expect(res.body.data).toMatchObject({ type, translatable: true, required: false });
    }
    const cols = await columns(cms, 'ec_all_types');
    for (const type of FIELD_TYPES) expect(cols).toContain(`f_${type.toLowerCase()}`);
    const list = await call(cms, 'GET', '/schema/collections/all_types/fields', { token: cms.adminToken });
    expect(list.body.data.items).toHaveLength(17);
    const one = await call(cms, 'GET', '/schema/collections/all_types/fields/f_select', { token: cms.adminToken });
    expect(one.body.data.validation).toEqual({ options: ['red', 'green'] });
  });

  it('refuses bad definitions with issues that point at the key', async () => {
    const cms = await testCms(dialect);
    await collection(cms, 'posts');
    const cases: Array<[unknown, string]> = [
      [{ slug: 'status', label: 'S', type: 'string' }, 'slug'],
      [{ slug: 'Title', label: 'T', type: 'string' }, 'slug'],
      [{ slug: 'n', label: 'N', type: 'number', validation: { min: 3, max: 1 } }, 'validation'],
      [{ slug: 'j', label: 'J', type: 'json', indexed: true }, 'indexed'],
      [{ slug: 's', label: 'S', type: 'select', validation: { options: [] } }, 'validation'],
      [{ slug: 'b', label: 'B', type: 'blocks', required: true, validation: { allowedTypes: [] } }, 'required'],
      [{ slug: 'b2', label: 'B', type: 'blocks', validation: { allowedTypes: [], maxItems: 101 } }, 'validation'],
      [{ slug: 'r', label: 'R', type: 'repeater', validation: { subFields: [] } }, 'validation'],
      [
        {
          slug: 'r2',
          label: 'R',
          type: 'repeater',
          validation: { subFields: [{ slug: 'x', label: 'X', type: 'reference' }] },
        },
        'validation',
      ],
      [{ slug: 'p', label: 'P', type: 'string', validation: { pattern: '([' } }, 'validation'],
      [{ slug: 'x', label: 'X', type: 'nope' }, 'type'],
      [{ slug: 'x', label: 'X', type: 'string', bogus: 1 }, ''],
    ];
    for (const [body, key] of cases) {
      const res = await call(cms, 'POST', '/schema/collections/posts/fields', { token: cms.adminToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      const paths = (res.body.error.details.issues as Array<{ path: unknown[] }>).map((i) => String(i.path[0] ?? ''));
      if (key) expect(paths, JSON.stringify(res.body.error)).toContain(key);
    }
    expect(await columns(cms, 'ec_posts')).not.toContain('n');
  });

  it('renames a field by renaming its column, keeping the values', async () => {
    const cms = await testCms(dialect);
    await collection(cms, 'posts', [{ slug: 'title', label: 'Title', type: 'string', indexed: true }]);
    await insertRow(cms, 'ec_posts', { id: 'p1', translation_group: 'g1', title: 'Hello' });
    const res = await call(cms, 'PUT', '/schema/collections/posts/fields/title', {
      token: cms.adminToken,
      body: { slug: 'headline', label: 'Headline' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ slug: 'headline', label: 'Headline', indexed: true });
    const cols = await columns(cms, 'ec_posts');
    expect(cols).toContain('headline');
    expect(cols).not.toContain('title');
    const row = await (cms.database.db as any).selectFrom('ec_posts').select('headline').executeTakeFirst();
    expect(row.headline).toBe('Hello');
    expect((await call(cms, 'GET', '/schema/collections/posts/fields/title', { token: cms.adminToken })).status).toBe(
      404,
    );
    const typeChange = await call(cms, 'PUT', '/schema/collections/posts/fields/headline', {
      token: cms.adminToken,
      body: { type: 'integer' },
    });
    expect(typeChange.status).toBe(400);
  });

  it('deletes a field with its column and values', async () => {
    const cms = await testCms(dialect);
    await collection(cms, 'posts', [
      { slug: 'title', label: 'Title', type: 'string', indexed: true, unique: true },
      { slug: 'views', label: 'Views', type: 'integer' },
    ]);
    await insertRow(cms, 'ec_posts', { id: 'p1', translation_group: 'g1', title: 'Hello', views: 3 });
    const del = await call(cms, 'DELETE', '/schema/collections/posts/fields/title', { token: cms.adminToken });
    expect(del.status).toBe(200);
    expect(await columns(cms, 'ec_posts')).not.toContain('title');
    // Re-adding the slug starts from nothing: the old values are gone.
    await call(cms, 'POST', '/schema/collections/posts/fields', {
      token: cms.adminToken,
      body: { slug: 'title', label: 'Title', type: 'string' },
    });
    const row = await (cms.database.db as any).selectFrom('ec_posts').select(['title', 'views']).executeTakeFirst();
    expect(row).toEqual({ title: null, views: 3 });
  });

  it('backfills a new field default into existing entries', async () => {
    const cms = await testCms(dialect);
    await collection(cms, 'posts');
    await insertRow(cms, 'ec_posts', { id: 'p1', translation_group: 'g1' });
    const res = await call(cms, 'POST', '/schema/collections/posts/fields', {
      token: cms.adminToken,
      body: { slug: 'featured', label: 'Featured', type: 'boolean', defaultValue: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const row = await (cms.database.db as any).selectFrom('ec_posts').select('featured').executeTakeFirst();
    expect(Boolean(row.featured)).toBe(true);
    const bad = await call(cms, 'POST', '/schema/collections/posts/fields', {
      token: cms.adminToken,
      body: { slug: 'n', label: 'N', type: 'integer', defaultValue: 'ten' },
    });
    expect(bad.status).toBe(400);
  });

  it('adds and drops indexes, and refuses unique over duplicate values', async () => {
    const cms = await testCms(dialect);
    await collection(cms, 'posts', [{ slug: 'code', label: 'Code', type: 'string' }]);
    await insertRow(cms, 'ec_posts', { id: 'p1', translation_group: 'g1', code: 'A' });
    await insertRow(cms, 'ec_posts', { id: 'p2', translation_group: 'g2', code: 'A' });
    const idx = await call(cms, 'PUT', '/schema/collections/posts/fields/code', {
      token: cms.adminToken,
      body: { indexed: true },
    });
    expect(idx.status).toBe(200);
    expect(idx.body.data.indexed).toBe(true);
    const uniq = await call(cms, 'PUT', '/schema/collections/posts/fields/code', {
      token: cms.adminToken,
      body: { unique: true },
    });
    expect(uniq.status).toBe(409);
    expect(
      (await call(cms, 'GET', '/schema/collections/posts/fields/code', { token: cms.adminToken })).body.data.unique,
    ).toBe(false);
    await sql`update ec_posts set code = 'B' where id = 'p2'`.execute(cms.database.db);
    const ok = await call(cms, 'PUT', '/schema/collections/posts/fields/code', {
      token: cms.adminToken,
      body: { unique: true },
    });
    expect(ok.status).toBe(200);
    await expect(insertRow(cms, 'ec_posts', { id: 'p3', translation_group: 'g3', code: 'A' })).rejects.toThrow();
    const off = await call(cms, 'PUT', '/schema/collections/posts/fields/code', {
      token: cms.adminToken,
      body: { unique: false, indexed: false },
    });
    expect(off.status).toBe(200);
    await insertRow(cms, 'ec_posts', { id: 'p3', translation_group: 'g3', code: 'A' });
  });

  it('reorders fields', async () => {
    const cms = await testCms(dialect);
    await collection(cms, 'posts', [
      { slug: 'a', label: 'A', type: 'string' },
      { slug: 'b', label: 'B', type: 'string' },
      { slug: 'c', label: 'C', type: 'string' },
    ]);
    const res = await call(cms, 'POST', '/schema/collections/posts/fields/reorder', {
      token: cms.adminToken,
      body: { slugs: ['c', 'a'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.items.map((f: { slug: string }) => f.slug)).toEqual(['c', 'a', 'b']);
    const got = await call(cms, 'GET', '/schema/collections/posts', { token: cms.adminToken });
    expect(got.body.data.fields.map((f: { slug: string }) => f.slug)).toEqual(['c', 'a', 'b']);
  });
});
