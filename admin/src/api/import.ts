/**
 * The WordPress import routes. They are outside the OpenAPI document (see
 * docs/decisions.md, "Import"), so the typed client has nothing for them: the
 * types below are mirrored by hand from the service — src/schemas/import.ts,
 * src/schemas/import-media.ts, src/services/import/analyze.ts,
 * post-types.ts, prepare.ts, execute/tally.ts and media-copy/ — and must
 * follow them when those change. Requests follow the admin's conventions
 * (same-origin credentials, `X-CMS-Request`, the error envelope → ApiError).
 */
import { ApiError, networkError, toApiError } from './errors';
import { API_BASE, post, withCsrfHeader } from './http';

// ----- Analyze (src/services/import/analyze.ts, post-types.ts) -----

export type ReviewState = 'Ready' | 'New collection' | 'Add fields' | 'Incompatible';

export interface SuggestedField {
  slug: string;
  label: string;
  type: string;
  required: boolean;
  searchable: boolean;
}

export interface PostTypeAnalysis {
  name: string;
  count: number;
  byStatus: Record<string, number>;
  collection: string;
  fields: SuggestedField[];
  review: {
    state: ReviewState;
    missingFields: string[];
    incompatibleFields: Array<{ slug: string; expected: string; actual: string }>;
    reason?: string;
    /** `comments_disabled`: the collection does not accept comments, `count` would be skipped. */
    warnings: Array<{ code: 'comments_disabled'; count: number; message: string }>;
  };
  /** Comments on the type's items; `skipped` by reason (`pingback`, `comments_disabled`). */
  comments: { count: number; skipped: Record<string, number> };
}

/** The reader replaced characters no database stores by U+FFFD (docs/import.md). */
export interface AnalysisWarning {
  code: 'text_replaced';
  count: number;
  message: string;
  first: { record: string; recordNumber: number; element: string; sourceId?: string };
}

export interface Analysis {
  site: { title: string; url: string; description: string; language: string };
  items: number;
  postTypes: PostTypeAnalysis[];
  excluded: Array<{ name: string; count: number; reason: string }>;
  attachments: { count: number; byExtension: Record<string, number> };
  authors: Array<{ login: string; displayName: string; email: string; posts: number }>;
  taxonomies: Array<{ source: string; taxonomy: string; terms: number; hierarchical: boolean }>;
  customFields: Array<{
    key: string;
    count: number;
    postTypes: string[];
    field: { slug: string; label: string; type: string };
  }>;
  comments: { count: number; byStatus: Record<string, number> };
  menus: Array<{ name: string; label: string; items: number }>;
  reusableBlocks: number;
  warnings: AnalysisWarning[];
}

// ----- Prepare (src/schemas/import.ts prepareBodySchema, services/import/prepare.ts) -----

export interface PreparePostType {
  name: string;
  collection: string;
  fields: Array<{ slug: string; label: string; type: string; required?: boolean; searchable?: boolean }>;
  /** Turn comments on for an existing collection that has them off. */
  enableComments?: boolean;
}

export interface PrepareResult {
  success: boolean;
  collectionsCreated: string[];
  fieldsCreated: Array<{ collection: string; field: string }>;
  commentsEnabled: string[];
  errors: Array<{ postType: string; collection: string; code: string; message: string }>;
}

// ----- Execute (src/schemas/import.ts executeConfigSchema, services/import/execute/tally.ts) -----

export interface ExecuteConfig {
  postTypeMappings: Record<string, string | null | { collection: string; enabled?: boolean }>;
  skipExisting?: boolean;
  /** Author login → user ID; null or absent: a guest byline. */
  authorMappings?: Record<string, string | null>;
  importSections?: boolean;
  locale?: string;
}

export interface Bucket {
  imported: number;
  skipped: number;
  failed: number;
  byReason: Record<string, number>;
}

interface Counts {
  imported: number;
  skipped: number;
  failed: number;
}

export interface AttachmentRef {
  sourceId: string;
  url: string;
  title: string;
  alt: string;
}

export interface ExecuteResult {
  success: boolean;
  items: number;
  imported: number;
  skipped: number;
  failed: number;
  errors: Array<{ sourceId: string; postType: string; title: string; code: string; message: string }>;
  byCollection: Record<string, Bucket>;
  byPostType: Record<string, Bucket>;
  sections?: Counts;
  taxonomies: Record<
    string,
    { created: number; existing: number; failed: number; assignments: number; errors: string[] }
  >;
  comments: Counts & { byReason: Record<string, number>; changed: Record<string, number> };
  menus: { created: number; skipped: number; failed: number; items: Counts };
  bylines: { created: number; reused: number };
  unconverted: Record<string, number>;
  warnings: AnalysisWarning[];
  media: {
    attachments: AttachmentRef[];
    featuredImages: FeaturedImage[];
  };
  durationMs: number;
}

