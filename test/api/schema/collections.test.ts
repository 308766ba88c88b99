import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { listEntryTables, tableColumns } from '../../../src/services/schema/ddl.js';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';

describeEachDialect('schema API: collections', (dialect) => {
  it('creates a collection with defaults and a real table', async () => {
    const cms = await testCms(dialect);
    const res = await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      body: { slug: 'posts', label: 'Posts' },
    });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({
      slug: 'posts',
      label: 'Posts',
      labelSingular: 'Posts',
      supports: ['drafts', 'revisions', 'editLock'],
      fields: [],
    });
    expect(await listEntryTables(cms.database.db as never, cms.database.dialect)).toContain('ec_posts');
    const cols = (await tableColumns(cms.database.db as never, cms.database.dialect, 'ec_posts')).map((c) => c.name);
    expect(cols).toEqual(
      expect.arrayContaining(['id', 'slug', 'status', 'locale', 'translation_group', 'version', 'draft_revision_id']),
    );
  });

  it('creates fields given with the collection, in one transaction', async () => {
    const cms = await testCms(dialect);
    const res = await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      body: {
        slug: 'articles',
        label: 'Articles',
        labelSingular: 'Article',
        supports: ['drafts', 'search', 'seo'],
        fields: [
          { slug: 'title', label: 'Title', type: 'string', required: true },
          { slug: 'body', label: 'Body', type: 'portableText' },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.fields.map((f: { slug: string }) => f.slug)).toEqual(['title', 'body']);
    expect(res.body.data.supports).toEqual(['drafts', 'search', 'seo']);

    // A bad field rolls the whole create back: no collection row, no table.
    const bad = await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      body: {
        slug: 'broken',
        label: 'Broken',
        fields: [
          { slug: 'ok', label: 'Ok', type: 'string' },
          { slug: 'n', label: 'N', type: 'number', validation: { min: 5, max: 1 } },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect((await call(cms, 'GET', '/schema/collections/broken', { token: cms.adminToken })).status).toBe(404);
    expect(await listEntryTables(cms.database.db as never, cms.database.dialect)).not.toContain('ec_broken');
  });

  it('rejects bad slugs, unknown supports and duplicates with stable codes', async () => {
    const cms = await testCms(dialect);
    for (const slug of ['Posts', '1posts', 'po-sts', 'x'.repeat(61), '']) {
      const res = await call(cms, 'POST', '/schema/collections', { token: cms.adminToken, body: { slug, label: 'X' } });
      expect(res.status, slug).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const unknownSupport = await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      body: { slug: 'a', label: 'A', supports: ['webhooks'] },
    });
    expect(unknownSupport.status).toBe(400);
    expect(unknownSupport.body.error.details.issues[0].path).toEqual(['supports', 0]);
    await call(cms, 'POST', '/schema/collections', { token: cms.adminToken, body: { slug: 'a', label: 'A' } });
    const dup = await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      body: { slug: 'a', label: 'A' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('ALREADY_EXISTS');
  });

  it('lists in sidebar order, updates, reorders', async () => {
    const cms = await testCms(dialect);
    for (const slug of ['pages', 'posts', 'events']) {
      await call(cms, 'POST', '/schema/collections', { token: cms.adminToken, body: { slug, label: slug } });
    }
    let list = await call(cms, 'GET', '/schema/collections', { token: cms.adminToken });
    expect(list.body.data.items.map((c: { slug: string }) => c.slug)).toEqual(['pages', 'posts', 'events']);
    expect(list.body.data.items[0].fieldCount).toBe(0);

    const reordered = await call(cms, 'POST', '/schema/collections/reorder', {
      token: cms.adminToken,
      body: { slugs: ['events', 'pages'] },
    });
    expect(reordered.status).toBe(200);
    expect(reordered.body.data.items.map((c: { slug: string }) => c.slug)).toEqual(['events', 'pages', 'posts']);
    const unknown = await call(cms, 'POST', '/schema/collections/reorder', {
      token: cms.adminToken,
      body: { slugs: ['nope'] },
    });
    expect(unknown.status).toBe(400);

    const upd = await call(cms, 'PUT', '/schema/collections/posts', {
      token: cms.adminToken,
      body: { label: 'Blog posts', labelSingular: 'Blog post', supports: ['drafts'] },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.data).toMatchObject({ label: 'Blog posts', labelSingular: 'Blog post', supports: ['drafts'] });
    list = await call(cms, 'GET', '/schema/collections', { token: cms.adminToken });
    expect(list.body.data.items.map((c: { slug: string }) => c.slug)).toEqual(['events', 'pages', 'posts']);
    const strict = await call(cms, 'PUT', '/schema/collections/posts', { token: cms.adminToken, body: { slug: 'x' } });
    expect(strict.status).toBe(400);
  });

  it('deletes a collection with its table and values, for good', async () => {
    const cms = await testCms(dialect);
    await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      body: { slug: 'notes', label: 'Notes', fields: [{ slug: 'text', label: 'Text', type: 'text' }] },
    });
    await sql`insert into ec_notes (id, status, locale, translation_group, created_at, updated_at, version, text)
      values ('n1', 'draft', 'en', 'g1', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 1, 'hello')`.execute(
      cms.database.db,
    );
    const del = await call(cms, 'DELETE', '/schema/collections/notes', { token: cms.adminToken });
    expect(del.status).toBe(200);
    expect(del.body.data).toEqual({ deleted: true, slug: 'notes' });
    expect(await listEntryTables(cms.database.db as never, cms.database.dialect)).not.toContain('ec_notes');
    expect((await call(cms, 'GET', '/schema/collections/notes', { token: cms.adminToken })).status).toBe(404);
    const fields = await cms.database.db.selectFrom('_cms_fields').selectAll().execute();
    expect(fields).toHaveLength(0);
    expect((await call(cms, 'DELETE', '/schema/collections/notes', { token: cms.adminToken })).status).toBe(404);
  });

  it('lets Editors read and only Admins write; anonymous gets 401', async () => {
    const cms = await testCms(dialect);
    await call(cms, 'POST', '/schema/collections', { token: cms.adminToken, body: { slug: 'posts', label: 'Posts' } });
    const editor = await cms.userToken(ROLES.EDITOR);
    const author = await cms.userToken(ROLES.AUTHOR);

    expect((await call(cms, 'GET', '/schema/collections', { token: editor.token })).status).toBe(200);
    expect((await call(cms, 'GET', '/schema/collections/posts', { token: editor.token })).status).toBe(200);
    const write = await call(cms, 'POST', '/schema/collections', {
      token: editor.token,
      body: { slug: 'x', label: 'X' },
    });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    const authorRead = await call(cms, 'GET', '/schema/collections', { token: author.token });
    expect(authorRead.status).toBe(403);
    const anon = await call(cms, 'GET', '/schema/collections');
    expect(anon.status).toBe(401);
    expect(anon.body.error.code).toBe('UNAUTHORIZED');
  });

  it('limits an Admin token to its scopes', async () => {
    const cms = await testCms(dialect);
    const { token } = await cms.services.tokens.create(null, {
      userId: cms.adminId,
      name: 'read-only',
      scopes: ['schema:read'],
    });
    expect((await call(cms, 'GET', '/schema/collections', { token })).status).toBe(200);
    const write = await call(cms, 'POST', '/schema/collections', { token, body: { slug: 'x', label: 'X' } });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('INSUFFICIENT_SCOPE');
    const content = await cms.services.tokens.create(null, {
      userId: cms.adminId,
      name: 'content',
      scopes: ['content:read'],
    });
    expect((await call(cms, 'GET', '/schema/collections', { token: content.token })).status).toBe(403);
  });
});
