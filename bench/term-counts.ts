/**
 * Term counts and the term filter at 100,000 entries (not part of `npm run bench`):
 *
 *   npx tsx bench/term-counts.ts                 # SQLite (temporary file, WAL)
 *   BENCH_DB=postgres npx tsx bench/term-counts.ts
 *   BENCH_ENTRIES=20000 npx tsx bench/term-counts.ts
 *
 * Seeds published entries straight into the entry table (a bench, not an import), assigns three
 * of 50 tags to each and lets the taxonomy domain's own recount build the maintained counts.
 * Then it checks the counts against a scan and times, through the REST app: the term list (50
 * terms with counts), the same counts computed by scanning the assignments and entries, the
 * content list filtered by a common and by a rare term, and publishing an entry with terms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import pg from 'pg';
import { ROLES } from '../src/auth/roles.js';
import { newId } from '../src/core/ids.js';
import { createLogger } from '../src/core/log.js';
import { connect } from '../src/db/connect.js';
import type { ContentTermsTable } from '../src/db/tables-structure.js';
import { createCms, resolveConfig } from '../src/index.js';
import type { EntryRow } from '../src/services/content/model.js';
import { dyn, newEntryRow } from '../src/services/content/rows.js';
import { recountEntries } from '../src/services/taxonomies/counts.js';
import { BENCH_PG_URL } from './pg-admin.js';

const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 100_000);
const DB = process.env.BENCH_DB === 'postgres' ? 'postgres' : 'sqlite';
const PG_URL = BENCH_PG_URL;
const TAGS = 50;
const RUNS = 100;

const dir = mkdtempSync(join(tmpdir(), 'cms-bench-terms-'));
const schema = `bench_${newId().toLowerCase()}`;
if (DB === 'postgres') {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`create schema ${schema}`);
  await c.end();
}
const database =
  DB === 'postgres' ? connect(PG_URL, { schema, poolSize: 4 }) : connect(`sqlite:${join(dir, 'cms.db')}`);
const cms = await createCms({
  config: resolveConfig({ dataDir: dir, logLevel: 'silent' }),
  database,
  logger: createLogger('silent'),
  scheduler: false,
});

async function api(method: string, path: string, token: string, body?: unknown) {
  const res = await cms.app.request(`/_cms/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { data: any };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function time(label: string, fn: () => Promise<unknown>, runs = RUNS) {
  for (let i = 0; i < 5; i++) await fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  const pick = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))].toFixed(2);
  console.log(`${label.padEnd(52)} p50 ${pick(0.5).padStart(8)} ms   p95 ${pick(0.95).padStart(8)} ms`);
}

try {
  const { user } = await cms.services.users.create(null, { email: 'bench@example.test', role: ROLES.ADMIN });
  const { token } = await cms.services.tokens.create(null, { userId: user.id, name: 'bench' });
  await api('POST', '/schema/collections', token, {
    slug: 'posts',
    label: 'Posts',
    fields: [{ slug: 'title', label: 'Title', type: 'string', indexed: true }],
  });
  await api('POST', '/taxonomies', token, { name: 'tags', label: 'Tags', collections: ['posts'] });
  const terms: Array<{ translationGroup: string; slug: string }> = [];
  for (let i = 0; i < TAGS; i++) terms.push(await api('POST', '/taxonomies/tags/terms', token, { label: `Tag ${i}` }));
  const rare = await api('POST', '/taxonomies/tags/terms', token, { label: 'Rare' });

  const c = (await cms.services.schema.snapshot()).collections.get('posts');
  if (!c) throw new Error('no posts collection');
  const titleColumn = c.fields[0].column as string;
  const db = database.db;
  const started = performance.now();
  let assignments = 0;
  const now = new Date().toISOString();
  for (let offset = 0; offset < ENTRIES; offset += 1000) {
    const n = Math.min(1000, ENTRIES - offset);
    const rows: EntryRow[] = [];
    const links: ContentTermsTable[] = [];
    for (let i = 0; i < n; i++) {
      const k = offset + i;
      const row = newEntryRow({
        id: newId(),
        slug: `post-${k}`,
        locale: 'en',
        group: newId(),
        authorId: user.id,
        now,
        published: true,
      });
      rows.push({ ...row, [titleColumn]: `Post ${k}` });
      const picked = new Set([k % TAGS, (k * 7 + 3) % TAGS, (k * 13 + 5) % TAGS]);
      [...picked].forEach((t, position) => {
        links.push({
          collection_id: c.id,
          entry_group: row.translation_group,
          term_group: terms[t].translationGroup,
          taxonomy: 'tags',
          position,
          created_at: now,
        });
      });
      if (k % 10_000 === 0) {
        links.push({
          collection_id: c.id,
          entry_group: row.translation_group,
          term_group: rare.translationGroup,
          taxonomy: 'tags',
          position: 9,
          created_at: now,
        });
      }
    }
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 200)
        await dyn(trx)
          .insertInto(c.table)
          .values(rows.slice(i, i + 200))
          .execute();
      for (let i = 0; i < links.length; i += 300)
        await trx
          .insertInto('_cms_content_terms')
          .values(links.slice(i, i + 300))
          .execute();
      assignments += links.length;
      await recountEntries(
        trx,
        c,
        rows.map((r) => r.id),
      );
    });
  }
  // Planner statistics as a running site has them: autovacuum's analyze on PostgreSQL; on SQLite
  // the `PRAGMA optimize` the connection runs at start-up and hourly (src/db/connect.ts).
  if (DB === 'postgres') await sql`analyze`.execute(db);
  else {
    await sql`pragma analysis_limit = 400`.execute(db);
    await sql`pragma optimize = 0x10002`.execute(db);
  }
  console.log(
    `${DB}: seeded ${ENTRIES} published entries with ${assignments} assignments and built their counts in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const list = await api('GET', '/taxonomies/tags/terms?limit=50', token);
  // What a count without the maintained table costs: every assignment joined to its entries.
  const scan = async () =>
    (
      await sql<{ term_group: string; n: number | string }>`select ct.term_group, count(*) as n
        from _cms_content_terms ct join ${sql.table(c.table)} p on p.translation_group = ct.entry_group
        where ct.collection_id = ${c.id} and p.status = 'published' and p.deleted_at is null and p.locale = 'en'
        group by ct.term_group`.execute(db)
    ).rows;
  const scanned = new Map((await scan()).map((r) => [r.term_group, Number(r.n)]));
  const wrong = list.items.filter(
    (t: { translationGroup: string; count: number }) => (scanned.get(t.translationGroup) ?? 0) !== t.count,
  );
  if (wrong.length) throw new Error(`maintained counts differ from a scan for ${wrong.length} terms`);
  console.log(
    `counts checked against a scan: ${list.items.length} terms equal (e.g. ${list.items[0].slug}: ${list.items[0].count})`,
  );

  await time('GET /taxonomies/tags/terms?limit=50 (maintained)', () =>
    api('GET', '/taxonomies/tags/terms?limit=50', token),
  );
  await time('same counts by scanning assignments + entries', scan, 10);
  await time(`GET /content/posts?term=tags:${terms[1].slug} (common)`, () =>
    api('GET', `/content/posts?term=tags:${terms[1].slug}&limit=50`, token),
  );
  await time('GET /content/posts?term=tags:rare (10 entries)', () =>
    api('GET', '/content/posts?term=tags:rare&limit=50', token),
  );
  await time('GET /content/posts (no filter)', () => api('GET', '/content/posts?limit=50', token));
  const tagged = (await api('POST', '/content/posts', token, { data: { title: 'Tagged' } })).item.id;
  await api('POST', `/content/posts/${tagged}/terms/tags`, token, {
    terms: [terms[0].slug, terms[1].slug, terms[2].slug],
  });
  const plain = (await api('POST', '/content/posts', token, { data: { title: 'Plain' } })).item.id;
  await time(
    'publish + unpublish an entry with 3 terms',
    async () => {
      await api('POST', `/content/posts/${tagged}/publish`, token, {});
      await api('POST', `/content/posts/${tagged}/unpublish`, token, {});
    },
    40,
  );
  await time(
    'publish + unpublish an entry without terms',
    async () => {
      await api('POST', `/content/posts/${plain}/publish`, token, {});
      await api('POST', `/content/posts/${plain}/unpublish`, token, {});
    },
    40,
  );
} finally {
  await cms.close();
  rmSync(dir, { recursive: true, force: true });
  if (DB === 'postgres') {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`drop schema if exists ${schema} cascade`);
    await c.end();
  }
}
