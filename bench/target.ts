import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { newId } from '../src/core/ids.js';
import { connect, type Database } from '../src/db/connect.js';
import { listen } from '../src/http/server.js';
import { createCms, resolveConfig } from '../src/index.js';
import { serveBaseline } from './baseline-app.js';
import { pgStore } from './baseline-pg.js';
import { sqliteStore } from './baseline-sqlite.js';
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

export const PG_URL =
  process.env.BENCH_PG_URL ?? process.env.CMS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Run a PostgreSQL admin statement on its own short-lived connection. */
async function pgAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

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

/**
 * Boot what is measured: the real service (createCms + listen on an ephemeral loopback port) on a
 * temporary data dir or a fresh PostgreSQL schema, seeded through its service layer, then each
 * scenario's setup. Everything is removed again by close().
 */
export async function startService(
  db: DbKind,
  scenarios: Scenario[],
  settings: { rounds: number },
): Promise<ServiceInfo & Running> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-bench-'));
  const cleanups = cleanupList();
  cleanups.add(async () => rmSync(dataDir, { recursive: true, force: true }));
  try {
    let database: Database | undefined;
    let source: DataSource = { kind: 'sqlite', file: join(dataDir, 'cms.db') };
    if (db === 'postgres') {
      const schema = `bench_${newId().toLowerCase()}`;
      await pgAdmin(`create schema ${schema}`);
      cleanups.add(() => pgAdmin(`drop schema if exists ${schema} cascade`));
      source = { kind: 'postgres', url: PG_URL, schema };
      database = connect(PG_URL, { schema });
    }
    const databaseUrl = source.kind === 'sqlite' ? `sqlite:${source.file}` : PG_URL;
    const config = resolveConfig({ dataDir, databaseUrl, logLevel: 'warn', port: 0 });
    const cms = await createCms({ config, database });
    cleanups.add(() => cms.close());
    const server = await listen(cms, 0, '127.0.0.1');
    cleanups.add(() => server.stop());

    const seeded = await seedService(cms);
    const ctx: SeedContext = { cms, actor: seeded.actor, author: seeded.author, publishedIds: seeded.publishedIds };
    const requests: BenchRequest[] = [];
    for (const { setup, ...request } of scenarios) {
      requests.push({ ...request, ...(setup ? await setup(ctx, settings) : undefined) });
    }
    return {
      url: server.url,
      tokens: seeded.tokens,
      authorId: seeded.author.userId as string,
      source,
      requests,
      close: cleanups.run,
    };
  } catch (err) {
    await cleanups.run();
    throw err;
  }
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
