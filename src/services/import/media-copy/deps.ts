import type { ContentService } from '../../content/index.js';
import type { ServiceContext } from '../../context.js';
import type { MediaService } from '../../media/index.js';
import type { SchemaService } from '../../schema/index.js';
import type { SafeFetchOptions } from './safe-fetch.js';

/** What the media copy is built from. */
export interface MediaCopyDeps {
  ctx: ServiceContext;
  schema: SchemaService;
  content: ContentService;
  media: MediaService;
  /** Fetch settings beyond the configuration's (tests shorten the deadline). */
  fetch?: Partial<Pick<SafeFetchOptions, 'timeoutMs' | 'maxRedirects' | 'resolve'>>;
}
