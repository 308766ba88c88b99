/**
 * Crash recovery of a site transfer import: a source site (a few hundred entries in three
 * collections, one searchable with drafts and revisions, a taxonomy with terms, a few images) is
 * exported in the test process; the real server, on an empty site of its own, is sent the package
 * over REST (create, upload, analyze, execute, then `advance` as a client drives it) and is killed
 * with SIGKILL at a moment the seed picks, checked to land while the import is executing.
 *
 * What docs/transfer.md promises after such a crash: every file is written in one transaction with
 * the import's position, so the import is still `executing` at its last committed file and the site
 * still held (every other write 503 TRANSFER_IMPORT_IN_PROGRESS; `abandon` is only for failed or
 * cancelled imports). The step the kill cut left its lease (a minute); once it has run out the
 * background worker resumes the import by itself — no request needed — and completes it: the hold
 * is lifted and the target holds exactly the source's entries, terms, assignments and media (bytes
 * included), and the consistency checker reports ok.
 *
 * The lease's minute is not waited out: while the restarted server refuses to step the import, the
 * test moves the lease's expiry into the past, as the minute passing would (`CRASH_TRANSFER_REAL_LEASE=1`
 * waits for the real expiry instead).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemActor } from '../../src/auth/actor.js';
import type { Cms } from '../../src/index.js';
import { call } from '../helpers/cms.js';
import { describeEachDialect } from '../helpers/db.js';
import { png, uploaded } from '../helpers/media.js';
import { fetchBytes, runExport, sha256, untar } from '../helpers/transfer.js';
import { waitFor } from '../helpers/wait.js';
import {
  type Answer,
  api,
  checkReport,
  crashSeeds,
  findings,
  freshSite,
  kill9,
  rng,
  type Server,
  type Site,
  startServer,
  stopServer,
} from './harness.js';

const ENTRIES = Number(process.env.CRASH_TRANSFER_ENTRIES ?? 450);
const IMAGES = 4;
const REAL_LEASE = process.env.CRASH_TRANSFER_REAL_LEASE === '1';
/** Search rebuild steps the target takes: one entry each, so the derived phase takes many steps too. */
const TARGET_ENV = { CMS_SEARCH_REBUILD_BATCH: '1' };

const COLLECTIONS = ['articles', 'notes', 'pages'] as const;

/** What the import must reproduce, read from a site's database: rows as stored, in ID order. */
async function contentOf(cms: Cms) {
  const db = cms.ctx.db;
  const rows = async (table: string) =>
    (await sql<Record<string, unknown>>`select * from ${sql.table(table)} order by id`.execute(db)).rows;
  const entries: Record<string, Record<string, unknown>[]> = {};
  const snap = await cms.services.schema.snapshot();
  for (const slug of COLLECTIONS) entries[slug] = await rows(snap.collections.get(slug)!.table);
  const media = (await rows('_cms_media')).map((m) => ({
    id: m.id,
    status: m.status,
    filename: m.filename,
    mime_type: m.mime_type,
    size: m.size,
    width: m.width,
    height: m.height,
    alt: m.alt,
    content_hash: m.content_hash,
    created_at: m.created_at,
  }));
  const terms = await rows('_cms_terms');
  const assignments = (
    await sql<Record<string, unknown>>`select * from _cms_content_terms order by 1, 2, 3`.execute(db)
  ).rows;
  return { entries, media, terms, assignments };
}

type Content = Awaited<ReturnType<typeof contentOf>>;

