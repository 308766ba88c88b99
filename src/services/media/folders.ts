import type { Actor } from '../../auth/actor.js';
import { requirePermission } from '../../auth/actor.js';
import { CmsError, isUniqueViolation, notFound, validationError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { hasControlChars, isWellFormed } from '../../core/text.js';
import type { MediaFoldersTable } from '../../db/tables-media.js';
import { decodeFolderCursor, encodeCursor } from './cursor.js';
import { type MediaDeps, nowIso } from './deps.js';
import { nameKey } from './rows.js';

export const MAX_FOLDER_NAME = 200;

export interface MediaFolder {
  id: string;
  name: string;
  /** Ready items in the folder. */
  itemCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface FolderListResult {
  items: MediaFolder[];
  nextCursor?: string;
}

/** A folder name as stored: trimmed, at most 200 characters, no control characters. Throws VALIDATION_ERROR. */
export function cleanName(raw: string): string {
  const name = raw.trim();
  const issue = (message: string) =>
    validationError(`Invalid folder name: ${message}`, { issues: [{ path: ['name'], code: 'invalid', message }] });
  if (!name) throw issue('a name is required');
  if ([...name].length > MAX_FOLDER_NAME) throw issue(`at most ${MAX_FOLDER_NAME} characters`);
  if (hasControlChars(name) || !isWellFormed(name)) throw issue('control characters or broken text');
  return name;
}

/**
 * Folders of the library. Names are unique after Unicode normalisation
 * (NFKC) and lowercasing. Deleting a folder moves its items back to the Main
 * library and changes nothing else about them (IDs, URLs, timestamps).
 */
export function folderOps(deps: MediaDeps) {
  const { ctx } = deps;

  async function counts(ids: string[]): Promise<Map<string, number>> {
    if (!ids.length) return new Map();
    const rows = await ctx.db
      .selectFrom('_cms_media')
      .select(['folder_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('folder_id', 'in', ids)
      .where('status', '=', 'ready')
      .groupBy('folder_id')
      .execute();
    return new Map(rows.map((r) => [r.folder_id as string, Number(r.n)]));
  }

  const view = (row: MediaFoldersTable, n: number): MediaFolder => ({
    id: row.id,
    name: row.name,
    itemCount: n,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });

  async function load(id: string): Promise<MediaFoldersTable> {
    const row = await ctx.db.selectFrom('_cms_media_folders').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Folder');
    return row;
  }

  const duplicate = (name: string) =>
    new CmsError('ALREADY_EXISTS', `A folder named "${name}" already exists`, {
      issues: [{ path: ['name'], code: 'duplicate', message: 'a folder with this name exists' }],
    });

  async function list(actor: Actor, options: { cursor?: string; limit?: number }): Promise<FolderListResult> {
    requirePermission(actor, 'media:read');
    const limit = options.limit ?? 100;
    let q = ctx.db.selectFrom('_cms_media_folders').selectAll().orderBy('name_key').orderBy('id');
    if (options.cursor !== undefined) {
      const after = decodeFolderCursor(options.cursor);
      q = q.where((eb) =>
        eb.or([
          eb('name_key', '>', after.nameKey),
          eb.and([eb('name_key', '=', after.nameKey), eb('id', '>', after.id)]),
        ]),
      );
    }
    const rows = await q.limit(limit + 1).execute();
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const n = await counts(page.map((r) => r.id));
    const last = page[page.length - 1];
    return {
      items: page.map((r) => view(r, n.get(r.id) ?? 0)),
      ...(more && last ? { nextCursor: encodeCursor(last.name_key, last.id) } : {}),
    };
  }

  async function get(actor: Actor, id: string): Promise<MediaFolder> {
    requirePermission(actor, 'media:read');
    const row = await load(id);
    return view(row, (await counts([id])).get(id) ?? 0);
  }

  async function create(actor: Actor, input: { name: string }): Promise<MediaFolder> {
    requirePermission(actor, 'media:edit_any');
    const name = cleanName(input.name);
    const now = nowIso(deps);
    const row: MediaFoldersTable = {
      id: newId(),
      name,
      name_key: nameKey(name),
      created_by: actor.userId,
      created_at: now,
      updated_at: now,
    };
    try {
      await ctx.db.insertInto('_cms_media_folders').values(row).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicate(name);
      throw err;
    }
    return view(row, 0);
  }

  async function update(actor: Actor, id: string, input: { name: string }): Promise<MediaFolder> {
    requirePermission(actor, 'media:edit_any');
    await load(id);
    const name = cleanName(input.name);
    try {
      await ctx.db
        .updateTable('_cms_media_folders')
        .set({ name, name_key: nameKey(name), updated_at: nowIso(deps) })
        .where('id', '=', id)
        .execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicate(name);
      throw err;
    }
    return get(actor, id);
  }

  async function remove(actor: Actor, id: string): Promise<{ deleted: true; id: string; itemsMoved: number }> {
    requirePermission(actor, 'media:edit_any');
    return ctx.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('_cms_media_folders').select('id').where('id', '=', id).executeTakeFirst();
      if (!row) throw notFound('Folder');
      // Only the folder link changes: no timestamps, versions, keys or URLs of the items.
      const moved = await trx
        .updateTable('_cms_media')
        .set({ folder_id: null })
        .where('folder_id', '=', id)
        .executeTakeFirst();
      await trx.deleteFrom('_cms_media_folders').where('id', '=', id).execute();
      return { deleted: true as const, id, itemsMoved: Number(moved.numUpdatedRows) };
    });
  }

  return { list, get, create, update, remove };
}
