import type { Readable } from 'node:stream';
import type { Actor } from '../../auth/actor.js';
import { requirePermission } from '../../auth/actor.js';
import { CmsError, isCmsError, isUniqueViolation, notFound, validationError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { MediaTable } from '../../db/tables-media.js';
import { type MediaDeps, nowIso } from './deps.js';
import { cleanFilename, objectHeaders } from './files.js';
import { inspectFor, orNull, reload, type UploadResult } from './ingest.js';
import { extensionFor, mimeAllowed, normaliseMime } from './mime.js';
import { presentItem } from './present.js';
import { holderOf, keyInUse, loadItem, nameKey } from './rows.js';
import { discard, measureFile, type StagedFile, stageStream } from './staging.js';

/** A pending upload may be sent and confirmed for this long; then the sweeper removes it. */
export const UPLOAD_TTL_SECONDS = 3600;

export interface UploadUrlInput {
  filename: string;
  contentType: string;
  size: number;
  contentHash?: string;
}

export type UploadUrlResult =
  | {
      existing: false;
      mediaId: string;
      storageKey: string;
      uploadUrl: string;
      method: 'PUT';
      headers: Record<string, string>;
      expiresAt: string;
    }
  | { existing: true; mediaId: string; item: ReturnType<typeof presentItem> };

export interface ConfirmInput {
  size: number;
  width?: number;
  height?: number;
  alt?: string | null;
  caption?: string | null;
}

const HASH = /^(?:sha256:)?([0-9a-fA-F]{64})$/;

export function normaliseHash(value: string | undefined): string | null {
  if (value === undefined) return null;
  const m = HASH.exec(value);
  if (!m) {
    throw validationError('contentHash must be a SHA-256 digest (64 hex digits, optionally prefixed "sha256:")', {
      issues: [{ path: ['contentHash'], code: 'invalid_format', message: 'expected a SHA-256 hex digest' }],
    });
  }
  return `sha256:${m[1].toLowerCase()}`;
}

const invalidState = (message: string, status: 400 | 409) => new CmsError('INVALID_STATE', message, undefined, status);

/** The caller's own pending item; other users' pending uploads do not exist for them. */
async function ownPending(deps: MediaDeps, actor: Actor, id: string): Promise<MediaTable> {
  const row = await loadItem(deps.ctx.db, id);
  if (!row || (row.status === 'pending' && row.uploaded_by !== actor.userId)) throw notFound('Pending media item');
  if (row.status !== 'pending') throw invalidState('The media item is no longer pending', 400);
  if (row.expires_at && row.expires_at <= nowIso(deps)) {
    throw invalidState('The upload target expired; request a new one', 400);
  }
  return row;
}

/** The upload-target flow (spec: "Upload-target flow"): pending items, their bytes, confirmation. */
export function targetOps(deps: MediaDeps) {
  const { ctx, storage } = deps;

  async function requestUpload(actor: Actor, input: UploadUrlInput): Promise<UploadUrlResult> {
    requirePermission(actor, 'media:register');
    const mime = normaliseMime(input.contentType);
    if (!mimeAllowed(mime, ctx.config.mediaAllowedTypes)) {
      throw new CmsError('INVALID_TYPE', `Files of type ${mime} are not accepted by this site`, {
        declared: mime,
        allowed: ctx.config.mediaAllowedTypes,
      });
    }
    if (input.size > ctx.config.maxUploadSize) {
      throw new CmsError(
        'PAYLOAD_TOO_LARGE',
        `The file is larger than the maximum upload size (${ctx.config.maxUploadSize} bytes)`,
        {
          maxUploadSize: ctx.config.maxUploadSize,
        },
      );
    }
    const hash = normaliseHash(input.contentHash);
    if (hash) {
      const existing = await holderOf(ctx.db, hash);
      if (existing && existing.mime_type === mime && Number(existing.size) === input.size) {
        return { existing: true, mediaId: existing.id, item: presentItem(deps, existing) };
      }
    }
    const id = newId();
    const storageKey = `${id}.${extensionFor(mime)}`;
    const filename = cleanFilename(input.filename, extensionFor(mime));
    const now = ctx.clock.now();
    const expiresAt = new Date(now.getTime() + UPLOAD_TTL_SECONDS * 1000).toISOString();
    await ctx.db
      .insertInto('_cms_media')
      .values({
        id,
        status: 'pending',
        filename,
        name_key: nameKey(filename),
        mime_type: mime,
        size: input.size,
        width: null,
        height: null,
        alt: null,
        caption: null,
        placeholder: null,
        folder_id: null,
        storage_key: storageKey,
        content_hash: null,
        dedupe_key: null,
        import_key: null,
        declared_hash: hash,
        uploaded_by: actor.userId,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        expires_at: expiresAt,
        version: 1,
      })
      .execute();
    const target = await storage.uploadTarget(
      storageKey,
      objectHeaders(mime, filename),
      input.size,
      UPLOAD_TTL_SECONDS,
    );
    return {
      existing: false,
      mediaId: id,
      storageKey,
      uploadUrl: target.url ?? `/_cms/api/media/${id}/upload`,
      method: target.method,
      headers: target.headers,
      expiresAt,
    };
  }

  /** `PUT /media/{id}/upload`: the bytes of a pending item, through the service. */
  async function putPending(
    actor: Actor,
    id: string,
    body: Readable | null,
    contentLength: number | null,
  ): Promise<{ mediaId: string; storageKey: string; size: number }> {
    requirePermission(actor, 'media:register');
    const row = await ownPending(deps, actor, id);
    const declared = Number(row.size);
    // Before any length is compared: no bytes is a missing body (NO_FILE), not a size that differs.
    if (!body || contentLength === 0) throw new CmsError('NO_FILE', 'The upload body is missing');
    if (contentLength !== null && contentLength > ctx.config.maxUploadSize) {
      throw new CmsError('PAYLOAD_TOO_LARGE', 'The body is larger than the maximum upload size', {
        maxUploadSize: ctx.config.maxUploadSize,
      });
    }
    if (contentLength !== null && contentLength !== declared) throw sizeMismatch(declared, contentLength, 'uploaded');
    let staged: StagedFile;
    try {
      staged = await stageStream(body, deps.tmpDir, declared);
    } catch (err) {
      if (isCmsError(err) && err.code === 'PAYLOAD_TOO_LARGE') throw sizeMismatch(declared, null, 'uploaded');
      throw err;
    }
    try {
      if (staged.size === 0) throw new CmsError('NO_FILE', 'The upload body is missing');
      if (staged.size !== declared) throw sizeMismatch(declared, staged.size, 'uploaded');
      await storage.putFile(row.storage_key, staged.path, objectHeaders(row.mime_type, row.filename));
      return { mediaId: row.id, storageKey: row.storage_key, size: staged.size };
    } finally {
      await discard(staged);
    }
  }

  async function confirm(actor: Actor, id: string, input: ConfirmInput): Promise<UploadResult> {
    requirePermission(actor, 'media:register');
    const row = await ownPending(deps, actor, id);
    const declared = Number(row.size);
    if (input.size !== declared) throw sizeMismatch(declared, input.size, 'confirmed');
    const head = await storage.head(row.storage_key);
    if (!head) throw new CmsError('FILE_NOT_FOUND', 'Nothing has been uploaded for this media item yet');
    if (head.size !== declared) throw sizeMismatch(declared, head.size, 'uploaded');

    const local = storage.localPath(row.storage_key);
    let staged: StagedFile | null = null;
    try {
      if (local) staged = await measureFile(local, ctx.config.maxUploadSize);
      else {
        const read = await storage.read(row.storage_key);
        if (!read) throw new CmsError('FILE_NOT_FOUND', 'Nothing has been uploaded for this media item yet');
        staged = await stageStream(read.body, deps.tmpDir, ctx.config.maxUploadSize);
      }
      if (staged.size !== declared) throw sizeMismatch(declared, staged.size, 'uploaded');
      if (row.declared_hash && staged.hash !== row.declared_hash) {
        throw validationError('The uploaded bytes do not match the declared contentHash', {
          issues: [{ path: ['contentHash'], code: 'mismatch', message: 'SHA-256 of the upload differs' }],
        });
      }
      const facts = await inspectFor(
        deps,
        staged,
        { claimedType: row.mime_type, width: input.width, height: input.height },
        null,
      );
      for (const dim of ['width', 'height'] as const) {
        const given = input[dim];
        if (given !== undefined && facts[dim] !== null && given !== facts[dim]) {
          throw validationError(`The ${dim} does not match the uploaded file (${facts[dim]})`, {
            issues: [{ path: [dim], code: 'mismatch', message: `the file's ${dim} is ${facts[dim]}` }],
          });
        }
      }
      const hash = staged.hash;
      const set = {
        status: 'ready' as const,
        mime_type: facts.mime,
        width: facts.width,
        height: facts.height,
        placeholder: facts.placeholder,
        content_hash: hash,
        dedupe_key: hash,
        alt: orNull(input.alt),
        caption: orNull(input.caption),
        expires_at: null,
        updated_at: nowIso(deps),
        version: row.version + 1,
      };
      const cas = (values: typeof set) =>
        ctx.db
          .updateTable('_cms_media')
          .set(values)
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .where('version', '=', row.version)
          .executeTakeFirst();
      try {
        const done = await cas(set);
        if (Number(done.numUpdatedRows) !== 1) throw invalidState('The media item changed during confirmation', 409);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        return await answerWithHolder(row, hash);
      }
      return { item: await reload(deps, id), deduplicated: false };
    } finally {
      await discard(staged);
    }
  }

  /** Identical bytes are already in the library: the pending item gives way to the item holding them. */
  async function answerWithHolder(row: MediaTable, hash: string): Promise<UploadResult> {
    const holder = await holderOf(ctx.db, hash);
    if (!holder) throw invalidState('The media item changed during confirmation', 409);
    await ctx.db
      .deleteFrom('_cms_media')
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('version', '=', row.version)
      .execute();
    if (!(await keyInUse(ctx.db, row.storage_key))) await storage.delete(row.storage_key);
    return { item: presentItem(deps, holder), deduplicated: true };
  }

  /** MCP `media_create`: confirm the caller's pending upload found by its storage key. */
  async function confirmByKey(actor: Actor, storageKey: string, input: ConfirmInput): Promise<UploadResult> {
    requirePermission(actor, 'media:register');
    const row = await ctx.db
      .selectFrom('_cms_media')
      .select('id')
      .where('storage_key', '=', storageKey)
      .where('status', '=', 'pending')
      .where('uploaded_by', '=', actor.userId)
      .executeTakeFirst();
    if (!row) throw notFound('Pending media item');
    return confirm(actor, row.id, input);
  }

  return { requestUpload, putPending, confirm, confirmByKey };
}

function sizeMismatch(declared: number, other: number | null, what: 'uploaded' | 'confirmed'): CmsError {
  return new CmsError(
    'UPLOAD_SIZE_MISMATCH',
    other === null
      ? `More bytes were ${what} than the ${declared} declared`
      : `The ${what} size (${other}) differs from the declared size (${declared})`,
    { declared, [what]: other },
  );
}
