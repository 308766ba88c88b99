/**
 * Crash-recovery harness: the real server (src/main.ts, the process `npm start` runs) as a child
 * process on a data directory and database of the test's own, killed with SIGKILL at a moment a
 * seed picks, then started again on the same data. The test process opens the same database
 * (without background workers) to read rows and run the consistency checker.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { systemActor } from '../../src/auth/actor.js';
import { resolveConfig } from '../../src/core/config.js';
import { newId } from '../../src/core/ids.js';
import { createLogger } from '../../src/core/log.js';
import { connect } from '../../src/db/connect.js';
import type { DialectName } from '../../src/db/dialect.js';
import { type Cms, createCms } from '../../src/index.js';
import type { CheckReport } from '../../src/services/check/index.js';
import { PG_URL } from '../helpers/db.js';
import { pgUrlWithSchema, ROOT } from '../helpers/process.js';

export { rng, versionOfRev } from '../helpers/seeded.js';

import { waitFor } from '../helpers/wait.js';

/**
 * Seeds each scenario runs: `CRASH_SEEDS=N` runs 1..N (default `defaultCount`, 3 unless a scenario's
 * seeds are slow); `CRASH_SEED=S` runs only S (to replay a failure).
 */
export function crashSeeds(defaultCount = 3): number[] {
  if (process.env.CRASH_SEED) return [Number(process.env.CRASH_SEED)];
  const n = Number(process.env.CRASH_SEEDS ?? defaultCount);
  return Array.from({ length: Math.max(1, n) }, (_, i) => i + 1);
}

/** The data one server works on: a data directory and a database (a SQLite file in it, or a PostgreSQL schema). */
export interface Site {
  dialect: DialectName;
  dataDir: string;
  /** What the server is started with (database URL, data directory, configuration). */
  env: Record<string, string>;
  /** Bearer token of an Administrator, made before the first start. */
  adminToken: string;
  adminId: string;
  /** The same database opened in the test process, without scheduler or workers; closed with the site. */
  open(): Promise<Cms>;
  /** Close what the test process opened, drop the schema, remove the data directory. */
  drop(): Promise<void>;
}

export async function freshSite(dialect: DialectName, extraEnv: Record<string, string> = {}): Promise<Site> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-crash-'));
  let schema: string | undefined;
  let databaseUrl = `sqlite:${join(dataDir, 'cms.db')}`;
  if (dialect === 'postgres') {
    schema = `crash_${newId().toLowerCase()}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    databaseUrl = pgUrlWithSchema(PG_URL, schema);
  }
  const env = {
    CMS_DATA_DIR: dataDir,
    CMS_DATABASE_URL: databaseUrl,
    CMS_LOG_LEVEL: 'warn',
    CMS_MIGRATION_SNAPSHOTS: '0',
    ...extraEnv,
  };
  let opened: Cms | null = null;
  const open = async () => {
    if (opened) return opened;
    const config = resolveConfig({ dataDir, databaseUrl, logLevel: 'silent', migrationSnapshots: 0 });
    const database = dialect === 'postgres' ? connect(PG_URL, { schema, poolSize: 4 }) : undefined;
    opened = await createCms({ config, database, scheduler: false, logger: createLogger('silent') });
    return opened;
  };
  // The first open migrates the database and makes the Administrator the clients write as.
  const cms = await open();
  const { user } = await cms.services.users.create(null, { email: 'admin@example.test', name: 'Admin' });
  const { token } = await cms.services.tokens.create(null, { userId: user.id, name: 'crash' });
  return {
    dialect,
    dataDir,
    env,
    adminToken: token,
    adminId: user.id,
    open,
    async drop() {
      await opened?.close();
      opened = null;
      if (schema) {
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        await c.query(`drop schema if exists ${schema} cascade`);
        await c.end();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Server {
  url: string;
  child: ChildProcess;
  /** Resolves when the process has ended (code, or the signal that ended it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

const START_TIMEOUT_MS = 60_000;
/** tsx's loader by its file URL: the server runs in the site's data directory, outside the project. */
const TSX_LOADER = pathToFileURL(resolve(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/**
 * Start the server on the site, on a free port, and wait until /_cms/health/ready answers 200
 * (migrations applied, database reachable). Node runs src/main.ts itself with tsx as its loader,
 * not the tsx command, which would run the server in a grandchild that a SIGKILL never reaches.
 */
export async function startServer(site: Site): Promise<Server> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, resolve(ROOT, 'src/main.ts')], {
    cwd: site.dataDir,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...site.env },
  });
  let out = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  );
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`server did not start:\n${out}`)), START_TIMEOUT_MS);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        done(m[1]);
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      fail(new Error(`server exited (${code ?? signal}) before listening:\n${out}`));
    });
  });
  await waitFor(
    async () => {
      const res = await fetch(`${url}/_cms/health/ready`);
      return res.status === 200;
    },
    { what: `${url}/_cms/health/ready to answer 200`, timeoutMs: START_TIMEOUT_MS },
  );
  return { url, child, exited, output: () => out };
}

/** kill -9: no shutdown handler runs, in-flight requests and transactions are cut where they are. */
export async function kill9(server: Server): Promise<void> {
  server.child.kill('SIGKILL');
  const { signal } = await server.exited;
  if (signal !== 'SIGKILL') throw new Error(`server ended by ${signal} before the kill:\n${server.output()}`);
}

/** Stop with SIGTERM (the clean shutdown) and wait for the process to end. */
export async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  await server.exited;
}

export interface Answer {
  status: number;
  body: any;
}

/** One REST call as a client makes it; a connection cut by the kill rejects. */
export async function api(
  server: Server,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<Answer> {
  const res = await fetch(`${server.url}/_cms/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = { raw: text };
  }
  return { status: res.status, body: parsed };
}

/** Every check of the consistency checker on the site's database, as an Administrator would run `cms check`. */
export async function checkReport(site: Site): Promise<CheckReport> {
  const cms = await site.open();
  return cms.services.check.run(systemActor);
}

/** The findings of a report that is not ok, one per line, for the failure message. */
export function findings(report: CheckReport): string {
  return report.checks
    .flatMap((c) => c.findings.map((f) => `${c.id}: ${f.code} ${f.collection ?? ''} ${f.subject ?? ''}: ${f.message}`))
    .join('\n');
}
