import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { type ConfigInput, resolveConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/log.js';
import { connect } from '../../src/db/connect.js';
import { listen } from '../../src/http/server.js';
import { createCms } from '../../src/index.js';
import type { TestCms } from './cms.js';
import { freshDatabase, postgresAvailable } from './db.js';
import { pgUrlWithSchema } from './process.js';

/**
 * The command line against each of its targets: the local database on
 * SQLite and on PostgreSQL (the CLI opens it from the environment, as an
 * operator's shell would), and a running server over HTTP (--url, --token).
 * Commands run in-process through runCli with their own stdout, stderr and
 * environment; `site.cms` is a service on the same database for setting up
 * and checking what the commands did.
 */
export type CliTargetKind = 'sqlite' | 'postgres' | 'http';

export function describeEachTarget(name: string, fn: (kind: CliTargetKind) => void): void {
  describe(`${name} [local sqlite]`, () => fn('sqlite'));
  describe.skipIf(!postgresAvailable)(`${name} [local postgres]`, () => fn('postgres'));
  describe(`${name} [http]`, () => fn('http'));
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout as the bytes written (binary output such as `transfer export --out -`). */
  stdoutBytes: Buffer;
  /** stdout parsed as JSON. */
  json<T = any>(): T;
}

export interface RunOptions {
  stdin?: string;
  env?: Record<string, string>;
  /** Local targets: act as this email (default the Admin); null: no --as. Remote: use this token instead. */
  as?: string | null;
  token?: string;
}

export interface CliSite {
  kind: CliTargetKind;
  cms: TestCms;
  dir: string;
  url: string | null;
  run(args: string[], options?: RunOptions): Promise<CliRun>;
  /** A user of the role with a token; locally the CLI acts as them with --as EMAIL. */
  user(role: number, scopes?: string[]): Promise<{ email: string; token: string; userId: string }>;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

let seq = 0;

/** Run the CLI in-process with a captured Io. */
export async function runIn(dir: string, args: string[], env: Record<string, string>, stdin = ''): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const chunks: Buffer[] = [];
  const code = await runCli(args, {
    stdout: {
      write: (t: string | Uint8Array) => {
        chunks.push(Buffer.from(t));
        stdout += typeof t === 'string' ? t : Buffer.from(t).toString('utf8');
      },
    },
    stderr: { write: (t: string) => (stderr += t) },
    env,
    cwd: dir,
    readStdin: async () => stdin,
  });
  return {
    code,
    stdout,
    stderr,
    stdoutBytes: Buffer.concat(chunks),
    json() {
      try {
        return JSON.parse(stdout);
      } catch {
        throw new Error(`stdout is not JSON (exit ${code}):\n${stdout}\nstderr:\n${stderr}`);
      }
    },
  };
}

export async function cliSite(
  kind: CliTargetKind,
  options: {
    config?: ConfigInput;
    fileConfig?: Record<string, unknown>;
    /** Database of the server behind an http target (default SQLite). */
    serverDialect?: 'sqlite' | 'postgres';
  } = {},
): Promise<CliSite> {
  const dir = mkdtempSync(join(tmpdir(), 'cms-cli-'));
  const env: Record<string, string> = {
    CMS_DATA_DIR: dir,
    CMS_LOG_LEVEL: 'silent',
    CMS_CREDENTIALS_FILE: join(dir, 'credentials.json'),
  };
  // File-only keys (i18n) reach the CLI through cms.config.json in its working directory.
  if (options.fileConfig) writeFileSync(join(dir, 'cms.config.json'), JSON.stringify(options.fileConfig));
  const base = { dataDir: dir, logLevel: 'silent' as const, ...options.fileConfig, ...options.config };
  let databaseUrl: string;
  let drop = async () => {};
  let database: ReturnType<typeof connect>;
  if (kind === 'postgres' || (kind === 'http' && options.serverDialect === 'postgres')) {
    const tdb = await freshDatabase('postgres');
    database = tdb.database;
    databaseUrl = pgUrlWithSchema(tdb.url, tdb.schema!);
    drop = tdb.drop;
  } else if (kind === 'sqlite') {
    databaseUrl = `sqlite:${join(dir, 'cms.db')}`;
    database = connect(databaseUrl);
  } else {
    databaseUrl = 'sqlite::memory:';
    database = connect(databaseUrl);
  }
  env.CMS_DATABASE_URL = databaseUrl;
  const cms = (await createCms({
    config: resolveConfig({ ...base, databaseUrl } as ConfigInput),
    database,
    logger: createLogger('silent'),
    scheduler: false,
  })) as TestCms;
  const { user: admin } = await cms.services.users.create(null, { email: 'admin@example.test', name: 'Admin' });
  const { token: adminToken } = await cms.services.tokens.create(null, { userId: admin.id, name: 'admin' });
  cms.adminToken = adminToken;
  cms.adminId = admin.id;
  cms.userToken = async (role, scopes) => {
    const { user } = await cms.services.users.create(null, { email: `user${++seq}@example.test`, role });
    const { token } = await cms.services.tokens.create(null, { userId: user.id, name: 'test', scopes });
    return { token, userId: user.id };
  };

  let url: string | null = null;
  let stopServer = async () => {};
  if (kind === 'http') {
    const running = await listen(cms, 0, '127.0.0.1');
    url = running.url;
    stopServer = () =>
      new Promise<void>((done) => {
        (running.server as unknown as { closeAllConnections(): void }).closeAllConnections();
        running.server.close(() => done());
      });
  }
  cleanups.push(async () => {
    await stopServer();
    await cms.close();
    await drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const emails = new Map<string, string>([[adminToken, 'admin@example.test']]);
  return {
    kind,
    cms,
    dir,
    url,
    async user(role, scopes) {
      const email = `user${++seq}@example.test`;
      const { user } = await cms.services.users.create(null, { email, role });
      const { token } = await cms.services.tokens.create(null, { userId: user.id, name: 'cli', scopes });
      emails.set(token, email);
      return { email, token, userId: user.id };
    },
    async run(args, opts = {}) {
      const prefix: string[] = [];
      if (kind === 'http') prefix.push('--url', url!, '--token', opts.token ?? adminToken);
      else if (opts.as !== null) {
        const as = opts.as ?? (opts.token ? emails.get(opts.token) : undefined) ?? 'admin@example.test';
        prefix.push('--as', as);
      }
      const done = await runIn(dir, [...prefix, ...args], { ...env, ...opts.env }, opts.stdin);
      // The CLI may have changed the schema or tokens through its own connection: forget what this process cached.
      cms.services.schema.cache.invalidate();
      cms.services.tokens.invalidate();
      return done;
    },
  };
}
