/**
 * `npm run bench:search`: full-text search over a large collection on SQLite
 * and PostgreSQL, against a LIKE scan of the same rows in the same run.
 *
 * Per database: a fresh service (temporary SQLite file in WAL mode, or a
 * fresh PostgreSQL schema), `BENCH_SEARCH_ENTRIES` published entries of about
 * 1 KB (title + body, Zipf-distributed pseudo-English) loaded straight into
 * the entry table, then:
 *   - build: enabling search builds the index in steps (time to ready);
 *   - rebuild: POST /search/rebuild's work, driven to the end;
 *   - index size (GET /search/stats) next to the entry table's size;
 *   - search latency through the HTTP app (in-process, a Subscriber's token,
 *     20 results with snippets) for several kinds of queries;
 *   - suggest latency (title prefixes of 2–5 characters);
 *   - CPU per query (this process, plus on PostgreSQL the server processes of
 *     its connections, read from /proc): unlike latency, it hardly depends on
 *     what else the machine is running;
 *   - LIKE scan: the same one-word queries as a `LIKE '%word%'` (ILIKE on
 *     PostgreSQL) over title and body, newest 20 first, straight SQL;
 *   - write overhead: create + publish through the content service with the
 *     index, then the same with search disabled on the same table.
 * Not part of `npm test`. See bench/README.md.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { type Actor, systemActor } from '../src/auth/actor.js';
import { ROLES } from '../src/auth/roles.js';
import { newId } from '../src/core/ids.js';
import { createLogger } from '../src/core/log.js';
import { connect, type Database } from '../src/db/connect.js';
import { type Cms, createCms, resolveConfig } from '../src/index.js';
import { BENCH_PG_URL, pgAdmin } from './pg-admin.js';
import { type Corpus, corpus, paragraph } from './search-corpus.js';

const ENTRIES = Number(process.env.BENCH_SEARCH_ENTRIES ?? 100_000);
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 300);
const WRITES = Number(process.env.BENCH_SEARCH_WRITES ?? 200);
const DBS = (process.env.BENCH_DB ?? 'sqlite,postgres').split(',').map((s) => s.trim()) as Array<'sqlite' | 'postgres'>;
const PG_URL = BENCH_PG_URL;
/**
 * Keep the loaded and indexed database between runs (a fixed SQLite file under the temporary
 * directory, a fixed PostgreSQL schema) and reuse it when it is there: build, rebuild and write
 * measurements are skipped then (the write measurement turns search off), so only queries run.
 */
const REUSE = process.env.BENCH_SEARCH_REUSE === '1';
/** The service's `searchRankWindow` for this run (its default when unset). */
const RANK_WINDOW = process.env.BENCH_SEARCH_RANK_WINDOW;
/** The service's `searchHeadSize` and `searchHeadThreshold` for this run (their defaults when unset). */
const HEAD_SIZE = process.env.BENCH_SEARCH_HEAD_SIZE;
const HEAD_THRESHOLD = process.env.BENCH_SEARCH_HEAD_THRESHOLD;
/** Print this many slowest queries of each kind (to find what a p95 is made of). */
const SLOWEST = Number(process.env.BENCH_SEARCH_SLOWEST ?? 0);
const VOCABULARY = 20_000;
const RESULTS = fileURLToPath(new URL('./results/search-latest.json', import.meta.url));

interface Stat {
  n: number;
  /** Mean CPU time per query in ms (see cpuClock), when measured. */
  cpu?: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function stat(samples: number[]): Stat {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  const round = (x: number) => Math.round(x * 100) / 100;
  return { n: s.length, p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)), max: round(s.at(-1) ?? 0) };
}

const log = (msg: string) => process.stdout.write(`${msg}\n`);

