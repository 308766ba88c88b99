import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';

describeEachDialect('schema API: orphaned tables', (dialect) => {
  it('lists an ec_* table without a collection and registers it back', async () => {
    const cms = await testCms(dialect);
    await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      body: {
        slug: 'recipes',
        label: 'Recipes',
        fields: [
          { slug: 'title', label: 'Title', type: 'string' },
          { slug: 'servings', label: 'Servings', type: 'integer' },
          { slug: 'steps', label: 'Steps', type: 'json' },
        ],
      },
    });
    await sql`insert into ec_recipes (id, status, locale, translation_group, created_at, updated_at, version, title, servings, steps)
      values ('r1', 'published', 'en', 'g1', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 1, 'Soup', 4, ${'["boil"]'})`.execute(
      cms.database.db,
    );
    // Lose the registry rows, as a failed restore would; the table and its data stay.
    await cms.database.db.deleteFrom('_cms_fields').execute();
    await cms.database.db.deleteFrom('_cms_collections').execute();
    cms.services.schema.cache.invalidate();

    const list = await call(cms, 'GET', '/schema/orphans', { token: cms.adminToken });
    expect(list.status).toBe(200);
    expect(list.body.data.items).toHaveLength(1);
    const orphan = list.body.data.items[0];
    expect(orphan).toMatchObject({ slug: 'recipes', table: 'ec_recipes', rowCount: 1, missingSystemColumns: [] });
    expect(orphan.columns).toEqual([
      { name: 'title', sqlType: expect.any(String), fieldType: 'string' },
      { name: 'servings', sqlType: expect.any(String), fieldType: 'integer' },
      { name: 'steps', sqlType: expect.any(String), fieldType: 'json' },
    ]);

    const reg = await call(cms, 'POST', '/schema/orphans/recipes', {
      token: cms.adminToken,
      body: { label: 'Recipes' },
    });
    expect(reg.status, JSON.stringify(reg.body)).toBe(201);
    expect(reg.body.data.fields.map((f: { slug: string; type: string }) => [f.slug, f.type])).toEqual([
      ['title', 'string'],
      ['servings', 'integer'],
      ['steps', 'json'],
    ]);
    expect((await call(cms, 'GET', '/schema/orphans', { token: cms.adminToken })).body.data.items).toHaveLength(0);
    expect((await call(cms, 'POST', '/schema/orphans/recipes', { token: cms.adminToken })).status).toBe(409);
    expect((await call(cms, 'POST', '/schema/orphans/nothing', { token: cms.adminToken })).status).toBe(404);
  });

  it('refuses a table that lacks the system columns', async () => {
    const cms = await testCms(dialect);
    await sql`create table ec_stray (id text primary key, name text)`.execute(cms.database.db);
    const list = await call(cms, 'GET', '/schema/orphans', { token: cms.adminToken });
    expect(list.body.data.items[0].missingSystemColumns).toContain('status');
    const reg = await call(cms, 'POST', '/schema/orphans/stray', { token: cms.adminToken, body: {} });
    expect(reg.status).toBe(400);
    expect(reg.body.error.code).toBe('VALIDATION_ERROR');
    const editor = await cms.userToken(40);
    expect((await call(cms, 'GET', '/schema/orphans', { token: editor.token })).status).toBe(200);
    expect((await call(cms, 'POST', '/schema/orphans/stray', { token: editor.token, body: {} })).status).toBe(403);
  });
});
