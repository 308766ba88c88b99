import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { sessionFor } from '../../helpers/session.js';
import { importExport, postExport } from '../../helpers/wxr.js';
import { SAMPLE } from './sample-wxr.js';

describeEachDialect('WordPress import rules', (dialect) => {
  it('maps statuses, slugs, terms, comments, bylines, sections, menus and custom types', async () => {
    const cms = await testCms(dialect);
    const users = await cms.services.users.create(null, { email: 'bob@example.test', name: 'Bob', role: ROLES.AUTHOR });
    const bobId = users.user.id;
    const { analysis, result } = await importExport(cms, cms.adminToken, Buffer.from(SAMPLE), {
      authorMappings: { bob: bobId },
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const r = result.body.data;
    expect(analysis.site.title).toBe('Sample & Co');
    expect(analysis.postTypes.map((p: any) => [p.name, p.review.state])).toEqual([
      ['post', 'New collection'],
      ['page', 'New collection'],
      ['product', 'New collection'],
    ]);
    expect(analysis.customFields.map((f: any) => [f.key, f.field.type])).toEqual([['rating', 'integer']]);
    expect(analysis.excluded.map((e: any) => e.name).sort()).toEqual(
      ['customize_changeset', 'nav_menu_item', 'wp_block'].sort(),
    );

    // Every item is in one bucket; the internal changeset is skipped with its reason.
    expect(r.items).toBe(11);
    expect(r.imported + r.skipped + r.failed).toBe(11);
    expect(r.byPostType.customize_changeset.byReason).toEqual({ internal_type: 1 });
    expect(r.byCollection.posts.imported).toBe(4);
    expect(r.byCollection.product.imported).toBe(1);
    expect(r.sections).toEqual({ imported: 1, skipped: 0, failed: 0 });

    const db = cms.ctx.db as any;
    const posts = await db.selectFrom('ec_posts').selectAll().orderBy('created_at').execute();
    const bySlug = Object.fromEntries(posts.map((p: any) => [p.slug, p]));
    // Only `publish` is published; the source slug is kept (percent-decoded); a draft without one gets one from its title.
    expect(Object.keys(bySlug).sort()).toEqual(['café-news', 'draft-post', 'private', 'scheduled']);
    expect(bySlug['café-news'].status).toBe('published');
    expect(bySlug['café-news'].published_at).toBe('2020-05-06T07:08:09.000Z');
    for (const s of ['draft-post', 'private', 'scheduled']) expect(bySlug[s].status).toBe('draft');
    // A mapped author owns the entry; an unmapped one is credited as a guest byline.
    expect(bySlug['draft-post'].author_id).toBe(bobId);
    expect(bySlug['café-news'].author_id).toBe(cms.adminId);
    const get = await call(cms, 'GET', `/content/posts/${bySlug['café-news'].id}`, { token: cms.adminToken });
    expect(get.status).toBe(200);
    expect(get.body.data.item.data.title).toBe('Published post');
    expect(get.body.data.item.data.excerpt).toBe('Short');
    expect(JSON.stringify(get.body.data.item.data.body)).toContain('world');
    expect(get.body.data.item.bylines.map((b: any) => b.byline.displayName)).toEqual(['Alice A.']);

    // Categories keep their hierarchy; tags (declared or not) are assigned.
    const terms = await call(cms, 'GET', `/content/posts/${bySlug['café-news'].id}/terms/category`, {
      token: cms.adminToken,
    });
    expect(terms.body.data.items.map((t: any) => t.slug)).toEqual(['child']);
    const child = await db.selectFrom('_cms_terms').selectAll().where('slug', '=', 'child').executeTakeFirst();
    const parent = await db.selectFrom('_cms_terms').selectAll().where('slug', '=', 'parent').executeTakeFirst();
    expect(child.parent_group).toBe(parent.translation_group);
    const tags = await call(cms, 'GET', `/content/posts/${bySlug['café-news'].id}/terms/tags`, {
      token: cms.adminToken,
    });
    expect(tags.body.data.items.map((t: any) => t.slug).sort()).toEqual(['news', 'undeclared']);

    // Comments keep their threads and statuses; markup becomes text; an unsafe author URL is dropped.
    const comments = await db.selectFrom('_cms_comments').selectAll().orderBy('created_at').orderBy('id').execute();
    expect(comments.map((c: any) => c.status).sort()).toEqual(['approved', 'pending', 'spam']);
    const first = comments.find((c: any) => c.parent_id === null);
    const reply = comments.find((c: any) => c.parent_id === first.id);
    const deeper = comments.find((c: any) => c.parent_id === reply.id);
    expect(deeper.root_id).toBe(first.id);
    expect(first.body).toBe('First comment');
    expect(first.author_url).toBeNull();

    // The custom field with a matching field would be written; here the collection has none: nothing breaks.
    const section = await call(cms, 'GET', '/sections/callout', { token: cms.adminToken });
    expect(section.status).toBe(200);

    // The menu points at the imported page, a URL under it, and the imported category.
    const menu = await call(cms, 'GET', '/menus/main', { token: cms.adminToken });
    expect(menu.status, JSON.stringify(menu.body)).toBe(200);
    const items = menu.body.data.items;
    expect(items.map((i: any) => i.kind)).toEqual(['content', 'url', 'term']);
    expect(items[1]).toMatchObject({ url: 'https://docs.example.test/', parentId: items[0].id });
    expect(items[2].parentId).toBeNull();
  });

  it('refuses an incompatible mapping and never changes an existing field type', async () => {
    const cms = await testCms(dialect);
    await cms.services.schema.collections.create((await cms.services.tokens.authenticate(cms.adminToken))!, {
      slug: 'posts',
      label: 'Posts',
      fields: [{ slug: 'body', label: 'Body', type: 'text' }],
    });
    const analyzed = await postExport(cms, '/import/blogplatform/analyze', cms.adminToken, Buffer.from(SAMPLE));
    const post = analyzed.body.data.postTypes.find((p: any) => p.name === 'post');
    expect(post.review.state).toBe('Incompatible');
    expect(post.review.reason).toContain('"body" is text');
    const prepared = await call(cms, 'POST', '/import/blogplatform/prepare', {
      token: cms.adminToken,
      body: { postTypes: [{ name: 'post', collection: 'posts', fields: post.fields }] },
    });
    expect(prepared.body.data.success).toBe(false);
    expect(prepared.body.data.errors[0].code).toBe('INCOMPATIBLE');
    const fields = await call(cms, 'GET', '/schema/collections/posts/fields', { token: cms.adminToken });
    expect(fields.body.data.items.map((f: any) => [f.slug, f.type])).toEqual([['body', 'text']]);
    const run = await postExport(cms, '/import/blogplatform/execute', cms.adminToken, Buffer.from(SAMPLE), {
      config: JSON.stringify({ postTypeMappings: { post: 'posts' } }),
    });
    expect(run.status).toBe(400);
    expect(run.body.error.details.issues[0].path).toEqual(['postTypeMappings', 'post']);
  });

  it('answers a truncated or malformed export with a 400 and imports nothing', async () => {
    const cms = await testCms(dialect);
    const fields = [{ slug: 'title', label: 'Title', type: 'string' }];
    const prepared = await call(cms, 'POST', '/import/blogplatform/prepare', {
      token: cms.adminToken,
      body: { postTypes: ['posts', 'pages'].map((c) => ({ name: c, collection: c, fields })) },
    });
    expect(prepared.body.data.collectionsCreated).toEqual(['posts', 'pages']);
    const cut = Buffer.from(SAMPLE.slice(0, Math.floor(SAMPLE.length * 0.8)));
    const bad = Buffer.from(SAMPLE.replace('</wp:post_name>', '</wp:post_nam>'));
    for (const file of [cut, bad, Buffer.from('not xml at all'), Buffer.from('<html><body>x</body></html>')]) {
      for (const path of ['/import/blogplatform/analyze', '/import/blogplatform/execute']) {
        const res = await postExport(cms, path, cms.adminToken, file, path.endsWith('execute') ? { config: '{}' } : {});
        expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.error.details.issues[0].code).toBe('invalid_export');
      }
    }
    const db = cms.ctx.db as any;
    for (const table of ['ec_posts', 'ec_pages', '_cms_comments', '_cms_terms', '_cms_menus', '_cms_sections']) {
      const n = await db
        .selectFrom(table)
        .select((eb: any) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      expect(Number(n.n), table).toBe(0);
    }
  });

  it('streams progress records then the result with ?stream=1; a refusal stays a normal error', async () => {
    const cms = await testCms(dialect);
    const bad = await postExport(cms, '/import/blogplatform/execute?stream=1', cms.adminToken, Buffer.from('<rss>'), {
      config: '{}',
    });
    expect(bad.status).toBe(400);
    const fields = [{ slug: 'title', label: 'Title', type: 'string' }];
    await call(cms, 'POST', '/import/blogplatform/prepare', {
      token: cms.adminToken,
      body: { postTypes: [{ name: 'post', collection: 'posts', fields }] },
    });
    const form = new FormData();
    form.append('config', '{}');
    form.append('file', new Blob([SAMPLE]), 'export.xml');
    const res = await cms.app.request('/_cms/api/import/blogplatform/execute?stream=1', {
      method: 'POST',
      headers: { authorization: `Bearer ${cms.adminToken}` },
      body: form,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const records = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records[0]).toMatchObject({ type: 'progress', stage: 'import', done: 0, total: 11 });
    expect(records.map((r) => r.stage ?? r.type).slice(-3)).toEqual(['menus', 'done', 'result']);
    const result = records[records.length - 1];
    expect(result.byCollection.posts.imported).toBe(4);
    expect(result.imported + result.skipped + result.failed).toBe(11);
  });

  it('needs an Admin; a session must send X-CMS-Request', async () => {
    const cms = await testCms(dialect);
    const editor = await cms.userToken(ROLES.EDITOR);
    const res = await postExport(cms, '/import/blogplatform/analyze', editor.token, Buffer.from(SAMPLE));
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    const browser = await sessionFor(cms, cms.adminId);
    const body = { postTypes: [{ name: 'post', collection: 'posts', fields: [] }] };
    const refused = await browser.call('POST', '/import/blogplatform/prepare', { body, csrf: false });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('CSRF_REJECTED');
    const ok = await browser.call('POST', '/import/blogplatform/prepare', { body });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.collectionsCreated).toEqual(['posts']);
  });
});
