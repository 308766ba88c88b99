import { Readable } from 'node:stream';
import type { Actor } from '../../auth/actor.js';
import { requirePermission } from '../../auth/actor.js';
import { validationError } from '../../core/errors.js';
import { createStorage, type Storage } from '../../storage/index.js';
import type { ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
import { mediaDeps, requireEdit } from './deps.js';
import { mediaFieldListener } from './field-refs.js';
import { folderOps } from './folders.js';
import { imageValuePresenter } from './images/field-values.js';
import { imageOps } from './images/index.js';
import { importStaged } from './imported.js';
import { ingest, type UploadMeta } from './ingest.js';
import { itemOps } from './items.js';
import { listOps } from './list.js';
import { serveOps } from './serve.js';
import { discard, type StagedFile, stageStream, tooLarge } from './staging.js';
import { sweeperOps } from './sweeper.js';
import { targetOps } from './targets.js';
import { noUsageIndex, type UsageSource } from './usage.js';

export type { MediaFolder } from './folders.js';
export type { Delivery, Derivative, ImageAnswer } from './images/index.js';
export type { UploadMeta, UploadResult } from './ingest.js';
export type { MediaUpdate } from './items.js';
export type { MediaListOptions, MediaListResult } from './list.js';
export type { MediaItem } from './present.js';
export type { ServedFile } from './serve.js';
export type { StagedFile } from './staging.js';
/** Drop a staged upload that will not be used (a door's request failed). */
export const discardStaged = discard;
export type { ConfirmInput, UploadUrlInput, UploadUrlResult } from './targets.js';
export { COVERAGE, type Coverage, type MediaUsage, type UsageSource } from './usage.js';

/** A thumbnail is a few kilobytes; anything near this is not one. */
export const MAX_THUMBNAIL_BYTES = 1024 * 1024;

/** Why bytes are being received: each purpose is checked before the first byte is read. */
export type StagePurpose = { kind: 'upload' } | { kind: 'replace'; id: string } | { kind: 'thumbnail' };

/**
 * The media library: storage, uploads (direct, base64 and the upload-target
 * flow), the library's items and folders, file serving and the sweeper of
 * abandoned uploads. Every door (REST, MCP) calls these functions.
 */
export function createMediaService(
  ctx: ServiceContext,
  schema: SchemaService,
  storage: Storage = createStorage(ctx.config.storage),
) {
  const deps = mediaDeps(ctx, storage, schema, noUsageIndex);
  const images = imageOps(deps);
  const items = itemOps(deps, images);
  const lists = listOps(deps);
  const targets = targetOps(deps);

  /** Receive bytes onto local disk (streamed, hashed, size-limited) once the caller may send them. */
  async function stage(actor: Actor, body: Readable, purpose: StagePurpose) {
    if (purpose.kind === 'replace') requireEdit(actor, await items.readyItem(purpose.id));
    else requirePermission(actor, 'media:upload');
    const limit = purpose.kind === 'thumbnail' ? MAX_THUMBNAIL_BYTES : ctx.config.maxUploadSize;
    return stageStream(body, deps.tmpDir, limit);
  }

  /** MCP `media_upload`: the file as base64 text, within the same size and type limits. */
  async function uploadBase64(actor: Actor, input: { data: string } & UploadMeta) {
    requirePermission(actor, 'media:upload');
    const max = ctx.config.maxUploadSize;
    const data = input.data.replace(/\s+/g, '');
    if (data.length > Math.ceil(max / 3) * 4) throw tooLarge(max);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 === 1) {
      throw validationError('data must be base64-encoded bytes', {
        issues: [{ path: ['data'], code: 'invalid_base64', message: 'not valid base64' }],
      });
    }
    const staged = await stageStream(Readable.from([Buffer.from(data, 'base64')]), deps.tmpDir, max);
    return ingest(deps, actor, staged, input);
  }

  return {
    storage,
    limits: { maxUploadSize: ctx.config.maxUploadSize },
    /** The content service calls this inside every entry write (registered in services/index.ts). */
    fieldListener: mediaFieldListener(() => schema.snapshot()),
    /** Install the usage index (media usage tracking) in place of "nothing indexed". */
    setUsageSource(source: UsageSource) {
      deps.usage.source = source;
    },
    stage,
    upload: (actor: Actor, file: Parameters<typeof ingest>[2], meta: UploadMeta) => ingest(deps, actor, file, meta),
    uploadBase64,
    /** Where received files are staged (an import's downloads stream there too). */
    stagingDir: deps.tmpDir,
    /**
     * A file an import downloaded (staged with its SHA-1): deduplicated by the `sha1:` import key, then
     * stored like an upload; the staged file is consumed.
     */
    importStaged: (actor: Actor, file: StagedFile, meta: UploadMeta) => importStaged(deps, actor, file, meta),
    list: lists.list,
    get: lists.get,
    usage: lists.usage,
    update: items.update,
    remove: items.remove,
    replace: items.replace,
    requestUpload: targets.requestUpload,
    putPending: targets.putPending,
    confirm: targets.confirm,
    confirmByKey: targets.confirmByKey,
    folders: folderOps(deps),
    files: serveOps(deps),
    /** Responsive images: transformed derivatives by URL (images/index.ts). */
    images,
    /** `srcset` on image field values of content reads (registered with the content service in services/index.ts). */
    presentFieldValues: imageValuePresenter(ctx.config),
    sweeper: sweeperOps(deps, ctx.log),
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
