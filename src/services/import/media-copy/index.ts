import type { Actor } from '../../../auth/actor.js';
import type { Attachment } from './attachment.js';
import { type CopyProgress, type CopyResult, checkCopy, runCopy } from './copy.js';
import type { MediaCopyDeps } from './deps.js';
import { type RewriteInput, type RewriteResult, rewriteUrls } from './rewrite-entries.js';

export type { CopyFailure, CopyProgress, CopyResult, CopyStatus } from './copy.js';
export type { MediaCopyDeps } from './deps.js';
export type { FeaturedFailure, FeaturedImage, FeaturedResult } from './featured-images.js';
export type { RewriteError, RewriteInput, RewriteResult } from './rewrite-entries.js';
export {
  type FetchRefusal,
  FetchRefused,
  type SafeDownloadOptions,
  type SafeFetchOptions,
  type SafeFetchResult,
  safeFetch,
  safeFetchBytes,
} from './safe-fetch.js';

/**
 * The WordPress import's last stage: copy the attachments into the media
 * library, then rewrite the old site's URLs in entries. Both need an Admin
 * (`import:execute`); REST is the only door (the admin import page).
 */
type CopyInput = { attachments: Attachment[]; folderId?: string };

export function createMediaCopyService(deps: MediaCopyDeps) {
  return {
    /**
     * Run the checks (permissions, folder), then answer with the copy itself,
     * so a streaming door can refuse with a normal error before it starts.
     */
    async start(actor: Actor, input: CopyInput) {
      await checkCopy(deps, actor, input);
      return (onProgress?: (p: CopyProgress) => void | Promise<void>, signal?: AbortSignal): Promise<CopyResult> =>
        runCopy(deps, actor, input, onProgress, signal);
    },
    async copy(actor: Actor, input: CopyInput): Promise<CopyResult> {
      await checkCopy(deps, actor, input);
      return runCopy(deps, actor, input);
    },
    rewriteUrls: (actor: Actor, input: RewriteInput, opts?: { batchSize?: number }): Promise<RewriteResult> =>
      rewriteUrls(deps, actor, input, opts),
  };
}

export type MediaCopyService = ReturnType<typeof createMediaCopyService>;
