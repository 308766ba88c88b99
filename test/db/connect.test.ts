import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Database } from '../../src/db/connect.js';

/** SQLite only: PostgreSQL's caching is the server's. */
describe('SQLite connection', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  const cacheKib = async (db: Database) =>
    (await sql<{ cache_size: number }>`pragma cache_size`.execute(db.db)).rows[0].cache_size;

  it("caches SQLite's default 2 MiB of pages, not the 16 MiB the driver is built with", async () => {
    database = connect(`sqlite:${join(mkdtempSync(join(tmpdir(), 'cms-connect-')), 'cms.db')}`);
    expect(await cacheKib(database)).toBe(-2048);
  });

  it('caches the configured size, in whole KiB', async () => {
    database = connect(`sqlite:${join(mkdtempSync(join(tmpdir(), 'cms-connect-')), 'cms.db')}`, {
      sqliteCacheSize: 8 * 1024 * 1024 + 1,
    });
    expect(await cacheKib(database)).toBe(-8193);
  });
});
