import { describe, expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mediaCms, png, uploaded } from '../../helpers/media.js';
import { fetchBytes, ndjson, runExport, sha256, untar } from '../../helpers/transfer.js';

describeEachDialect('site export', (dialect) => {
  it('packages records and media, lists every file with its digest, and serves files and the archive', async () => {
    const cms = await mediaCms(dialect);
    await postsCollection(cms, {
      fields: [{ slug: 'tags', label: 'Tags', type: 'multiSelect', options: { choices: ['a', 'b'] } }],
    });
    const image = await uploaded(cms, await png(12, 8));
    const one = await createEntry(cms, { data: { title: 'First', views: 3, tags: ['a'] } });
    await publish(cms, one.item.id);
    await createEntry(cms, { data: { title: 'Draft only', body: 'Not yet' } });
    const op = await runExport(cms, cms.adminToken);

    expect(op.totals.records.entries).toBe(2);
    expect(op.totals.records.users).toBe(1);
    expect(op.totals.records.media).toBe(1);
    expect(op.totals.media).toEqual({ count: 1, bytes: image.size });
    expect(op.packageDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(op.progress.done).toBe(op.progress.total);

    const manifestRes = await fetchBytes(cms, `/admin/transfer/exports/${op.id}/manifest`, cms.adminToken);
    expect(manifestRes.status).toBe(200);
    expect(`sha256:${sha256(manifestRes.bytes)}`).toBe(op.packageDigest);
    const manifest = JSON.parse(manifestRes.bytes.toString('utf8'));
    expect(manifest.format).toBe('cms-site-package');
    const paths = manifest.files.map((f: any) => f.path);
    expect(paths).toContain('records/entries/posts/00001.ndjson');
    expect(paths).toContain(`media/${image.id}.png`);
    // Entries come after the media they may point at, and before revisions.
    expect(paths.indexOf('records/media/00001.ndjson')).toBeLessThan(
      paths.indexOf('records/entries/posts/00001.ndjson'),
    );

    const entriesFile = manifest.files.find((f: any) => f.path === 'records/entries/posts/00001.ndjson');
    const file = await fetchBytes(
      cms,
      `/admin/transfer/exports/${op.id}/files/${encodeURIComponent(entriesFile.path)}`,
      cms.adminToken,
    );
    expect(file.status).toBe(200);
    expect(sha256(file.bytes)).toBe(entriesFile.sha256);
    const rows = ndjson(file.bytes);
    expect(rows.map((r) => r.title).sort()).toEqual(['Draft only', 'First']);
    // JSON values are JSON on both databases.
    expect(rows.find((r) => r.title === 'First')?.tags).toEqual(['a']);

    const archive = await fetchBytes(cms, `/admin/transfer/exports/${op.id}/archive`, cms.adminToken);
    expect(archive.status).toBe(200);
    expect(Number(archive.headers.get('content-length'))).toBe(archive.bytes.length);
    const entries = await untar(archive.bytes);
    expect(entries[0].name).toBe('manifest.json');
    expect(sha256(entries[0].data)).toBe(op.packageDigest.slice(7));
    expect(entries.slice(1).map((e) => e.name)).toEqual(paths);
    for (const [i, e] of entries.slice(1).entries()) expect(sha256(e.data)).toBe(manifest.files[i].sha256);
  });

  it('leaves comments out on request and never exports credentials', async () => {
    const cms = await mediaCms(dialect);
    const op = await runExport(cms, cms.adminToken, { comments: false });
    const manifest = JSON.parse(
      (await fetchBytes(cms, `/admin/transfer/exports/${op.id}/manifest`, cms.adminToken)).bytes.toString('utf8'),
    );
    expect(manifest.options).toEqual({ comments: false });
    const kinds = new Set(manifest.files.map((f: any) => f.kind));
    expect(kinds.has('comments')).toBe(false);
    const users = manifest.files.find((f: any) => f.kind === 'users');
    const rows = ndjson(
      (
        await fetchBytes(
          cms,
          `/admin/transfer/exports/${op.id}/files/${encodeURIComponent(users.path)}`,
          cms.adminToken,
        )
      ).bytes,
    );
    expect(Object.keys(rows[0]).sort()).toEqual([
      'created_at',
      'disabled',
      'email',
      'id',
      'name',
      'role',
      'updated_at',
    ]);
  });

  it('is for administrators with the export scope only', async () => {
    const cms = await mediaCms(dialect);
    const editor = await cms.userToken(ROLES.EDITOR);
    expect((await call(cms, 'POST', '/admin/transfer/exports', { token: editor.token, body: {} })).status).toBe(403);
    const narrow = await cms.userToken(ROLES.ADMIN, ['content:read']);
    const refused = await call(cms, 'POST', '/admin/transfer/exports', { token: narrow.token, body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_SCOPE');
    const scoped = await cms.userToken(ROLES.ADMIN, ['transfer:export']);
    const op = await runExport(cms, scoped.token);
    // Another administrator's token with the scope sees it too; an unknown ID is a 404.
    expect((await call(cms, 'GET', `/admin/transfer/exports/${op.id}`, { token: cms.adminToken })).status).toBe(200);
    expect(
      (await call(cms, 'GET', '/admin/transfer/exports/01JZZZZZZZZZZZZZZZZZZZZZZZ', { token: cms.adminToken })).status,
    ).toBe(404);
    const analyzeOnly = await cms.userToken(ROLES.ADMIN, ['transfer:analyze']);
    expect((await call(cms, 'GET', `/admin/transfer/exports/${op.id}`, { token: analyzeOnly.token })).status).toBe(403);
    expect((await call(cms, 'GET', '/admin/transfer/capabilities', { token: analyzeOnly.token })).status).toBe(200);
  });
});

describe('site export file paths', () => {
  it('refuses a path the manifest does not list', async () => {
    const cms = await mediaCms('sqlite');
    const op = await runExport(cms, cms.adminToken);
    for (const bad of ['..%2F..%2Fetc%2Fpasswd', 'records%2Fusers%2F00009.ndjson', 'manifest.json']) {
      const res = await fetchBytes(cms, `/admin/transfer/exports/${op.id}/files/${bad}`, cms.adminToken);
      expect(res.status).toBe(404);
    }
  });
});
