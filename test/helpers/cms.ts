import { sql } from 'kysely';
import { afterEach, expect } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import { type ConfigInput, resolveConfig } from '../../src/core/config.js';
import { createLogger, type Logger } from '../../src/core/log.js';
import { connect } from '../../src/db/connect.js';
import type { DialectName } from '../../src/db/dialect.js';
import { type Cms, createCms } from '../../src/index.js';
import { freshDatabase, PG_URL } from './db.js';

export interface TestCms extends Cms {
  /** Bearer token of the first user (an Admin). */
  adminToken: string;
  adminId: string;
  /** Create a user of the given role with a token; returns the token. */
  userToken(role: number, scopes?: string[]): Promise<{ token: string; userId: string }>;
}

const open: Array<() => Promise<void>> = [];

afterEach(async () => {
  while (open.length) await open.pop()!();
});

let seq = 0;

/** A whole service on a fresh database, closed after the test. */
export async function testCms(
  dialect: DialectName,
  options: { config?: ConfigInput; clock?: Clock; withAdmin?: boolean; logger?: Logger } = {},
): Promise<TestCms> {
  const tdb = await freshDatabase(dialect);
  const config = resolveConfig({ dataDir: '/tmp/cms-test-data', logLevel: 'silent', ...options.config });
  const cms = await createCms({
    config,
    database: tdb.database,
    clock: options.clock,
    logger: options.logger ?? createLogger('silent'),
    scheduler: false,
  });
  open.push(async () => {
    await cms.close();
    await tdb.drop();
  });
  const out = cms as TestCms;
  out.userToken = async (role, scopes) => {
    const { user } = await cms.services.users.create(null, { email: `user${++seq}@example.test`, role });
    const { token } = await cms.services.tokens.create(null, { userId: user.id, name: 'test', scopes });
    return { token, userId: user.id };
  };
  if (options.withAdmin !== false) {
    const { user } = await cms.services.users.create(null, { email: 'admin@example.test', name: 'Admin' });
    const { token } = await cms.services.tokens.create(null, { userId: user.id, name: 'admin' });
    out.adminToken = token;
    out.adminId = user.id;
  }
  return out;
}

export interface ApiResponse<T = unknown> {
  status: number;
  body: { success: boolean; data: T; error: { code: string; message: string; details?: any } };
  headers: Headers;
}

/** Call the REST API like a client: JSON in, envelope out. */
export async function call<T = any>(
  cms: Cms,
  method: string,
  path: string,
  options: { token?: string | null; body?: unknown; headers?: Record<string, string>; raw?: string } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await cms.app.request(`/_cms/api${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = { raw: text };
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/** Call the REST API with `token` for set-up and checks: the answer must be a success (status < 300); its data. */
export async function callOk(cms: Cms, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await call(cms, method, path, { token, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body.data;
}

/**
 * A second service on the same database, as a second process would run it: on PostgreSQL with its own
 * connection pool (and its own invalidation listener); on SQLite sharing the one connection, as
 * processes share the file's write lock. Closed after the test.
 */
export async function peerCms(cms: Cms, options: { clock?: Clock } = {}): Promise<Cms> {
  let database = cms.database;
  if (cms.database.dialect === 'postgres') {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(cms.ctx.db);
    database = connect(PG_URL, { schema: rows[0].schema, poolSize: 4 });
  }
  const peer = await createCms({
    config: cms.config,
    database,
    migrate: false,
    scheduler: false,
    logger: createLogger('silent'),
    clock: options.clock,
  });
  // Before the first service's cleanup (which drops the schema): cleanups run last-in, first-out.
  open.push(async () => {
    if (database === cms.database) await peer.services.auth.close();
    else await peer.close();
  });
  return peer;
}