/** The source site, built and exported in the test process: the package and what it holds. */
async function sourcePackage(site: Site) {
  const cms = await site.open();
  const token = site.adminToken;
  const rest = async (method: string, path: string, body?: unknown) => {
    const res = await call(cms, method, path, { token, body });
    expect([200, 201], `${method} ${path}: ${JSON.stringify(res.body)}`).toContain(res.status);
    return res.body.data;
  };
  const images = [];
  for (let i = 0; i < IMAGES; i++) {
    images.push(await uploaded(cms, await png(16 + i * 8, 12 + i, { r: 40 * i, g: 90, b: 200 }), { token }));
  }
  await rest('POST', '/schema/collections', {
    slug: 'articles',
    label: 'Articles',
    supports: ['drafts', 'revisions', 'search'],
    fields: [
      { slug: 'title', label: 'Title', type: 'string', required: true, searchable: true, indexed: true },
      { slug: 'body', label: 'Body', type: 'text', searchable: true },
      { slug: 'rating', label: 'Rating', type: 'number' },
      { slug: 'cover', label: 'Cover', type: 'image' },
    ],
  });
  await rest('POST', '/schema/collections', {
    slug: 'notes',
    label: 'Notes',
    fields: [
      { slug: 'title', label: 'Title', type: 'string', required: true },
      { slug: 'pinned', label: 'Pinned', type: 'boolean' },
    ],
  });
  await rest('POST', '/schema/collections', {
    slug: 'pages',
    label: 'Pages',
    fields: [{ slug: 'title', label: 'Title', type: 'string', required: true }],
  });
  await rest('POST', '/taxonomies', { name: 'topics', label: 'Topics', collections: ['articles'] });
  const terms = [];
  for (let i = 0; i < 12; i++) terms.push(await rest('POST', '/taxonomies/topics/terms', { label: `Topic ${i}` }));
  const content = cms.services.content;
  for (let n = 0; n < ENTRIES; n++) {
    const slug = COLLECTIONS[n % 3];
    if (slug === 'articles') {
      const created = await content.create(systemActor, slug, {
        data: {
          title: `Article ${n}`,
          body: `About herons, number ${n}`,
          rating: n / 7,
          cover: { id: images[n % IMAGES].id },
        },
      });
      if (n % 2 === 0) await rest('POST', `/content/articles/${created.item.id}/publish`);
      if (n % 5 === 0) {
        await rest('POST', `/content/articles/${created.item.id}/terms/topics`, {
          terms: [terms[n % terms.length].id, terms[(n + 5) % terms.length].id],
        });
      }
    } else if (slug === 'notes') {
      await content.create(systemActor, slug, { data: { title: `Note ${n}`, pinned: n % 4 === 1 } });
    } else {
      await content.create(systemActor, slug, { data: { title: `Page ${n}` } });
    }
  }
  const op = await runExport(cms, token);
  const archive = await fetchBytes(cms, `/admin/transfer/exports/${op.id}/archive`, token);
  expect(archive.status).toBe(200);
  const bytes = new Map<string, string>();
  for (const image of images)
    bytes.set(image.id, sha256((await fetchBytes(cms, `/media/file/${image.id}`, token)).bytes));
  return { entries: await untar(archive.bytes), content: await contentOf(cms), mediaBytes: bytes };
}

