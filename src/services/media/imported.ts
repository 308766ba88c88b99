import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Actor } from '../../auth/actor.js';
import { requirePermission } from '../../auth/actor.js';
import type { MediaDeps } from './deps.js';
import { ingest, type UploadMeta, type UploadResult } from './ingest.js';
import { presentItem } from './present.js';
import { importHolder } from './rows.js';
import { stageStream, tooLarge } from './staging.js';

/** The import key of some bytes: their SHA-1, prefixed (spec 2, "Blog-platform import behavior", media copy). */
export function importKeyOf(bytes: Buffer): string {
  return `sha1:${createHash('sha1').update(bytes).digest('hex')}`;
}

/**
 * Bytes an import copied from another site (already downloaded, in memory).
 * Looked up first by their SHA-1 import key, so a rerun reuses what an earlier
 * run stored without inspecting the file again; otherwise they go through the
 * upload path (type and size checks, facts and placeholder, SHA-256 dedupe
 * against earlier uploads), and the item that answers keeps the import key.
 * The key is computed here from the bytes, never taken from a caller; a
 * match is confirmed by the SHA-256 before the item is reused.
 */
export async function importBytes(
  deps: MediaDeps,
  actor: Actor,
  bytes: Buffer,
  meta: UploadMeta,
): Promise<UploadResult & { importKey: string }> {
  requirePermission(actor, 'media:upload');
  const max = deps.ctx.config.maxUploadSize;
  if (bytes.length > max) throw tooLarge(max);
  const importKey = importKeyOf(bytes);
  const known = await importHolder(deps.ctx.db, importKey);
  // SHA-1 finds the item; SHA-256 confirms it holds these bytes (crafted SHA-1 collisions exist).
  const sha256 = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  if (known && known.content_hash === sha256) return { item: presentItem(deps, known), deduplicated: true, importKey };
  const staged = await stageStream(Readable.from([bytes]), deps.tmpDir, max);
  // A colliding file is stored as an upload of its own; the key stays with the item that has it.
  return { ...(await ingest(deps, actor, staged, meta, known ? null : importKey)), importKey };
}
