/**
 * The consistency checker through REST and MCP: a healthy site reports ok; revision pointers,
 * orphaned rows and term counts broken behind the service's back are each found with their
 * code, repaired from the content, and the next run is ok; Administrators only; a repair is a
 * write the site import's hold refuses.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mcpClient, serve } from '../../helpers/mcp.js';
import { ok, taxonomy, term } from '../structure/helpers.js';

const MINE = 'revisions,orphans,term-counts';

async function site(dialect: 'sqlite' | 'postgres') {
  const cms = await testCms(dialect);
  const posts = await postsCollection(cms);
  await taxonomy(cms, { name: 'tags', label: 'Tags', collections: ['posts'] });
  await term(cms, 'tags', { label: 'News' });
  const a = (await createEntry(cms, { data: { title: 'Heron' } })).item;
  const b = (await createEntry(cms, { data: { title: 'Egret' } })).item;
  for (const e of [a, b]) {
    await ok(cms, 'POST', `/content/posts/${e.id}/terms/tags`, { terms: ['news'] });
    await publish(cms, e.id);
  }
  // A draft over the live version: the entry now has both pointers.
  await ok(cms, 'PUT', `/content/posts/${a.id}`, { data: { title: 'Grey heron' } });
  return { cms, posts, a, b };
}

const codes = (report: any) =>
  report.checks.flatMap((c: any) => c.findings.map((f: any) => `${c.id}:${f.code}:${f.subject}`)).sort();

const newsCount = async (cms: TestCms) => (await ok(cms, 'GET', '/taxonomies/tags/terms/news')).count;

describeEachDialect('consistency checker', (dialect) => {
  it('finds broken pointers, orphaned rows and wrong counts, repairs them from the content, then reports ok', async () => {
    const { cms, posts, a } = await site(dialect);
    const clean = await ok(cms, 'GET', `/admin/check?checks=${MINE}`);
    expect(clean.status, JSON.stringify(clean)).toBe('ok');
    expect(clean.checks.map((c: any) => [c.id, c.status])).toEqual([
      ['revisions', 'ok'],
      ['orphans', 'ok'],
      ['term-counts', 'ok'],
    ]);
    expect(await newsCount(cms)).toBe(2);

    const db = cms.ctx.db;
    await sql`update ec_posts set draft_revision_id = ${'01GONEGONEGONEGONEGONEGONE'} where id = ${a.id}`.execute(db);
    await sql`insert into _cms_revisions (id, collection_id, entry_id, slug, data, refs, bylines, kind, created_by, created_at)
      values (${'01ORPHANREVISION0000000000'}, ${posts.id}, ${'01NOSUCHENTRY0000000000000'}, null, '{}', null, null, 'save', null, ${new Date().toISOString()})`.execute(
      db,
    );
    await sql`delete from _cms_term_counts`.execute(db);
    expect(await newsCount(cms)).toBe(0);

    const broken = await ok(cms, 'GET', `/admin/check?checks=${MINE}`);
    expect(broken.status).toBe('problems');
    expect(broken.repair).toBe(false);
    expect(codes(broken)).toEqual(
      expect.arrayContaining([
        `revisions:DANGLING_DRAFT_REVISION:${a.id}`,
        'orphans:ORPHANED_ROWS:01NOSUCHENTRY0000000000000',
        expect.stringMatching(/^term-counts:TERM_COUNT_WRONG:/),
      ]),
    );
    expect(codes(broken)).toHaveLength(3);
    const wrong = broken.checks[2].findings[0];
    expect(wrong).toMatchObject({ collection: 'posts', repairable: true, repaired: false });
    expect(wrong.message).toMatch(/is 0; the content implies 2/);
    // Checking changed nothing.
    expect(await newsCount(cms)).toBe(0);

    const repaired = await ok(cms, 'POST', '/admin/check/repair', { checks: MINE.split(',') });
    expect(repaired.status, JSON.stringify(repaired)).toBe('repaired');
    expect(repaired.checks.every((c: any) => c.problems === c.repaired)).toBe(true);
    expect(await newsCount(cms)).toBe(2);
    const after = await ok(cms, 'GET', `/admin/check?checks=${MINE}`);
    expect(after.status, JSON.stringify(after)).toBe('ok');
    // The entry shows its live version, and a new draft writes a new pointer.
    const read = await ok(cms, 'GET', `/content/posts/${a.id}`);
    expect(read.item.data.title).toBe('Heron');
    await ok(cms, 'PUT', `/content/posts/${a.id}`, { data: { title: 'Great egret' } });
    expect((await ok(cms, 'GET', `/admin/check?checks=${MINE}`)).status).toBe('ok');
  });

  it('rebuilds a drifted counted record, not only the counts, and removes rows of a deleted collection', async () => {
    const { cms, b } = await site(dialect);
    const db = cms.ctx.db;
    // The record says b is not counted while the count still says 2: the next unpublish would drift.
    await sql`delete from _cms_term_counted where entry_id = ${b.id}`.execute(db);
    await sql`insert into _cms_seo (collection, entry_id, title, description, canonical, noindex, updated_at)
      values ('gone', '01NOSUCHENTRY0000000000000', 't', null, null, 0, ${new Date().toISOString()})`.execute(db);
    const broken = await ok(cms, 'GET', `/admin/check?checks=${MINE}`);
    expect(codes(broken)).toContain(`term-counts:TERM_COUNTED_WRONG:${broken.checks[2].findings[0].subject}`);
    expect(codes(broken)).toContain('orphans:ORPHANED_ROWS:gone');
    expect(broken.checks[2].problems).toBe(1);
    await ok(cms, 'POST', '/admin/check/repair', {});
    await ok(cms, 'POST', `/content/posts/${b.id}/unpublish`, {});
    expect(await newsCount(cms)).toBe(1);
    expect((await ok(cms, 'GET', `/admin/check?checks=${MINE}`)).status).toBe('ok');
  });

  it('answers only Administrators with the admin scope, and refuses a repair while an import holds the site', async () => {
    const { cms } = await site(dialect);
    const editor = await cms.userToken(ROLES.EDITOR);
    expect((await call(cms, 'GET', '/admin/check', { token: editor.token })).status).toBe(403);
    expect((await call(cms, 'GET', '/admin/check', {})).status).toBe(401);
    const scoped = await cms.userToken(ROLES.ADMIN, ['content:read']);
    expect((await call(cms, 'GET', '/admin/check', { token: scoped.token })).status).toBe(403);
    const unknown = await call(cms, 'GET', '/admin/check?checks=revisions,nope', { token: cms.adminToken });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('VALIDATION_ERROR');
    const badBody = await call(cms, 'POST', '/admin/check/repair', {
      token: cms.adminToken,
      body: { checks: ['nope'] },
    });
    expect(badBody.status).toBe(400);

    await cms.ctx.db
      .insertInto('_cms_meta')
      .values({ key: 'transfer_import', value: '01IMPORT000000000000000000' })
      .execute();
    await cms.ctx.bus.publish('transfer');
    const held = await call(cms, 'POST', '/admin/check/repair', { token: cms.adminToken, body: {} });
    expect(held.status).toBe(503);
    expect(held.body.error.code).toBe('TRANSFER_IMPORT_IN_PROGRESS');
    // Checking reads only: it stays open.
    expect((await call(cms, 'GET', `/admin/check?checks=${MINE}`, { token: cms.adminToken })).status).toBe(200);
  });

  it('is the same through MCP: check_site reads, repair_site repairs', async () => {
    const { cms } = await site(dialect);
    await sql`delete from _cms_term_counts`.execute(cms.ctx.db);
    const mcp = await mcpClient(await serve(cms), cms.adminToken);
    try {
      const found = await mcp.call('check_site', { checks: ['term-counts'] });
      expect(found.structuredContent.status).toBe('problems');
      expect(found.structuredContent.checks[0].findings[0].code).toBe('TERM_COUNT_WRONG');
      const fixed = await mcp.call('repair_site', { checks: ['term-counts'] });
      expect(fixed.structuredContent.status).toBe('repaired');
      expect((await mcp.call('check_site', { checks: ['term-counts'] })).structuredContent.status).toBe('ok');
      const bad = await mcp.call('check_site', { checks: ['nope'] });
      expect(bad.isError).toBe(true);
      const editor = await cms.userToken(ROLES.EDITOR);
      const other = await mcpClient(await serve(cms), editor.token);
      expect((await other.call('check_site', {})).isError).toBe(true);
      await other.close();
    } finally {
      await mcp.close();
    }
  });
});