export interface ImportProgress {
  stage: 'check' | 'import' | 'menus' | 'done';
  done: number;
  total: number;
}

// ----- Media copy and rewrite (src/schemas/import-media.ts, services/import/media-copy/) -----

export interface MediaProgress {
  index: number;
  total: number;
  url: string;
  sourceId?: string | number;
  status: 'imported' | 'reused' | 'failed';
  mediaId?: string;
  newUrl?: string;
  reason?: string;
  message?: string;
}

export interface MediaCopyResult {
  imported: number;
  reused: number;
  failed: Array<{ url: string; sourceId?: string | number; reason: string; message: string }>;
  urlMap: Record<string, string>;
  mediaIds: Record<string, string>;
}

export interface FeaturedImage {
  collection: string;
  entryId: string;
  field: string;
  url: string;
}

export interface RewriteResult {
  updatedEntries: number;
  rewrittenUrls: number;
  byCollection: Record<string, { updatedEntries: number; rewrittenUrls: number }>;
  errors: Array<{ collection: string; entryIds: string[]; code: string; message: string }>;
  featuredImages: {
    set: number;
    unchanged: number;
    kept: number;
    failed: Array<FeaturedImage & { code: string; message: string }>;
  };
}

/** The media route takes at most this many attachments per request (mediaCopyBodySchema). */
export const MEDIA_BATCH = 10_000;

// ----- Requests -----

const BASE = '/import/blogplatform';

async function send(path: string, body: BodyInit, json: boolean): Promise<Response> {
  const headers = withCsrfHeader('POST', new Headers({ Accept: 'application/json, application/x-ndjson' }));
  // A FormData body sets its own multipart boundary.
  if (json) headers.set('Content-Type', 'application/json');
  let res: Response;
  try {
    res = await fetch(API_BASE + path, { method: 'POST', headers, credentials: 'same-origin', body });
  } catch (err) {
    throw networkError(err);
  }
  if (!res.ok) {
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    throw toApiError(res.status, parsed);
  }
  return res;
}

/**
 * Read a newline-delimited JSON answer: `progress` records go to the callback,
 * the `result` record is returned, an `error` record (a failure after the
 * headers were sent) is thrown as ApiError.
 */
async function readNdjson<P, R>(res: Response, onProgress: (p: P) => void): Promise<R> {
  if (!res.body) throw new ApiError(res.status, 'HTTP_ERROR', 'The server sent an empty response.');
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let result: R | undefined;
  const handle = (line: string) => {
    if (!line.trim()) return;
    const record = JSON.parse(line) as { type: string; error?: { code: string; message: string } };
    if (record.type === 'progress') onProgress(record as P);
    else if (record.type === 'result') result = record as R;
    else if (record.type === 'error' && record.error) {
      throw new ApiError(res.status, record.error.code, record.error.message);
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffered += value;
      let nl = buffered.indexOf('\n');
      while (nl >= 0) {
        handle(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        nl = buffered.indexOf('\n');
      }
    }
    handle(buffered);
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw networkError(err);
  }
  if (result === undefined) {
    throw new ApiError(res.status, 'HTTP_ERROR', 'The answer ended before the result: the import may have stopped.');
  }
  return result;
}

/** Analyze an export file (.xml or .xml.gz) as it uploads; nothing is stored. */
export async function analyzeExport(file: File): Promise<Analysis> {
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await send(`${BASE}/analyze`, form, false);
  const envelope = (await res.json()) as { success?: boolean; data?: Analysis };
  if (envelope.success !== true || !envelope.data) {
    throw new ApiError(res.status, 'HTTP_ERROR', 'The server answered with an unexpected response.');
  }
  return envelope.data;
}

export const prepareImport = (postTypes: PreparePostType[]) => post<PrepareResult>(`${BASE}/prepare`, { postTypes });

/** Run the import with progress records (`?stream=1`); a refusal before the first record throws like any call. */
export async function executeImport(
  file: File,
  config: ExecuteConfig,
  onProgress: (p: ImportProgress) => void,
): Promise<ExecuteResult> {
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('config', JSON.stringify(config));
  const res = await send(`${BASE}/execute?stream=1`, form, false);
  return readNdjson<ImportProgress, ExecuteResult & { type?: string }>(res, onProgress);
}

/** Copy attachments into the media library, one progress record per file. */
export async function copyMedia(
  attachments: AttachmentRef[],
  onProgress: (p: MediaProgress) => void,
): Promise<MediaCopyResult> {
  const res = await send(`${BASE}/media`, JSON.stringify({ attachments, stream: true }), true);
  return readNdjson<MediaProgress, MediaCopyResult>(res, onProgress);
}

/** Replace old URLs in entries, and set the featured images the import listed to their copied items. */
export const rewriteUrls = (input: {
  urlMap: Record<string, string>;
  featuredImages: FeaturedImage[];
  mediaIds: Record<string, string>;
}) => post<RewriteResult>(`${BASE}/rewrite-urls`, input);
