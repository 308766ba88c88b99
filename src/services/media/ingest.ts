import type { Actor } from '../../auth/actor.js';
import { requirePermission } from '../../auth/actor.js';
import { CmsError, isUniqueViolation, validationError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { MediaTable } from '../../db/tables-media.js';
import { type MediaDeps, nowIso } from './deps.js';
import { cleanFilename, objectHeaders } from './files.js';
import { type FileFacts, inspectFile } from './inspect.js';
import { extensionFor } from './mime.js';
import { type MediaItem, presentItem } from './present.js';
import { claimImportKey, holderOf, importHolder, loadItem, nameKey } from './rows.js';
import { discard, type StagedFile } from './staging.js';

/** What may come with a new file besides its bytes. */
export interface UploadMeta {
  filename?: string | null;
  claimedType?: string | null;
  alt?: string | null;
  caption?: string | null;
  folderId?: string | null;
  width?: number;
  height?: number;
  /** ID of an image or file field whose `allowedMimeTypes` the file must satisfy. */
  fieldId?: string;
  thumbnail?: StagedFile | null;
}

export interface UploadResult {
  item: MediaItem;
  deduplicated: boolean;
}

/** Omitted or empty alt and caption are stored as null. */
export const orNull = (v: string | null | undefined) => (v === undefined || v === null || v === '' ? null : v);

export async function assertFolder(deps: MediaDeps, folderId: string | null | undefined, path: string): Promise<void> {
  if (!folderId) return;
  const folder = await deps.ctx.db
    .selectFrom('_cms_media_folders')
    .select('id')
    .where('id', '=', folderId)
    .executeTakeFirst();
  if (!folder) {
    throw validationError(`Folder "${folderId}" does not exist`, {
      issues: [{ path: [path], code: 'not_found', message: 'no such folder' }],
    });
  }
}

/** `allowedMimeTypes` of the image or file field with this ID. */
export async function fieldAllowlist(
  deps: MediaDeps,
  fieldId: string | undefined,
): Promise<{ field: string; types: string[] } | null> {
  if (!fieldId) return null;
  const snap = await deps.schema.snapshot();
  for (const c of snap.collections.values()) {
    const f = c.fields.find((x) => x.id === fieldId);
    if (!f) continue;
    if (f.type !== 'image' && f.type !== 'file') break;
    const types = (f.validation as { allowedMimeTypes?: unknown } | undefined)?.allowedMimeTypes;
    const list = Array.isArray(types) ? types.filter((t): t is string => typeof t === 'string') : [];
    return list.length ? { field: `${c.slug}.${f.slug}`, types: list } : null;
  }
  throw validationError(`"${fieldId}" is not the ID of an image or file field`, {
    issues: [{ path: ['fieldId'], code: 'not_found', message: 'no image or file field has this ID' }],
  });
}

export function inspectFor(
  deps: MediaDeps,
  file: StagedFile,
  meta: UploadMeta,
  field: { field: string; types: string[] } | null,
) {
  const { config } = deps.ctx;
  return inspectFile(file, {
    claimedType: meta.claimedType ?? '',
    allowed: config.mediaAllowedTypes,
    fieldAllowed: field,
    maxImagePixels: config.maxImagePixels,
    width: meta.width,
    height: meta.height,
    thumbnail: meta.thumbnail,
  });
}

/** Store the staged bytes under a new key (the staged file is consumed). */
export async function storeStaged(deps: MediaDeps, file: StagedFile, facts: FileFacts, filename: string) {
  const key = `${newId()}.${extensionFor(facts.mime)}`;
  await deps.storage.putFile(key, file.path, objectHeaders(facts.mime, filename));
  return key;
}

/**
 * A new file into the library (direct upload, MCP upload): inspected, then
 * either answered by the item that already holds identical bytes (alt and
 * caption not applied) or stored and recorded as a ready item. The staged
 * copy is always gone afterwards.
 */
export async function ingest(
  deps: MediaDeps,
  actor: Actor,
  file: StagedFile,
  meta: UploadMeta,
  /** `sha1:<hex>` of these bytes, computed by the media service for an import copy (never taken from a caller). */
  importKey: string | null = null,
): Promise<UploadResult> {
  try {
    requirePermission(actor, 'media:upload');
    await assertFolder(deps, meta.folderId, 'folderId');
    const facts = await inspectFor(deps, file, meta, await fieldAllowlist(deps, meta.fieldId));
    const existing = await holderOf(deps.ctx.db, file.hash);
    if (existing) {
      if (importKey) await claimImportKey(deps.ctx.db, existing, importKey);
      return { item: presentItem(deps, existing), deduplicated: true };
    }

    const filename = cleanFilename(meta.filename, extensionFor(facts.mime));
    const key = await storeStaged(deps, file, facts, filename);
    const now = nowIso(deps);
    const row: MediaTable = {
      id: newId(),
      status: 'ready',
      filename,
      name_key: nameKey(filename),
      mime_type: facts.mime,
      size: file.size,
      width: facts.width,
      height: facts.height,
      alt: orNull(meta.alt),
      caption: orNull(meta.caption),
      placeholder: facts.placeholder,
      folder_id: meta.folderId ?? null,
      storage_key: key,
      content_hash: file.hash,
      dedupe_key: file.hash,
      import_key: importKey,
      declared_hash: null,
      uploaded_by: actor.userId,
      created_at: now,
      updated_at: now,
      expires_at: null,
      version: 1,
      focal_x: null,
      focal_y: null,
    };
    try {
      await deps.ctx.db.insertInto('_cms_media').values(row).execute();
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // A concurrent upload of the same bytes won: answer with its item, drop our copy.
      await deps.storage.delete(key);
      const winner =
        (await holderOf(deps.ctx.db, file.hash)) ??
        (importKey ? await importHolder(deps.ctx.db, importKey) : undefined);
      if (!winner) throw err;
      return { item: presentItem(deps, winner), deduplicated: true };
    }
    return { item: presentItem(deps, row), deduplicated: false };
  } finally {
    await discard(file);
    await discard(meta.thumbnail);
  }
}

/** The item as it is now (after a write), or a 409 when it vanished meanwhile. */
export async function reload(deps: MediaDeps, id: string): Promise<MediaItem> {
  const row = await loadItem(deps.ctx.db, id);
  if (!row) throw new CmsError('INVALID_STATE', 'The media item was removed meanwhile');
  return presentItem(deps, row);
}
