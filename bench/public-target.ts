/**
 * The service measured by bench/public-paths.ts, in its own process so the
 * load generator does not share its event loop: boots the real service on a
 * temporary database, seeds the redirect rules through the service layer, and
 * answers the parent's questions over IPC.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemActor } from '../src/auth/actor.js';
import { newId } from '../src/core/ids.js';
import { connect } from '../src/db/connect.js';
import { listen } from '../src/http/server.js';
import { createCms, resolveConfig } from '../src/index.js';
import { pgAdmin } from './pg-admin.js';
import { PG_URL } from './target.js';

export type PublicChildMessage =
  | {
      type: 'ready';
      url: string;
      rules: { exact: string[]; prefix: string[]; pattern: string[] };
      inProcess: InProcess;
    }
  | { type: 'stats'; rows: number; totalHits: number; evictedHits: number; dbBytes: number | null; limit: number };

export interface InProcess {
  /** Microseconds per handled public request, measured inside the service without HTTP. */
  hitUs: number;
  missUs: number;
  calls: number;
}

const RULES = Number(process.env.BENCH_RULES ?? 1000);
const db = process.env.BENCH_DB === 'postgres' ? 'postgres' : 'sqlite';

const dataDir = mkdtempSync(join(tmpdir(), 'cms-bench-public-'));
const schema = `bench_${newId().toLowerCase()}`;
if (db === 'postgres') await pgAdmin(`create schema ${schema}`);
const sqliteFile = join(dataDir, 'cms.db');
const database = db === 'postgres' ? connect(PG_URL, { schema, poolSize: 10 }) : connect(`sqlite:${sqliteFile}`);
const cms = await createCms({
  config: resolveConfig({
    dataDir,
    databaseUrl: `sqlite:${sqliteFile}`,
    logLevel: 'silent',
    publicUrl: 'https://site.example',
  }),
  database,
});

// 1,000 rules: 70 % exact, 20 % prefix, 10 % pattern (a migrated site's typical mix).
const rules = { exact: [] as string[], prefix: [] as string[], pattern: [] as string[] };
for (let i = 0; i < RULES; i++) {
  const kind = i % 10 < 7 ? 'exact' : i % 10 < 9 ? 'prefix' : 'pattern';
  const source =
    kind === 'exact' ? `/old/post-${i}` : kind === 'prefix' ? `/section-${i}/*` : `/archive-${i}/:year/:slug`;
  const target = kind === 'exact' ? `/posts/${i}` : kind === 'prefix' ? `/new-${i}/:splat` : `/posts/:year/:slug`;
  await cms.services.redirects.create(systemActor, { source, target });
  rules[kind].push(source);
}

// In-process cost of the lookup and of recording a miss (no HTTP, no database on the hot path).
const calls = 100_000;
let t = performance.now();
for (let i = 0; i < calls; i++) {
  await cms.services.redirects.handlePublic({ url: `https://site.example/old/post-${(i * 7) % 700}`, method: 'GET' });
}
const hitUs = ((performance.now() - t) * 1000) / calls;
t = performance.now();
for (let i = 0; i < calls; i++) {
  await cms.services.redirects.handlePublic({ url: `https://site.example/nothing/${i}`, method: 'GET' });
}
const missUs = ((performance.now() - t) * 1000) / calls;
await cms.services.redirects.notFound.clear(systemActor);

const server = await listen(cms, 0, '127.0.0.1');
process.send?.({
  type: 'ready',
  url: server.url,
  rules,
  inProcess: { hitUs, missUs, calls },
} satisfies PublicChildMessage);

process.on('message', async (msg: { type: string }) => {
  if (msg.type === 'stats') {
    await cms.services.redirects.flush();
    const summary = await cms.services.redirects.notFound.summary(systemActor, { limit: 1 });
    let dbBytes: number | null = null;
    if (db === 'sqlite') {
      const wal = `${sqliteFile}-wal`;
      dbBytes = statSync(sqliteFile).size + (statSync(wal, { throwIfNoEntry: false })?.size ?? 0);
    }
    process.send?.({
      type: 'stats',
      rows: summary.entries,
      totalHits: summary.totalHits,
      evictedHits: summary.evictedHits,
      dbBytes,
      limit: cms.config.notFoundLogLimit,
    } satisfies PublicChildMessage);
  } else if (msg.type === 'close') {
    await server.stop();
    if (db === 'postgres') await pgAdmin(`drop schema if exists ${schema} cascade`);
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});
