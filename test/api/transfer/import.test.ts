import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, type TestCms } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mcpClient, serve } from '../../helpers/mcp.js';
import { mediaCms, png, uploaded } from '../../helpers/media.js';
import {
  analyzeImport,
  executeImport,
  fetchBytes,
  putFile,
  runExport,
  sha256,
  untar,
  uploadPackage,
} from '../../helpers/transfer.js';

/** A small site's package: one collection, two entries, an image, and a second user who wrote one entry. */
async function sourcePackage(dialect: 'sqlite' | 'postgres') {
  const source = await mediaCms(dialect);
  await postsCollection(source, { supports: ['drafts', 'revisions', 'search'] });
  await uploaded(source, await png(8, 8));
  const author = await source.userToken(ROLES.AUTHOR);
  const mine = await createEntry(source, { data: { title: 'By the author' } }, author.token);
  await publish(source, mine.item.id);
  await createEntry(source, { data: { title: 'By the admin' } });
  const op = await runExport(source, source.adminToken);
  const archive = (await fetchBytes(source, `/admin/transfer/exports/${op.id}/archive`, source.adminToken)).bytes;
  return { source, authorId: author.userId, archive, entries: await untar(archive) };
}

async function newImport(cms: TestCms, token = cms.adminToken): Promise<string> {
  const res = await call(cms, 'POST', '/admin/transfer/imports', { token });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

describeEachDialect('site import', (dialect) => {
  it('checks the manifest and every file against it while they stream in', async () => {
    const { entries } = await sourcePackage(dialect);
    const target = await mediaCms(dialect);
    const id = await newImport(target);
    const [manifest, first] = entries;
    const missing0 = await call(target, 'GET', `/admin/transfer/imports/${id}/missing`, { token: target.adminToken });
    expect(missing0.body.data.items).toEqual([{ path: 'manifest.json', kind: 'manifest', size: null, sha256: null }]);
    expect((await putFile(target, target.adminToken, id, first.name, first.data)).status).toBe(409);

    const bad = async (text: string) =>
      (await putFile(target, target.adminToken, id, 'manifest.json', Buffer.from(text))).body;
    expect((await bad('not json')).error.code).toBe('VALIDATION_ERROR');
    expect((await bad('{"format":"zip"}')).error.details.issues[0].path).toEqual(['manifest', 'format']);
    const parsed = JSON.parse(manifest.data.toString('utf8'));
    expect((await bad(JSON.stringify({ ...parsed, formatVersion: 2 }))).error.details.issues[0].code).toBe(
      'unsupported_format_version',
    );
    const dup = { ...parsed, files: [...parsed.files, parsed.files[0]] };
    expect((await bad(JSON.stringify(dup))).error.message).toMatch(/listed twice/);
    const escaping = { ...parsed, files: [{ ...parsed.files[0], path: '../../etc/passwd' }] };
    expect((await bad(JSON.stringify(escaping))).error.code).toBe('VALIDATION_ERROR');

    expect((await putFile(target, target.adminToken, id, 'manifest.json', manifest.data)).status).toBe(200);
    // The same manifest again is fine; another one is not.
    expect((await putFile(target, target.adminToken, id, 'manifest.json', manifest.data)).status).toBe(200);
    expect((await bad(JSON.stringify({ ...parsed, createdAt: 'x' }))).error.code).toBe('CONFLICT');
    const missing = await call(target, 'GET', `/admin/transfer/imports/${id}/missing?limit=1`, {
      token: target.adminToken,
    });
    expect(missing.body.data.total).toBe(entries.length - 1);
    expect(missing.body.data.items).toEqual([
      expect.objectContaining({ path: first.name, sha256: sha256(first.data) }),
    ]);
    expect(missing.body.data.nextCursor).not.toBeNull();

    expect((await putFile(target, target.adminToken, id, 'records/users/00009.ndjson', first.data)).status).toBe(404);
    const short = await putFile(target, target.adminToken, id, first.name, first.data.subarray(1));
    expect(short.body.error.code).toBe('UPLOAD_SIZE_MISMATCH');
    const flipped = Buffer.from(first.data);
    flipped[0] ^= 1;
    const wrong = await putFile(target, target.adminToken, id, first.name, flipped);
    expect(wrong.body.error.details.issues[0].code).toBe('sha256_mismatch');
    expect((await putFile(target, target.adminToken, id, first.name, first.data)).status).toBe(200);
    expect((await putFile(target, target.adminToken, id, first.name, first.data)).status).toBe(200);
    const after = await call(target, 'GET', `/admin/transfer/imports/${id}`, { token: target.adminToken });
    expect(after.body.data.files).toMatchObject({ listed: entries.length, uploaded: 2, missing: entries.length - 2 });
  });

  it('plans with blockers until every file is in and while the site has content', async () => {
    const { entries } = await sourcePackage(dialect);
    const target = await mediaCms(dialect);
    await postsCollection(target);
    const id = await newImport(target);
    for (const e of entries.slice(0, 2)) await putFile(target, target.adminToken, id, e.name, e.data);
    const plan = await analyzeImport(target, target.adminToken, id);
    expect(plan.executable).toBe(false);
    expect(plan.blockers.items.map((b: any) => b.code)).toEqual(['files_missing', 'site_not_empty']);
    const refused = await call(target, 'POST', `/admin/transfer/imports/${id}/execute`, {
      token: target.adminToken,
      body: { packageDigest: plan.packageDigest, planDigest: plan.planDigest },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details.blockers).toEqual(['files_missing', 'site_not_empty']);
    // Uploading the rest makes the plan out of date: the import is back to uploading.
    for (const e of entries.slice(2)) await putFile(target, target.adminToken, id, e.name, e.data);
    const state = await call(target, 'GET', `/admin/transfer/imports/${id}`, { token: target.adminToken });
    expect(state.body.data).toMatchObject({ state: 'uploading', plan: null });
    const again = await analyzeImport(target, target.adminToken, id);
    expect(again.blockers.items.map((b: any) => b.code)).toEqual(['site_not_empty']);
  });

  it('maps or creates the package users as decided, and a changed plan needs its new digest', async () => {
    const { authorId, archive } = await sourcePackage(dialect);
    const target = await mediaCms(dialect);
    const id = await uploadPackage(target, target.adminToken, archive);
    const plan = await analyzeImport(target, target.adminToken, id);
    const author = plan.principals.items.find((p: any) => p.id === authorId);
    expect(author).toMatchObject({ role: ROLES.AUTHOR, records: 2, suggestedUserId: null, mappedUserId: null });
    expect(plan.transformations).toEqual(
      expect.arrayContaining([
        { code: 'principals_mapped', kind: 'users', count: 1 },
        { code: 'principals_created', kind: 'users', count: 1 },
      ]),
    );
    expect(JSON.stringify(plan)).not.toContain('@example.test');
    const badMap = await call(target, 'POST', `/admin/transfer/imports/${id}/analyze`, {
      token: target.adminToken,
      body: { decisions: { principals: { [authorId]: '01JNOTAUSER00000000000000' } } },
    });
    expect(badMap.body.error.details.issues[0].code).toBe('unknown_user');

    // Attribute the author's entry to the target's admin instead: a new digest; the old one is refused.
    const changed = await call(target, 'POST', `/admin/transfer/imports/${id}/analyze`, {
      token: target.adminToken,
      body: { decisions: { principals: { [authorId]: target.adminId }, title: 'target' } },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const plan2 = (await call(target, 'GET', `/admin/transfer/imports/${id}/plan`, { token: target.adminToken })).body
      .data;
    expect(plan2.planDigest).not.toBe(plan.planDigest);
    const stale = await call(target, 'POST', `/admin/transfer/imports/${id}/execute`, {
      token: target.adminToken,
      body: { packageDigest: plan.packageDigest, planDigest: plan.planDigest },
    });
    expect(stale.body.error.details.issues[0].path).toEqual(['planDigest']);
    const receipt = await executeImport(target, target.adminToken, id, plan2);
    expect(receipt.principals).toEqual({ mapped: 2, created: 0 });
    const list = await call(target, 'GET', '/content/posts?status=published', { token: target.adminToken });
    expect(list.body.data.items[0].authorId).toBe(target.adminId);
  });

  it('creates users the plan does not map, with their role and without credentials', async () => {
    const { archive, authorId } = await sourcePackage(dialect);
    const target = await mediaCms(dialect);
    const id = await uploadPackage(target, target.adminToken, archive);
    const plan = await analyzeImport(target, target.adminToken, id);
    await executeImport(target, target.adminToken, id, plan);
    const user = await call(target, 'GET', `/admin/users/${authorId}`, { token: target.adminToken });
    expect(user.status).toBe(200);
    expect(user.body.data).toMatchObject({ id: authorId, role: ROLES.AUTHOR });
    const tokens = await target.ctx.db
      .selectFrom('_cms_api_tokens')
      .selectAll()
      .where('user_id', '=', authorId)
      .execute();
    expect(tokens).toEqual([]);
  });

  it('holds the site while it runs; a failed import keeps it until abandoned, which puts the site back', async () => {
    const { archive, entries, authorId } = await sourcePackage(dialect);
    const target = await mediaCms(dialect);
    await call(target, 'PUT', '/settings', { token: target.adminToken, body: { title: 'Target title' } });
    // A package whose entry file holds one entry twice: the import writes everything before it, then fails.
    const manifest = JSON.parse(entries[0].data.toString('utf8'));
    const victim = entries.find((e) => e.name.startsWith('records/entries/'))!;
    const twice = Buffer.concat([victim.data, victim.data.subarray(0, victim.data.indexOf(10) + 1)]);
    Object.assign(
      manifest.files.find((f: any) => f.path === victim.name),
      { size: twice.length, sha256: sha256(twice), records: 3 },
    );
    const id = await newImport(target);
    await putFile(target, target.adminToken, id, 'manifest.json', Buffer.from(JSON.stringify(manifest)));
    for (const e of entries.slice(1))
      await putFile(target, target.adminToken, id, e.name, e === victim ? twice : e.data);
    const plan = await analyzeImport(target, target.adminToken, id);
    const started = await call(target, 'POST', `/admin/transfer/imports/${id}/execute`, {
      token: target.adminToken,
      body: { packageDigest: plan.packageDigest, planDigest: plan.planDigest },
    });
    expect(started.body.data).toMatchObject({ state: 'executing', holdsSite: true });

    const write = await call(target, 'PUT', '/settings', { token: target.adminToken, body: { tagline: 'x' } });
    expect(write.status).toBe(503);
    expect(write.body.error).toMatchObject({ code: 'TRANSFER_IMPORT_IN_PROGRESS', details: { importId: id } });
    expect((await call(target, 'GET', '/settings', { token: target.adminToken })).status).toBe(200);
    const mcp = await mcpClient(await serve(target), target.adminToken);
    expect((await mcp.call('settings_update', { tagline: 'x' }))._meta?.code).toBe('TRANSFER_IMPORT_IN_PROGRESS');
    expect((await mcp.call('site_import_status', { id })).isError).toBeFalsy();
    await mcp.close();
    // A second import cannot start meanwhile.
    const other = await uploadPackage(target, target.adminToken, archive);
    const otherPlan = await analyzeImport(target, target.adminToken, other);
    expect(otherPlan.blockers.items.map((b: any) => b.code)).toContain('import_in_progress');

    let op = started.body.data;
    for (let i = 0; op.state === 'executing' && i < 20; i++) {
      op = (await call(target, 'POST', `/admin/transfer/imports/${id}/advance`, { token: target.adminToken })).body
        .data;
    }
    expect(op).toMatchObject({ state: 'failed', holdsSite: true, error: { code: 'CONFLICT' } });
    // Half written and still held.
    expect((await call(target, 'GET', `/admin/users/${authorId}`, { token: target.adminToken })).status).toBe(200);
    expect((await call(target, 'PUT', '/settings', { token: target.adminToken, body: { tagline: 'x' } })).status).toBe(
      503,
    );
    expect(
      (await call(target, 'POST', `/admin/transfer/imports/${id}/cancel`, { token: target.adminToken })).status,
    ).toBe(409);

    // A row the import did not write (say, a write that passed the gate just before the hold) stays.
    const now = new Date().toISOString();
    await target.ctx.db
      .insertInto('_cms_redirects')
      .values({
        id: '01JZZZZZZZZZZZZZZZZZZZZZZZ',
        source: '/kept',
        kind: 'exact',
        target: '/elsewhere',
        status_code: 301,
        enabled: 1,
        note: null,
        hits: 0,
        last_hit_at: null,
        created_by: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    const abandoned = await call(target, 'POST', `/admin/transfer/imports/${id}/abandon`, { token: target.adminToken });
    expect(abandoned.body.data).toMatchObject({ state: 'abandoned', holdsSite: false });
    const redirects = await target.ctx.db.selectFrom('_cms_redirects').select('source').execute();
    expect(redirects).toEqual([{ source: '/kept' }]);
    await target.ctx.db.deleteFrom('_cms_redirects').execute();
    // No index or entry table is left behind.
    const tables =
      dialect === 'sqlite'
        ? await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'table' and (name like '_cms_fts%' or name like 'ec_%')`.execute(
            target.ctx.db,
          )
        : await sql<{
            name: string;
          }>`select table_name as name from information_schema.tables where table_schema = current_schema() and (table_name like '_cms_fts%' or table_name like 'ec_%')`.execute(
            target.ctx.db,
          );
    expect(tables.rows).toEqual([]);
    // Back to how it was: no collections, media or imported users; the title the site had.
    expect((await call(target, 'GET', '/schema/collections', { token: target.adminToken })).body.data.items).toEqual(
      [],
    );
    expect((await call(target, 'GET', '/media', { token: target.adminToken })).body.data.items).toEqual([]);
    expect((await call(target, 'GET', `/admin/users/${authorId}`, { token: target.adminToken })).status).toBe(404);
    expect((await call(target, 'GET', '/settings', { token: target.adminToken })).body.data.title).toBe('Target title');
    expect((await call(target, 'PUT', '/settings', { token: target.adminToken, body: { tagline: 'x' } })).status).toBe(
      200,
    );
    // Only the other import's uploads are still stored.
    const otherKeys = await target.ctx.db
      .selectFrom('_cms_transfer_files')
      .select('storage_key')
      .where('operation_id', '=', other)
      .execute();
    expect((await target.storedKeys()).sort()).toEqual(otherKeys.map((k) => k.storage_key).sort());
    // The other import can go ahead now.
    const replanned = await analyzeImport(target, target.adminToken, other);
    expect(replanned.blockers.items).toEqual([]);
    await executeImport(target, target.adminToken, other, replanned);
    expect((await call(target, 'GET', '/content/posts', { token: target.adminToken })).body.data.items).toHaveLength(2);
  });

  it('cancels an import before it writes, without a hold to lift', async () => {
    const { archive } = await sourcePackage(dialect);
    const target = await mediaCms(dialect);
    const id = await uploadPackage(target, target.adminToken, archive);
    const cancelled = await call(target, 'POST', `/admin/transfer/imports/${id}/cancel`, { token: target.adminToken });
    expect(cancelled.body.data).toMatchObject({ state: 'cancelled', holdsSite: false });
    expect((await call(target, 'PUT', '/settings', { token: target.adminToken, body: { tagline: 'x' } })).status).toBe(
      200,
    );
    const abandoned = await call(target, 'POST', `/admin/transfer/imports/${id}/abandon`, { token: target.adminToken });
    expect(abandoned.body.data.state).toBe('abandoned');
    // Its uploaded files are removed.
    expect(await target.storedKeys()).toEqual([]);
  });

  it('is for administrators, with the scope of each step', async () => {
    const { archive } = await sourcePackage(dialect);
    const target = await mediaCms(dialect);
    const editor = await target.userToken(ROLES.EDITOR);
    expect((await call(target, 'POST', '/admin/transfer/imports', { token: editor.token })).status).toBe(403);
    const analyst = await target.userToken(ROLES.ADMIN, ['transfer:analyze']);
    const id = await uploadPackage(target, analyst.token, archive);
    const plan = await analyzeImport(target, analyst.token, id);
    const refused = await call(target, 'POST', `/admin/transfer/imports/${id}/execute`, {
      token: analyst.token,
      body: { packageDigest: plan.packageDigest, planDigest: plan.planDigest },
    });
    expect(refused.body.error.code).toBe('INSUFFICIENT_SCOPE');
    const executor = await target.userToken(ROLES.ADMIN, ['transfer:execute']);
    expect((await putFile(target, executor.token, id, 'manifest.json', Buffer.from('{}'))).status).toBe(403);
    const receipt = await executeImport(target, executor.token, id, plan);
    expect(receipt.records.entries).toBe(2);
  });

  it('reports a damaged record file as a blocker, with its line and what is wrong', async () => {
    const { entries } = await sourcePackage(dialect);
    const victim = entries.find((e) => e.name.startsWith('records/entries/'))!;
    const first = JSON.parse(victim.data.toString('utf8').split('\n')[0]);
    const damages: Array<[string, RegExp]> = [
      ['{not json', /line 3: not JSON/],
      [JSON.stringify({ ...first, id: 'X1', slug: 'x1', title: 5 }), /line 3: title is not a text value/],
      [JSON.stringify({ ...first, id: 'X2', slug: 'x2', title: 'a\u0000b' }), /line 3: title must not contain NUL/],
      [JSON.stringify({ ...first, id: 'X3', slug: 'x3', version: 'one' }), /line 3: version is not an integer value/],
    ];
    for (const [line, message] of damages) {
      const target = await mediaCms(dialect);
      // Rewrite one record file (and its manifest entry) with one more, damaged line.
      const manifest = JSON.parse(entries[0].data.toString('utf8'));
      const broken = Buffer.concat([victim.data, Buffer.from(`${line}\n`)]);
      const listed = manifest.files.find((f: any) => f.path === victim.name);
      listed.size = broken.length;
      listed.sha256 = sha256(broken);
      listed.records += 1;
      const id = await newImport(target);
      await putFile(target, target.adminToken, id, 'manifest.json', Buffer.from(JSON.stringify(manifest)));
      for (const e of entries.slice(1))
        await putFile(target, target.adminToken, id, e.name, e === victim ? broken : e.data);
      const plan = await analyzeImport(target, target.adminToken, id);
      expect(
        plan.blockers.items.map((b: any) => b.code),
        line,
      ).toEqual(['invalid_record']);
      expect(plan.blockers.items[0].message, line).toMatch(message);
    }
  });
});
