import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from '../../src/db/connect.js';
import { migrate, pendingMigrations } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import { listSnapshots, snapshotBeforeMigrate } from '../../src/db/snapshot.js';
import { runIn } from '../helpers/cli.js';

const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cms-upgrade-'));
  dirs.push(dir);
  return dir;
}

describe('upgrading an existing SQLite database', () => {
  it('snapshots the database at its old level before applying pending migrations, and lists them in a dry run', async () => {
    const dir = tempDir();
    const file = join(dir, 'cms.db');
    const older = migrations.slice(0, -2);
    const db = connect(`sqlite:${file}`);
    await migrate(db, { migrations: older, snapshots: 3 });
    // A fresh database gets no snapshot: there was nothing to lose.
    expect(listSnapshots(file)).toEqual([]);
    expect(await pendingMigrations(db)).toEqual(migrations.slice(-2).map((m) => m.name));
    await db.close();

    const dry = await runIn(dir, ['migrate', '--dry-run'], {
      CMS_DATA_DIR: dir,
      CMS_DATABASE_URL: `sqlite:${file}`,
      CMS_LOG_LEVEL: 'silent',
    });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout.trim().split('\n')).toEqual(migrations.slice(-2).map((m) => m.name));
    expect(listSnapshots(file)).toEqual([]);

    const again = connect(`sqlite:${file}`);
    const applied = await migrate(again, { snapshots: 3 });
    expect(applied).toEqual(migrations.slice(-2).map((m) => m.name));
    expect(await pendingMigrations(again)).toEqual([]);
    await again.close();
    const snaps = listSnapshots(file);
    expect(snaps).toHaveLength(1);
    expect(snaps[0]).toContain(older.at(-1)!.name);
    const snap = connect(`sqlite:${snaps[0]}`);
    const { rows } = await sql<{ n: number }>`select count(*) as n from _cms_migrations`.execute(snap.db);
    expect(rows[0]!.n).toBe(older.length);
    await snap.close();
  });

  it('keeps only the newest snapshots, and none with 0', async () => {
    const dir = tempDir();
    const file = join(dir, 'cms.db');
    const db = connect(`sqlite:${file}`);
    await migrate(db, { migrations: migrations.slice(0, 1) });
    for (let i = 0; i < 5; i++) {
      await snapshotBeforeMigrate(db, migrations[0]!.name, 3, new Date(Date.UTC(2026, 0, 1 + i)));
    }
    const kept = listSnapshots(file);
    expect(kept).toHaveLength(3);
    expect(kept[0]).toContain('2026-01-03');
    expect(kept[2]).toContain('2026-01-05');
    expect(await snapshotBeforeMigrate(db, migrations[0]!.name, 0)).toBeNull();
    expect(listSnapshots(file)).toHaveLength(3);
    await db.close();
  });
});
