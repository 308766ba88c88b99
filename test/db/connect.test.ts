import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type ConnectOptions, connect, type Database } from '../../src/db/connect.js';

/** SQLite only: PostgreSQL's caching is the server's. */
describe('SQLite connection', () => {
  let database: Database | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await database?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    database = dir = undefined;
  });

  /** The connection's page cache as SQLite reports it (negative: KiB). */
  const cacheSize = async (options?: ConnectOptions) => {
    dir = mkdtempSync(join(tmpdir(), 'cms-connect-'));
    database = connect(`sqlite:${join(dir, 'cms.db')}`, options);
    return (await sql<{ cache_size: number }>`pragma cache_size`.execute(database.db)).rows[0].cache_size;
  };

  it("caches SQLite's default 2 MiB of pages, not the 16 MiB the driver is built with", async () => {
    expect(await cacheSize()).toBe(-2048);
  });

  it('caches the configured size, in whole KiB', async () => {
    expect(await cacheSize({ sqliteCacheSize: 8 * 1024 * 1024 + 1 })).toBe(-8193);
  });
});
