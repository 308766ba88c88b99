import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { CmsConfig } from '../../core/config.js';
import type { Database } from '../../db/connect.js';

/** A refusal of backup or restore, with a stable code the CLI prints. */
export class BackupError extends Error {
  constructor(
    readonly code: 'BACKUP_UNSUPPORTED' | 'TARGET_NOT_EMPTY' | 'NOT_A_BACKUP',
    message: string,
  ) {
    super(message);
  }
}

export interface BackupManifest {
  format: 1;
  createdAt: string;
  migrationLevel: string | null;
  migrations: number;
  counts: { media: number; users: number; entries: Record<string, number>; mediaFiles: number };
}

function emptyOrMissing(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

function countFiles(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).length;
}

/** What a copy of the database holds (read from the copy, so the manifest describes the snapshot). */
function describe(file: string): Omit<BackupManifest, 'format' | 'createdAt' | 'counts'> & {
  counts: Omit<BackupManifest['counts'], 'mediaFiles'>;
} {
  const db = new SqliteDatabase(file, { readonly: true });
  try {
    const names = (db.prepare('select name from _cms_migrations order by name').all() as { name: string }[]).map(
      (r) => r.name,
    );
    const one = (q: string) => (db.prepare(q).get() as { n: number }).n;
    const entries: Record<string, number> = {};
    for (const { slug } of db.prepare('select slug from _cms_collections order by slug').all() as { slug: string }[]) {
      // Slugs are validated identifiers (^[a-z][a-z0-9_]*$) when a collection is made.
      entries[slug] = one(`select count(*) as n from "ec_${slug}"`);
    }
    return {
      migrationLevel: names.at(-1) ?? null,
      migrations: names.length,
      counts: {
        media: one('select count(*) as n from _cms_media'),
        users: one('select count(*) as n from _cms_users'),
        entries,
      },
    };
  } finally {
    db.close();
  }
}

/**
 * An online snapshot of a SQLite site: the database through SQLite's backup API (a consistent copy
 * while the server keeps writing), then the media directory. Media are copied after the database, so
 * every file a copied row names was already written.
 */
export async function backupSite(config: CmsConfig, database: Database, dir: string): Promise<BackupManifest> {
  if (!database.sqliteFile) {
    throw new BackupError(
      'BACKUP_UNSUPPORTED',
      'cms backup copies SQLite sites; on PostgreSQL use pg_dump and copy the storage bucket (docs/operations.md#backup-and-restore)',
    );
  }
  if (!emptyOrMissing(dir)) throw new BackupError('TARGET_NOT_EMPTY', `backup directory ${dir} is not empty`);
  mkdirSync(dir, { recursive: true });
  const dbCopy = join(dir, 'cms.db');
  await database.sqliteFile.native.backup(dbCopy, { progress: ({ remainingPages }) => Math.max(remainingPages, 1) });
  let mediaFiles = 0;
  if (config.storage.kind === 'file' && existsSync(config.storage.root)) {
    cpSync(config.storage.root, join(dir, 'media'), { recursive: true });
    mediaFiles = countFiles(join(dir, 'media'));
  }
  const facts = describe(dbCopy);
  const manifest: BackupManifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    ...facts,
    counts: { ...facts.counts, mediaFiles },
  };
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Restore a backup into an empty data directory (the database file and the file storage root must not exist yet). */
export function restoreSite(config: CmsConfig, dir: string): BackupManifest {
  if (!config.databaseUrl.startsWith('sqlite:')) {
    throw new BackupError(
      'BACKUP_UNSUPPORTED',
      'cms restore restores SQLite sites; on PostgreSQL use pg_restore or psql',
    );
  }
  const manifestPath = join(dir, 'manifest.json');
  if (!existsSync(manifestPath) || !existsSync(join(dir, 'cms.db'))) {
    throw new BackupError('NOT_A_BACKUP', `${dir} holds no manifest.json and cms.db of a cms backup`);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as BackupManifest;
  const dbPath = config.databaseUrl.slice('sqlite:'.length);
  if (!emptyOrMissing(config.dataDir) || existsSync(dbPath)) {
    throw new BackupError(
      'TARGET_NOT_EMPTY',
      `data directory ${config.dataDir} is not empty; restore into an empty one`,
    );
  }
  if (config.storage.kind === 'file' && !emptyOrMissing(config.storage.root)) {
    throw new BackupError('TARGET_NOT_EMPTY', `media directory ${config.storage.root} is not empty`);
  }
  mkdirSync(config.dataDir, { recursive: true });
  cpSync(join(dir, 'cms.db'), dbPath);
  if (config.storage.kind === 'file' && existsSync(join(dir, 'media'))) {
    cpSync(join(dir, 'media'), config.storage.root, { recursive: true });
  }
  return manifest;
}
