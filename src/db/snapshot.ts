import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Database } from './connect.js';

/**
 * Snapshots taken before migrations change an existing SQLite database: a copy through SQLite's
 * online backup API next to the database file, named `<file>.pre-migrate.<time>.<last applied>.sqlite`
 * so that names sort by time. Only the newest `keep` are kept; 0 takes none and removes none.
 */
const MARK = '.pre-migrate.';

export function snapshotName(dbPath: string, lastApplied: string, at: Date): string {
  const stamp = at.toISOString().replace(/:/g, '-');
  return join(dirname(dbPath), `${basename(dbPath)}${MARK}${stamp}.${lastApplied}.sqlite`);
}

/** The snapshots of this database file, oldest first. */
export function listSnapshots(dbPath: string): string[] {
  const prefix = `${basename(dbPath)}${MARK}`;
  return readdirSync(dirname(dbPath))
    .filter((n) => n.startsWith(prefix) && n.endsWith('.sqlite'))
    .sort()
    .map((n) => join(dirname(dbPath), n));
}

export async function snapshotBeforeMigrate(
  database: Database,
  lastApplied: string,
  keep: number,
  at = new Date(),
): Promise<string | null> {
  const file = database.sqliteFile;
  if (!file || keep <= 0) return null;
  const target = snapshotName(file.path, lastApplied, at);
  // After the first step copy the rest at once: a copy in many small steps restarts whenever
  // another connection writes in between.
  await file.native.backup(target, { progress: ({ remainingPages }) => Math.max(remainingPages, 1) });
  const all = listSnapshots(file.path);
  for (const old of all.slice(0, Math.max(0, all.length - keep))) rmSync(old, { force: true });
  return target;
}
