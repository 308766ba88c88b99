import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { newId } from '../src/core/ids.js';
import { connect, type Database } from '../src/db/connect.js';
import { listen } from '../src/http/server.js';
import { createCms, resolveConfig } from '../src/index.js';
import { startBaseline } from './baseline.js';
import type { BenchRequest, Scenario } from './scenarios.js';
import { type SeedContext, seedService } from './seed.js';

export type DbKind = 'sqlite' | 'postgres';

export interface TargetInfo {
  serviceUrl: string;
  baselineUrl: string;
  token: string;
  db: DbKind;
  /** The scenarios' requests after their setup ran. */
  requests: BenchRequest[];
}

export interface Target extends TargetInfo {
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

/**
 * Boot what is measured: the real service (createCms + listen on an ephemeral loopback port) on
 * a temporary data dir, seeded through its service layer, and the bare baseline holding the same
 * rows. Everything is removed again by close(), also when start-up fails half way.
 */
export async function startTarget(db: DbKind, scenarios: Scenario[]): Promise<Target> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-bench-'));
  const cleanups: Array<() => Promise<void>> = [async () => rmSync(dataDir, { recursive: true, force: true })];
  const close = async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn().catch((err) => console.error('cleanup:', err));
  };
  try {
    let database: Database | undefined;
    let databaseUrl = `sqlite:${join(dataDir, 'cms.db')}`;
    if (db === 'postgres') {
      const schema = `bench_${newId().toLowerCase()}`;
      await pgAdmin(`create schema ${schema}`);
      cleanups.push(() => pgAdmin(`drop schema if exists ${schema} cascade`));
      databaseUrl = PG_URL;
      database = connect(PG_URL, { schema });
    }
    const config = resolveConfig({ dataDir, databaseUrl, logLevel: 'warn', port: 0 });
    const cms = await createCms({ config, database });
    cleanups.push(() => cms.close());
    const server = await listen(cms, 0, '127.0.0.1');
    cleanups.push(() => server.stop());

    const { token, actor, readerToken } = await seedService(cms);
    const baseline = await startBaseline(join(dataDir, 'baseline.db'), [token, readerToken]);
    cleanups.push(() => baseline.close());
    await baseline.mirror(cms.database.db, ['_cms_collections', '_cms_fields']);

    const ctx: SeedContext = {
      cms,
      actor,
      reader: { authorization: `Bearer ${readerToken}` },
      mirror: (tables) => baseline.mirror(cms.database.db, tables),
    };
    const requests: BenchRequest[] = [];
    for (const { setup, ...request } of scenarios) {
      requests.push({ ...request, ...(setup ? await setup(ctx) : undefined) });
    }
    return { serviceUrl: server.url, baselineUrl: baseline.url, token, db, requests, close };
  } catch (err) {
    await close();
    throw err;
  }
}
