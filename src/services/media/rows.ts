import { sql } from 'kysely';
import { isUniqueViolation } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { DialectName } from '../../db/dialect.js';
import type { MediaTable } from '../../db/tables-media.js';

/** Row access shared by the media operations. */
export async function loadItem(db: Kdb, id: string): Promise<MediaTable | undefined> {
  return db.selectFrom('_cms_media').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The row, locked until the transaction ends (PostgreSQL; SQLite writers already run one at a time). */
export async function lockItem(trx: Kdb, dialect: DialectName, id: string): Promise<MediaTable | undefined> {
  const q = trx.selectFrom('_cms_media').selectAll().where('id', '=', id);
  return (dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
}

/** The ready item that answers for these bytes, if any. */
export async function holderOf(db: Kdb, hash: string): Promise<MediaTable | undefined> {
  return db
    .selectFrom('_cms_media')
    .selectAll()
    .where('dedupe_key', '=', hash)
    .where('status', '=', 'ready')
    .executeTakeFirst();
}

/** The ready item an import copy of these bytes (`sha1:<hex>`) already landed in, if any. */
export async function importHolder(db: Kdb, importKey: string): Promise<MediaTable | undefined> {
  return db
    .selectFrom('_cms_media')
    .selectAll()
    .where('import_key', '=', importKey)
    .where('status', '=', 'ready')
    .executeTakeFirst();
}

/**
 * Let an existing item (found by its SHA-256) answer for an import's SHA-1 too,
 * unless it already has a key or another item took this one meanwhile.
 */
export async function claimImportKey(db: Kdb, row: MediaTable, importKey: string): Promise<void> {
  if (row.import_key) return;
  try {
    await db
      .updateTable('_cms_media')
      .set({ import_key: importKey })
      .where('id', '=', row.id)
      .where('import_key', 'is', null)
      .execute();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
}

/** True when some row still points at the stored object. */
export async function keyInUse(db: Kdb, key: string): Promise<boolean> {
  const row = await db.selectFrom('_cms_media').select('id').where('storage_key', '=', key).executeTakeFirst();
  return row !== undefined;
}

/**
 * After the item answering for `hash` let go of it, hand the role to another
 * ready item with the same bytes (one that shares them through a replace).
 */
export async function promoteHolder(trx: Kdb, hash: string | null): Promise<void> {
  if (!hash) return;
  const taken = await trx.selectFrom('_cms_media').select('id').where('dedupe_key', '=', hash).executeTakeFirst();
  if (taken) return;
  const next = await trx
    .selectFrom('_cms_media')
    .select('id')
    .where('content_hash', '=', hash)
    .where('status', '=', 'ready')
    .orderBy('id')
    .executeTakeFirst();
  if (next) await trx.updateTable('_cms_media').set({ dedupe_key: hash }).where('id', '=', next.id).execute();
}

/** Case- and form-insensitive key of a name (folder names, filename filter). */
export function nameKey(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}

/** `%` and `_` are literal in a LIKE pattern built from user input. */
export function likeContains(text: string) {
  const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`);
  return sql<boolean>`name_key like ${`%${escaped}%`} escape '\\'`;
}
