import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newId } from '../src/core/ids.js';
import { connect, type Database } from '../src/db/connect.js';
import { listen } from '../src/http/server.js';
import { createCms, resolveConfig } from '../src/index.js';
import { serveBaseline } from './baseline-app.js';
import { pgStore } from './baseline-pg.js';
import { sqliteStore } from './baseline-sqlite.js';
import { BENCH_PG_URL, pgAdmin } from './pg-admin.js';
import type { BenchRequest, Caller, Scenario } from './scenarios.js';
import { type SeedContext, seedService } from './seed.js';

export type DbKind = 'sqlite' | 'postgres';

/** Where the service keeps its data: the baseline copies its tables from there. */
export type DataSource = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; schema: string };

export interface ServiceInfo {
  url: string;
  tokens: Record<Caller, string>;
  /** The Author's user ID (the baseline writes entries as that user, as the service does). */
  authorId: string;
  source: DataSource;
  /** The scenarios' requests after their setup ran. */
  requests: BenchRequest[];
}

export interface Running {
  close(): Promise<void>;
}

export const PG_URL = BENCH_PG_URL;

/** Cleanups run in reverse order, also when start-up fails half way. */
function cleanupList() {
  const list: Array<() => Promise<void>> = [];
  return {
    add: (fn: () => Promise<void>) => list.push(fn),
    run: async () => {
      for (const fn of list.splice(0).reverse()) await fn().catch((err) => console.error('cleanup:', err));
    },
  };
}

/** Seeded data, ready for a service to serve: everything of ServiceInfo but its URL. */
export interface PreparedService extends Omit<ServiceInfo, 'url'> {
  dataDir: string;
}

function openCms(p: { dataDir: string; source: DataSource }) {
  const database: Database | undefined =
    p.source.kind === 'postgres' ? connect(p.source.url, { schema: p.source.schema }) : undefined;
  const databaseUrl = p.source.kind === 'sqlite' ? `sqlite:${p.source.file}` : p.source.url;
  const config = resolveConfig({ dataDir: p.dataDir, databaseUrl, logLevel: 'warn', port: 0 });
  return createCms({ config, database });
}

/** Remove what prepareService made (the data dir; the PostgreSQL schema). */
export async function discardService(p: { dataDir: string; source: DataSource }): Promise<void> {
  if (p.source.kind === 'postgres') await pgAdmin(`drop schema if exists ${p.source.schema} cascade`);
  rmSync(p.dataDir, { recursive: true, force: true });
}

/**
 * Make what is measured: a temporary data dir (and a fresh PostgreSQL schema), migrated and seeded
 * through the service layer, then each scenario's setup; the service is closed again. In a
 * child-process run this happens in a process of its own, so the serving process starts on existing
 * data as a production server does, and the memory it reports after the load is that of serving,
 * not of having written the seed.
 */
export async function prepareService(
  db: DbKind,
  scenarios: Scenario[],
  settings: { rounds: number },
): Promise<PreparedService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-bench-'));
  const source: DataSource =
    db === 'postgres'
      ? { kind: 'postgres', url: PG_URL, schema: `bench_${newId().toLowerCase()}` }
      : { kind: 'sqlite', file: join(dataDir, 'cms.db') };
  const where = { dataDir, source };
  try {
    if (source.kind === 'postgres') await pgAdmin(`create schema ${source.schema}`);
    const cms = await openCms(where);
    try {
      const seeded = await seedService(cms);
      const ctx: SeedContext = { cms, actor: seeded.actor, author: seeded.author, publishedIds: seeded.publishedIds };
      const requests: BenchRequest[] = [];
      for (const { setup, ...request } of scenarios) {
        requests.push({ ...request, ...(setup ? await setup(ctx, settings) : undefined) });
      }
      return { dataDir, source, tokens: seeded.tokens, authorId: seeded.author.userId as string, requests };
    } finally {
      await cms.close();
    }
  } catch (err) {
    await discardService(where);
    throw err;
  }
}

/** Serve prepared data: the real service (createCms + listen on an ephemeral loopback port); close() also discards the data. */
export async function serveService(p: PreparedService): Promise<ServiceInfo & Running> {
  const cleanups = cleanupList();
  cleanups.add(() => discardService(p));
  try {
    const cms = await openCms(p);
    cleanups.add(() => cms.close());
    const server = await listen(cms, 0, '127.0.0.1');
    cleanups.add(() => server.stop());
    const { dataDir: _, ...info } = p;
    return { ...info, url: server.url, close: cleanups.run };
  } catch (err) {
    await cleanups.run();
    throw err;
  }
}

/** Prepare and serve in this process (in-process runs). */
export async function startService(
  db: DbKind,
  scenarios: Scenario[],
  settings: { rounds: number },
): Promise<ServiceInfo & Running> {
  return serveService(await prepareService(db, scenarios, settings));
}

/** The bare baseline over a copy of the service's tables (its own SQLite file, or its own PostgreSQL schema). */
export async function startBaseline(info: ServiceInfo): Promise<{ url: string } & Running> {
  const cleanups = cleanupList();
  try {
    let store: Awaited<ReturnType<typeof pgStore>>;
    if (info.source.kind === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'cms-baseline-'));
      cleanups.add(async () => rmSync(dir, { recursive: true, force: true }));
      store = sqliteStore(join(dir, 'baseline.db'), info.source.file);
    } else {
      const schema = `bench_base_${newId().toLowerCase()}`;
      cleanups.add(() => pgAdmin(`drop schema if exists ${schema} cascade`));
      store = await pgStore(info.source.url, schema, info.source.schema);
    }
    const server = await serveBaseline(store, Object.values(info.tokens), info.authorId);
    cleanups.add(() => server.close());
    return { url: server.url, close: cleanups.run };
  } catch (err) {
    await cleanups.run();
    throw err;
  }
}