async function open(db: 'sqlite' | 'postgres') {
  const kept = join(tmpdir(), `cms-bench-search-kept-${db}-${ENTRIES}`);
  const reused = REUSE && existsSync(join(kept, 'ready.json'));
  // A kept directory without its marker is from a run that stopped before the index was ready.
  if (REUSE && !reused) rmSync(kept, { recursive: true, force: true });
  if (REUSE) mkdirSync(kept, { recursive: true });
  const dataDir = REUSE ? kept : mkdtempSync(join(tmpdir(), 'cms-bench-search-'));
  let database: Database | undefined;
  let databaseUrl = `sqlite:${join(dataDir, 'cms.db')}`;
  let schema: string | undefined;
  if (db === 'postgres') {
    schema = REUSE ? `bench_kept_${ENTRIES}` : `bench_${newId().toLowerCase()}`;
    if (!reused) await pgAdmin(`drop schema if exists ${schema} cascade; create schema ${schema}`);
    databaseUrl = PG_URL;
    // Named after the schema, so the CPU clock finds this run's server processes.
    database = connect(`${PG_URL}${PG_URL.includes('?') ? '&' : '?'}application_name=${schema}`, { schema });
  }
  const config = resolveConfig({
    dataDir,
    databaseUrl,
    logLevel: 'silent',
    ...(RANK_WINDOW ? { searchRankWindow: Number(RANK_WINDOW) } : {}),
    ...(HEAD_SIZE ? { searchHeadSize: Number(HEAD_SIZE) } : {}),
    ...(HEAD_THRESHOLD ? { searchHeadThreshold: Number(HEAD_THRESHOLD) } : {}),
  });
  const cms = await createCms({ config, database, scheduler: false, logger: createLogger('silent') });
  return {
    cms,
    schema,
    dataDir,
    reused,
    async close() {
      await cms.close();
      if (REUSE) return;
      if (schema) await pgAdmin(`drop schema if exists ${schema} cascade`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Entries written straight into the entry table (the service would take minutes for 100,000). */
async function load(
  cms: Cms,
  text: Corpus,
  count: number,
  write = true,
): Promise<{ titles: string[]; bodies: string[] }> {
  const titles: string[] = [];
  const bodies: string[] = [];
  const start = Date.parse('2025-01-01T00:00:00.000Z');
  const batch = 500;
  for (let i = 0; i < count; i += batch) {
    const rows = [];
    for (let k = i; k < Math.min(count, i + batch); k++) {
      const at = new Date(start + k * 60_000).toISOString();
      const title = text.sentence(3, 7).slice(0, -1);
      const body = paragraph(text, 1000);
      if (titles.length < 5000) {
        titles.push(title);
        bodies.push(body);
      }
      rows.push({
        id: newId(),
        slug: `entry-${k}`,
        status: 'published',
        locale: 'en',
        translation_group: newId(),
        created_at: at,
        updated_at: at,
        published_at: at,
        version: 1,
        title,
        body,
      });
    }
    // A reused database: the same texts drawn again (the query sets depend on the generator's state).
    if (write) await (cms.database.db as any).insertInto('ec_bench').values(rows).execute();
  }
  return { titles, bodies };
}

async function timeRequest(cms: Cms, path: string, token: string): Promise<number> {
  const t = performance.now();
  const res = await cms.app.request(path, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { success: boolean };
  const ms = performance.now() - t;
  if (res.status !== 200 || !body.success) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return ms;
}

/** Clock ticks of a process (user + system), from /proc (Linux; 100 per second). */
function ticks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/**
 * CPU time spent so far in ms: this process, plus on PostgreSQL the server
 * processes of this run's connections (found by application name). 10 ms
 * resolution for the server side, so only means over many queries are useful.
 */
function cpuClock(cms: Cms, appName: string | undefined): () => Promise<number> {
  return async () => {
    const { user, system } = process.cpuUsage();
    let server = 0;
    if (appName) {
      const { rows } = await sql<{
        pid: number;
      }>`select pid from pg_stat_activity where application_name = ${appName}`.execute(cms.database.db);
      for (const r of rows) server += ticks(Number(r.pid)) * 10;
    }
    return (user + system) / 1000 + server;
  };
}

async function measure(cms: Cms, paths: string[], token: string, cpu: () => Promise<number>): Promise<Stat> {
  for (const p of paths.slice(0, 20)) await timeRequest(cms, p, token);
  const samples: number[] = [];
  const before = await cpu();
  for (const p of paths) samples.push(await timeRequest(cms, p, token));
  const used = (await cpu()) - before;
  if (SLOWEST > 0) {
    const slow = paths.map((p, i) => [samples[i], decodeURIComponent(p.split('?')[1])] as const);
    slow.sort((x, y) => y[0] - x[0]);
    for (const [ms, q] of slow.slice(0, SLOWEST)) log(`  ${ms.toFixed(2)} ms  ${q}`);
  }
  return { ...stat(samples), cpu: Math.round((used / paths.length) * 100) / 100 };
}

async function tableBytes(cms: Cms, table: string): Promise<number> {
  if (cms.database.dialect === 'postgres') {
    const { rows } = await sql<{ b: number }>`select pg_total_relation_size(${table}::regclass)::float8 as b`.execute(
      cms.database.db,
    );
    return Number(rows[0].b);
  }
  const { rows } = await sql<{ b: number }>`select sum(pgsize) as b from dbstat
    where aggregate = 1 and name in (select name from sqlite_schema where tbl_name = ${table})`.execute(
    cms.database.db,
  );
  return Number(rows[0].b);
}

async function untilReady(cms: Cms, collectionId: string) {
  for (;;) {
    await cms.services.search.advance(collectionId, 60_000);
    const st = (await cms.services.search.stats(systemActor, 'bench')).collections[0];
    if (st.state === 'ready') return st;
  }
}

async function writes(cms: Cms, actor: Actor, text: Corpus, n: number) {
  const create: number[] = [];
  const publish: number[] = [];
  for (let i = 0; i < n; i++) {
    let t = performance.now();
    const { item } = await cms.services.content.create(actor, 'bench', {
      data: { title: text.sentence(3, 7), body: paragraph(text, 1000) },
    });
    create.push(performance.now() - t);
    t = performance.now();
    await cms.services.content.publish(actor, 'bench', item.id);
    publish.push(performance.now() - t);
  }
  return { create: stat(create), publish: stat(publish) };
}

async function likeScan(cms: Cms, words: string[]): Promise<Stat> {
  const db = cms.database.db;
  const op = sql.raw(cms.database.dialect === 'postgres' ? 'ilike' : 'like');
  const run = (w: string) =>
    sql`select id, title from ec_bench where status = 'published' and deleted_at is null
      and (title ${op} ${`%${w}%`} or body ${op} ${`%${w}%`}) order by created_at desc limit 20`.execute(db);
  for (const w of words.slice(0, 3)) await run(w);
  const samples: number[] = [];
  for (const w of words) {
    const t = performance.now();
    await run(w);
    samples.push(performance.now() - t);
  }
  return stat(samples);
}

async function benchOne(db: 'sqlite' | 'postgres') {
  log(`\n== ${db}: ${ENTRIES.toLocaleString('en')} entries`);
  const target = await open(db);
  const { cms } = target;
  const cpu = cpuClock(cms, target.schema);
  try {
    const text = corpus(VOCABULARY);
    let token: string;
    let admin: Actor;
    let loadMs = 0;
    let buildMs = 0;
    let rebuildMs = 0;
    let titles: string[];
    let bodies: string[];
    const readyFile = join(target.dataDir, 'ready.json');
    if (target.reused) {
      const kept = JSON.parse(readFileSync(readyFile, 'utf8')) as { token: string; userId: string };
      token = kept.token;
      admin = { ...systemActor, kind: 'user', userId: kept.userId, name: 'Bench', via: 'token' };
      ({ titles, bodies } = await load(cms, text, ENTRIES, false));
      log('reusing the kept database');
    } else {
      const { user } = await cms.services.users.create(null, { email: 'bench@example.test', name: 'Bench' });
      admin = { ...systemActor, kind: 'user', userId: user.id, name: 'Bench', via: 'token' };
      const reader = await cms.services.users.create(null, { email: 'reader@example.test', role: ROLES.SUBSCRIBER });
      ({ token } = await cms.services.tokens.create(null, { userId: reader.user.id, name: 'reader' }));
      await cms.services.schema.collections.create(admin, {
        slug: 'bench',
        label: 'Bench',
        fields: [
          { slug: 'title', label: 'Title', type: 'string', searchable: true },
          { slug: 'body', label: 'Body', type: 'text', searchable: true },
        ],
      });
    }
    const c = (await cms.services.schema.snapshot()).collections.get('bench')!;

    if (!target.reused) {
      let t = performance.now();
      ({ titles, bodies } = await load(cms, text, ENTRIES));
      loadMs = performance.now() - t;
      log(`loaded in ${(loadMs / 1000).toFixed(1)} s`);

      t = performance.now();
      await cms.services.search.enable(admin, { collection: 'bench', weights: { title: 5, body: 1 } });
      await untilReady(cms, c.id);
      buildMs = performance.now() - t;
      log(`index built in ${(buildMs / 1000).toFixed(1)} s`);

      t = performance.now();
      await cms.services.search.rebuild(admin, 'bench');
      await untilReady(cms, c.id);
      rebuildMs = performance.now() - t;
      log(`rebuilt in ${(rebuildMs / 1000).toFixed(1)} s`);
      if (REUSE) writeFileSync(readyFile, JSON.stringify({ token, userId: admin.userId }));
    }
    // A kept database must hold an index of the current layout: delete it after a layout change.
    const stats = await untilReady(cms, c.id);
    const entryBytes = await tableBytes(cms, 'ec_bench');

    // Query sets, drawn from the vocabulary by frequency rank and from real entries.
    const rand = text.rand;
    const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
    const ranked = (lo: number, hi: number) => text.words[lo + Math.floor(rand() * (hi - lo))];
    const n = QUERIES;
    const q = (query: string) => `/_cms/api/search?${new URLSearchParams({ q: query, limit: '20' })}`;
    const word = Array.from({ length: n }, () => ranked(100, 5000));
    const sets: Record<string, string[]> = {
      'one word (rank 100–5,000)': word.map(q),
      'two words': Array.from({ length: n }, () => q(`${ranked(30, 3000)} ${ranked(30, 3000)}`)),
      'phrase from an entry': Array.from({ length: n }, () => {
        const w = pick(bodies).split(/\s+/);
        const i = Math.floor(rand() * (w.length - 3));
        return q(
          `"${w
            .slice(i, i + 2)
            .join(' ')
            .replace(/[.]/g, '')}"`,
        );
      }),
      'prefix (3–4 letters*)': Array.from({ length: n }, () =>
        q(`${ranked(50, 2000).slice(0, 3 + Math.floor(rand() * 2))}*`),
      ),
      'rare word (rank 5,000–20,000)': Array.from({ length: n }, () => q(ranked(5000, 20000))),
      'very common word (rank 1–20)': Array.from({ length: Math.min(n, 60) }, () => q(ranked(0, 20))),
    };
    const search: Record<string, Stat> = {};
    for (const [name, paths] of Object.entries(sets)) {
      search[name] = await measure(cms, paths, token, cpu);
      log(`search ${name}: p50 ${search[name].p50} ms, p95 ${search[name].p95} ms, CPU ${search[name].cpu} ms`);
    }
    const suggestPaths = Array.from({ length: n }, () => {
      const w = pick(titles).split(' ');
      const word = pick(w)
        .toLowerCase()
        .replace(/[^a-z]/g, '');
      return `/_cms/api/search/suggest?${new URLSearchParams({ q: word.slice(0, 2 + Math.floor(rand() * 4)) })}`;
    });
    const suggest = await measure(cms, suggestPaths, token, cpu);
    log(`suggest: p50 ${suggest.p50} ms, p95 ${suggest.p95} ms, CPU ${suggest.cpu} ms`);
    const like = await likeScan(cms, word.slice(0, Math.min(100, n)));
    log(`LIKE scan: p50 ${like.p50} ms, p95 ${like.p95} ms`);

    const skipped = { create: stat([]), publish: stat([]) };
    const withIndex = REUSE ? skipped : await writes(cms, admin, text, WRITES);
    if (!REUSE) await cms.services.search.enable(admin, { collection: 'bench', enabled: false });
    const without = REUSE ? skipped : await writes(cms, admin, text, WRITES);
    log(
      REUSE
        ? 'writes: skipped (kept database)'
        : `writes: create p50 ${withIndex.create.p50} ms with the index, ${without.create.p50} ms without; ` +
            `publish p50 ${withIndex.publish.p50} / ${without.publish.p50} ms`,
    );
    return {
      db,
      entries: ENTRIES,
      loadMs: Math.round(loadMs),
      buildMs: Math.round(buildMs),
      rebuildMs: Math.round(rebuildMs),
      indexBytes: stats.sizeBytes,
      documents: stats.documents,
      entryTableBytes: entryBytes,
      search,
      suggest,
      like,
      writes: { withIndex, without },
    };
  } finally {
    await target.close();
  }
}

const mb = (b: number | null) => (b === null ? 'n/a' : `${(b / 1024 / 1024).toFixed(1)} MB`);

async function main() {
  const load0 = loadavg()[0];
  const results: Array<Awaited<ReturnType<typeof benchOne>>> = [];
  for (const db of DBS) results.push(await benchOne(db));
  log('\n| | '.concat(results.map((r) => r.db).join(' | '), ' |'));
  log('|---|'.concat(results.map(() => '---|').join('')));
  const row = (label: string, f: (r: (typeof results)[number]) => string) =>
    log(`| ${label} | ${results.map(f).join(' | ')} |`);
  row('entries', (r) => r.entries.toLocaleString('en'));
  if (RANK_WINDOW) row('ranking window', () => Number(RANK_WINDOW).toLocaleString('en'));
  if (HEAD_SIZE) row('head list size', () => Number(HEAD_SIZE).toLocaleString('en'));
  if (HEAD_THRESHOLD) row('head list threshold', () => Number(HEAD_THRESHOLD).toLocaleString('en'));
  row('index build (enable)', (r) => `${(r.buildMs / 1000).toFixed(1)} s`);
  row('full rebuild', (r) => `${(r.rebuildMs / 1000).toFixed(1)} s`);
  row('index size / entry table', (r) => `${mb(r.indexBytes)} / ${mb(r.entryTableBytes)}`);
  for (const name of Object.keys(results[0].search)) {
    row(
      `search: ${name} p50 / p95 (CPU)`,
      (r) => `${r.search[name].p50} / ${r.search[name].p95} ms (${r.search[name].cpu} ms)`,
    );
  }
  row('suggest p50 / p95 (CPU)', (r) => `${r.suggest.p50} / ${r.suggest.p95} ms (${r.suggest.cpu} ms)`);
  row('LIKE scan (one word) p50 / p95', (r) => `${r.like.p50} / ${r.like.p95} ms`);
  // A kept database is searched only: its writes were measured when it was built.
  const writeRow = (label: string, f: (r: (typeof results)[number]) => string) =>
    row(label, REUSE ? () => 'skipped (kept database)' : f);
  writeRow('create p50: index / none', (r) => `${r.writes.withIndex.create.p50} / ${r.writes.without.create.p50} ms`);
  writeRow(
    'publish p50: index / none',
    (r) => `${r.writes.withIndex.publish.p50} / ${r.writes.without.publish.p50} ms`,
  );
  const load1 = loadavg()[0];
  log(`\nload average ${load0.toFixed(2)} → ${load1.toFixed(2)}`);
  mkdirSync(join(RESULTS, '..'), { recursive: true });
  // Arrays of numbers on one line, as Biome formats them (bench/report.ts does the same).
  const rankWindow = RANK_WINDOW ? Number(RANK_WINDOW) : 'default';
  const json = JSON.stringify(
    {
      at: new Date().toISOString(),
      loadavg: [load0, load1],
      rankWindow,
      headSize: HEAD_SIZE ?? 'default',
      headThreshold: HEAD_THRESHOLD ?? 'default',
      results,
    },
    null,
    2,
  ).replace(/\[\s*(-?[\d.e+-]+(?:,\s*-?[\d.e+-]+)*)\s*\]/g, (_, list: string) => `[${list.split(/,\s*/).join(', ')}]`);
  writeFileSync(RESULTS, `${json}\n`);
  log(`results: ${RESULTS}`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
