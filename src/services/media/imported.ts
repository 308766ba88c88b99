import type { Actor } from '../../auth/actor.js';
import { requirePermission } from '../../auth/actor.js';
import type { MediaDeps } from './deps.js';
import { ingest, type UploadMeta, type UploadResult } from './ingest.js';
import { presentItem } from './present.js';
import { importHolder } from './rows.js';
import { discard, type StagedFile, tooLarge } from './staging.js';

/**
 * A file an import copied from another site, already staged on local disk
 * with its SHA-1 computed while it streamed in (never held in memory whole).
 * Looked up first by its SHA-1 import key, so a rerun reuses what an earlier
 * run stored without inspecting the file again; otherwise it goes through the
 * upload path (type and size checks, facts and placeholder, SHA-256 dedupe
 * against earlier uploads), and the item that answers keeps the import key.
 * The key comes from the staging meter, never from a caller; a match is
 * confirmed by the SHA-256 before the item is reused. The staged file is
 * always gone afterwards.
 */
export async function importStaged(
  deps: MediaDeps,
  actor: Actor,
  file: StagedFile,
  meta: UploadMeta,
): Promise<UploadResult & { importKey: string }> {
  let handed = false;
  try {
    requirePermission(actor, 'media:upload');
    const max = deps.ctx.config.maxUploadSize;
    if (file.size > max) throw tooLarge(max);
    if (!file.sha1) throw new Error('importStaged needs a file staged with its SHA-1');
    const importKey = file.sha1;
    const known = await importHolder(deps.ctx.db, importKey);
    // SHA-1 finds the item; SHA-256 confirms it holds these bytes (crafted SHA-1 collisions exist).
    if (known && known.content_hash === file.hash) {
      return { item: presentItem(deps, known), deduplicated: true, importKey };
    }
    handed = true;
    // A colliding file is stored as an upload of its own; the key stays with the item that has it.
    return { ...(await ingest(deps, actor, file, meta, known ? null : importKey)), importKey };
  } finally {
    // ingest consumes the file it was handed; every other way out drops it here.
    if (!handed) await discard(file);
  }
}