function ok(res: Answer, what: string, status = [200, 201]) {
  expect(status, `${what}: ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
  return res.body?.data;
}

/** PUT one package file to the server, as a client streams it. */
async function putFile(server: Server, token: string, importId: string, path: string, data: Buffer) {
  const res = await fetch(
    `${server.url}/_cms/api/admin/transfer/imports/${importId}/files/${encodeURIComponent(path)}`,
    {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: data,
    },
  );
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describeEachDialect('crash during a site transfer import', (dialect) => {
  let source: Site;
  let pkg: Awaited<ReturnType<typeof sourcePackage>>;
  beforeAll(async () => {
    const t0 = Date.now();
    source = await freshSite(dialect);
    pkg = await sourcePackage(source);
    console.info(
      `[crash] transfer set-up (${dialect}): ${ENTRIES} entries, ${IMAGES} images, ${pkg.entries.length} package files in ${Date.now() - t0} ms`,
    );
  }, 240_000);
  afterAll(async () => {
    await source?.drop();
  });

  it.each(crashSeeds(2))(
    'seed %i: kill -9 mid-import, restart: the worker completes the import and the target equals the source',
    async (seed) => {
      const r = rng(seed);
      const site = await freshSite(dialect, TARGET_ENV);
      let server: Server | undefined;
      try {
        server = await startServer(site);
        const token = site.adminToken;
        const created = ok(await api(server, token, 'POST', '/admin/transfer/imports'), 'create');
        const id = created.id as string;
        for (const e of pkg.entries) {
          const res = await putFile(server, token, id, e.name, e.data);
          expect(res.status, `${e.name}: ${JSON.stringify(res.body)}`).toBe(200);
        }
        let op: any;
        for (let i = 0; i < 200; i++) {
          op = ok(await api(server, token, 'POST', `/admin/transfer/imports/${id}/analyze`, {}), 'analyze');
          if (op.nextRequestInMs === null) break;
        }
        expect(op.state, JSON.stringify(op)).toBe('planned');
        const plan = ok(await api(server, token, 'GET', `/admin/transfer/imports/${id}/plan`), 'plan');
        expect(plan.blockers.items, JSON.stringify(plan.blockers)).toEqual([]);

        // The client drives the import as docs/transfer.md says (advance until nextRequestInMs is
        // null); the background worker steps it too. The seed picks the kill point: odd seeds once
        // a share of the records is written (each file commits with the import's position), even
        // seeds once the import has moved on to rebuilding what the site derives. The test process watches the
        // operation's row in the database, so the watch does not wait on the busy server.
        const cms = await site.open();
        const opRow = () =>
          cms.ctx.db.selectFrom('_cms_transfer_operations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        const inDerived = seed % 2 === 0;
        const share = r.int(5, 90) / 100;
        const killWhen = (row: { stage: string | null; progress: string }) => {
          const p = JSON.parse(row.progress) as { done: number; total: number };
          return inDerived ? row.stage === 'derived' : p.done >= share * p.total;
        };
        const aim = inDerived ? 'derived phase' : `${Math.round(share * 100)}% of the records`;
        const began = Date.now();
        const executed = ok(
          await api(server, token, 'POST', `/admin/transfer/imports/${id}/execute`, {
            packageDigest: plan.packageDigest,
            planDigest: plan.planDigest,
          }),
          'execute',
        );
        expect(executed.state).toBe('executing');
        let stop = false;
        const advances: string[] = [];
        const driver = (async () => {
          while (!stop) {
            try {
              const res = await api(server!, token, 'POST', `/admin/transfer/imports/${id}/advance`);
              if (res.status !== 200) {
                advances.push(`${res.status} ${JSON.stringify(res.body)}`);
                return;
              }
              if (res.body.data.nextRequestInMs === null) return;
              if (res.body.data.nextRequestInMs > 0) {
                await new Promise((done) => setTimeout(done, Math.min(res.body.data.nextRequestInMs, 200)));
              }
            } catch (err) {
              // The kill cut the connection; before it a failed request is a finding.
              if (!stop) advances.push((err as Error).message);
              return;
            }
          }
        })();
        for (;;) {
          const row = await opRow();
          if (row.state !== 'executing' || killWhen(row)) break;
          await new Promise((done) => setTimeout(done, 2));
        }
        stop = true;
        await kill9(server);
        await driver;
        expect(advances, `seed ${seed} (${dialect}): advance before the kill`).toEqual([]);

        // The state the crash left, read before anything runs again.
        const killedAt = Date.now() - began;
        const row = await opRow();
        const progress = JSON.parse(row.progress) as { done: number; total: number };
        const context = `seed ${seed} (${dialect}): aimed at the ${aim}, killed ${killedAt} ms after execute at stage ${row.stage} ${progress.done}/${progress.total}`;
        console.info(`[crash] transfer import: ${context}`);
        expect(row.state, `${context}: the import was not executing at the kill`).toBe('executing');

        server = await startServer(site);
        // Still executing, still holding the site: other writes wait, abandon is not for it.
        const view = ok(await api(server, token, 'GET', `/admin/transfer/imports/${id}`), 'import');
        // The cut step's lease (a minute) keeps the restarted server from stepping the import.
        if (row.lease_expires_at !== null && row.lease_expires_at > new Date().toISOString()) {
          expect(view.state, context).toBe('executing');
        }
        if (view.state === 'executing') {
          expect(view.holdsSite, context).toBe(true);
          const refused = await api(server, token, 'PUT', '/settings', { title: 'Written meanwhile' });
          expect(refused.status, `${context}: ${JSON.stringify(refused.body)}`).toBe(503);
          expect(refused.body.error.code).toBe('TRANSFER_IMPORT_IN_PROGRESS');
          expect(refused.body.error.details.importId).toBe(id);
          const abandon = await api(server, token, 'POST', `/admin/transfer/imports/${id}/abandon`);
          expect(abandon.status, `${context}: abandon ${JSON.stringify(abandon.body)}`).toBe(409);
        }
        if (!REAL_LEASE && row.lease_expires_at !== null) {
          // The minute the cut step's lease had left, passed at once.
          await cms.ctx.db
            .updateTable('_cms_transfer_operations')
            .set({ lease_expires_at: new Date(Date.now() - 1000).toISOString() })
            .where('id', '=', id)
            .where('lease_expires_at', '=', row.lease_expires_at)
            .execute();
        }
        // No request drives it now: the background worker resumes and completes it.
        const done = await waitFor(
          async () => {
            const v = ok(await api(server!, token, 'GET', `/admin/transfer/imports/${id}`), 'import');
            if (v.state === 'failed') throw new Error(`failed: ${JSON.stringify(v.error)}`);
            return v.state === 'complete' ? v : null;
          },
          { what: `${context}: the import to complete by itself`, timeoutMs: 150_000, intervalMs: 250 },
        );
        console.info(`[crash] transfer import: ${context}: complete ${Date.now() - began} ms after execute`);
        expect(done.holdsSite, context).toBe(false);
        const receipt = ok(await api(server, token, 'GET', `/admin/transfer/imports/${id}/receipt`), 'receipt');
        expect(receipt.records.media, context).toBe(IMAGES);
        const hold = await cms.ctx.db
          .selectFrom('_cms_meta')
          .select('value')
          .where('key', '=', 'transfer_import')
          .execute();
        expect(hold, context).toEqual([]);

        // Exactly the source's content: every entry once, as stored; terms and media the same.
        const target: Content = await contentOf(cms);
        for (const slug of COLLECTIONS) {
          expect(target.entries[slug].length, `${context}: ${slug}`).toBe(pkg.content.entries[slug].length);
          expect(target.entries[slug], `${context}: ${slug}`).toEqual(pkg.content.entries[slug]);
        }
        expect(target.terms, context).toEqual(pkg.content.terms);
        expect(target.assignments, context).toEqual(pkg.content.assignments);
        expect(target.media, context).toEqual(pkg.content.media);
        for (const [mediaId, digest] of pkg.mediaBytes) {
          const res = await fetch(`${server.url}/_cms/api/media/file/${mediaId}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          expect(res.status, `${context}: media ${mediaId}`).toBe(200);
          expect(sha256(Buffer.from(await res.arrayBuffer())), `${context}: media ${mediaId}`).toBe(digest);
        }

        const report = await checkReport(site);
        expect(report.status, `${context}:\n${findings(report)}`).toBe('ok');

        // The gate is lifted: the site takes writes again.
        ok(
          await api(server, token, 'PUT', '/settings', { tagline: 'Moved in' }),
          `${context}: a write after the import`,
        );
        ok(
          await api(server, token, 'POST', '/content/notes', { data: { title: 'First note here' } }),
          `${context}: an entry after the import`,
        );
      } finally {
        if (server) await stopServer(server);
        await site.drop();
      }
    },
    240_000,
  );
});
