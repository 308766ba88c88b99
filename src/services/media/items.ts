import type { Actor } from '../../auth/actor.js';
import { CmsError, isUniqueViolation, notFound, validationError } from '../../core/errors.js';
import { type MediaDeps, nowIso, requireEdit } from './deps.js';
import { cleanFilename } from './files.js';
import type { ImageOps } from './images/index.js';
import { CENTRE, type FocalPoint } from './images/sign.js';
import { assertFolder, inspectFor, orNull, reload, storeStaged, type UploadMeta } from './ingest.js';
import { extensionFor, isRasterImage } from './mime.js';
import type { MediaItem } from './present.js';
import { holderOf, keyInUse, loadItem, lockItem, nameKey, promoteHolder } from './rows.js';
import { discard, type StagedFile } from './staging.js';

export interface MediaUpdate {
  alt?: string | null;
  caption?: string | null;
  /** A folder ID, or null for the Main library. */
  folderId?: string | null;
  filename?: string;
  /** Where the subject is (fractions of the displayed width and height), or null for the centre. */
  focalPoint?: FocalPoint | null;
}

const changed = () => new CmsError('INVALID_STATE', 'The media item changed meanwhile; reload it and try again');

const focalOf = (row: { focal_x: number | null; focal_y: number | null }): FocalPoint =>
  row.focal_x !== null && row.focal_y !== null ? { x: row.focal_x, y: row.focal_y } : CENTRE;

/** Changes to ready items: metadata, replacement of the bytes, deletion; each drops the image derivatives it outdates. */
export function itemOps(deps: MediaDeps, images: ImageOps) {
  const { ctx, storage } = deps;

  async function readyItem(id: string) {
    const row = await loadItem(ctx.db, id);
    if (row?.status !== 'ready') throw notFound('Media item');
    return row;
  }

  async function update(actor: Actor, id: string, input: MediaUpdate): Promise<MediaItem> {
    const row = await readyItem(id);
    requireEdit(actor, row);
    if (input.folderId !== undefined) await assertFolder(deps, input.folderId, 'folderId');
    const set: Record<string, unknown> = { updated_at: nowIso(deps), version: row.version + 1 };
    if (input.alt !== undefined) set.alt = orNull(input.alt);
    if (input.caption !== undefined) set.caption = orNull(input.caption);
    if (input.folderId !== undefined) set.folder_id = input.folderId;
    if (input.filename !== undefined) {
      set.filename = cleanFilename(input.filename, extensionFor(row.mime_type));
      set.name_key = nameKey(set.filename as string);
    }
    if (input.focalPoint !== undefined) {
      // Only raster images are cropped; SVG is never transformed, other files have no pixels.
      if (input.focalPoint !== null && !isRasterImage(row.mime_type)) {
        throw validationError('Only raster images have a focal point', {
          issues: [{ path: ['focalPoint'], code: 'not_allowed', message: `${row.mime_type} is not cropped` }],
        });
      }
      set.focal_x = input.focalPoint?.x ?? null;
      set.focal_y = input.focalPoint?.y ?? null;
    }
    const done = await ctx.db
      .updateTable('_cms_media')
      .set(set)
      .where('id', '=', id)
      .where('version', '=', row.version)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw changed();
    const before = focalOf(row);
    const after = input.focalPoint ?? CENTRE;
    if (input.focalPoint !== undefined && (before.x !== after.x || before.y !== after.y) && row.content_hash) {
      await images.forgetFocal(id, row.content_hash, before);
    }
    return reload(deps, id);
  }

  /**
   * Delete the item; its bytes leave storage once no other item shares them.
   * Pending uploads can be abandoned this way by their uploader.
   */
  async function remove(actor: Actor, id: string): Promise<{ deleted: true; id: string }> {
    const row = await loadItem(ctx.db, id);
    if (!row || (row.status === 'pending' && row.uploaded_by !== actor.userId)) throw notFound('Media item');
    requireEdit(actor, row);
    await ctx.db.transaction().execute(async (trx) => {
      const locked = await lockItem(trx, ctx.dialect, id);
      if (!locked) throw notFound('Media item');
      await trx.deleteFrom('_cms_media').where('id', '=', id).execute();
      if (locked.dedupe_key) await promoteHolder(trx, locked.dedupe_key);
    });
    if (!(await keyInUse(ctx.db, row.storage_key))) await storage.delete(row.storage_key);
    await images.forgetItem(id);
    return { deleted: true, id };
  }

  /**
   * New bytes and facts for the same item (same ID, same `url`). The new
   * file must be the same kind (image for an image …). Bytes identical to
   * another item's are shared with it instead of stored twice.
   */
  async function replace(actor: Actor, id: string, file: StagedFile, meta: UploadMeta): Promise<MediaItem> {
    try {
      const row = await readyItem(id);
      requireEdit(actor, row);
      const facts = await inspectFor(deps, file, meta, null);
      const family = (m: string) => m.split('/')[0];
      if (family(facts.mime) !== family(row.mime_type)) {
        throw new CmsError(
          'INVALID_TYPE',
          `A ${family(row.mime_type)} can only be replaced by another ${family(row.mime_type)} (got ${facts.mime})`,
          { detected: facts.mime, current: row.mime_type },
        );
      }
      if (file.hash === row.content_hash) return reload(deps, id);
      const holder = await holderOf(ctx.db, file.hash);
      const shared = holder && holder.id !== id ? holder.storage_key : null;
      // The item keeps its name: people chose it, and links and listings show it.
      const filename = row.filename;
      const key = shared ?? (await storeStaged(deps, file, facts, filename));
      const write = (dedupe: boolean) =>
        ctx.db.transaction().execute(async (trx) => {
          const locked = await lockItem(trx, ctx.dialect, id);
          if (!locked || locked.version !== row.version || locked.status !== 'ready') throw changed();
          if (shared) {
            // The item we share with must still hold those bytes (it could be replaced or deleted meanwhile).
            const again = await lockItem(trx, ctx.dialect, holder!.id);
            if (again?.storage_key !== shared) throw changed();
          }
          await trx
            .updateTable('_cms_media')
            .set({
              storage_key: key,
              mime_type: facts.mime,
              size: file.size,
              width: facts.width,
              height: facts.height,
              placeholder: facts.placeholder,
              content_hash: file.hash,
              dedupe_key: dedupe ? file.hash : null,
              // The import key named the old bytes.
              import_key: null,
              updated_at: nowIso(deps),
              version: row.version + 1,
            })
            .where('id', '=', id)
            .execute();
          if (row.dedupe_key) await promoteHolder(trx, row.dedupe_key);
        });
      try {
        await write(!shared);
      } catch (err) {
        // Someone stored the same bytes a moment ago: keep our copy without answering for those bytes.
        if (!isUniqueViolation(err)) {
          if (!shared) await storage.delete(key);
          throw err;
        }
        await write(false);
      }
      if (!(await keyInUse(ctx.db, row.storage_key))) await storage.delete(row.storage_key);
      // The new bytes have a new hash, so new derivative keys; the old version's go.
      if (row.content_hash) await images.forgetVersion(id, row.content_hash);
      return reload(deps, id);
    } finally {
      await discard(file);
      await discard(meta.thumbnail);
    }
  }

  return { update, remove, replace, readyItem };
}
