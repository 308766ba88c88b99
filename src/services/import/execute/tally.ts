import type { AnalysisWarning } from '../analyze.js';

/**
 * The execute result: every item of the file ends in exactly one bucket
 * (imported, skipped or failed) with a reason, per collection and per post
 * type, so a report can show that nothing went missing.
 */

export interface Bucket {
  imported: number;
  skipped: number;
  failed: number;
  /** Skipped and failed counts by reason code. */
  byReason: Record<string, number>;
}

export interface ItemError {
  sourceId: string;
  postType: string;
  title: string;
  code: string;
  message: string;
}

export interface SmallCounts {
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
  /** True when no item failed. */
  success: boolean;
  /** Items of the file (every `<item>`), each counted once below. */
  items: number;
  imported: number;
  skipped: number;
  failed: number;
  /** First failures in detail (at most MAX_ERRORS; `failed` has the full count). */
  errors: ItemError[];
  byCollection: Record<string, Bucket>;
  byPostType: Record<string, Bucket>;
  sections?: SmallCounts;
  taxonomies: Record<
    string,
    { created: number; existing: number; failed: number; assignments: number; errors: string[] }
  >;
  /**
   * Comments written, and those left out by reason (`byReason` adds up to `skipped`); `changed`
   * counts comments written with a documented change (`author_url_dropped`).
   */
  comments: SmallCounts & { byReason: Record<string, number>; changed: Record<string, number> };
  menus: { created: number; skipped: number; failed: number; items: SmallCounts };
  bylines: { created: number; reused: number };
  /** Content the converter kept as marked blocks instead of converting, by kind. */
  unconverted: Record<string, number>;
  /** What the media step copies: attachments, and the entries whose featured image waits for it. */
  media: {
    attachments: AttachmentRef[];
    featuredImages: Array<{ collection: string; entryId: string; field: string; url: string }>;
  };
  /** What the reader changed in the file's text (the analysis warnings, see analyze.ts). */
  warnings: AnalysisWarning[];
  durationMs: number;
}

const MAX_ERRORS = 200;

const bucket = (): Bucket => ({ imported: 0, skipped: 0, failed: 0, byReason: {} });

export class Tally {
  readonly result: ExecuteResult = {
    success: true,
    items: 0,
    imported: 0,
    skipped: 0,
    failed: 0,
    errors: [],
    byCollection: {},
    byPostType: {},
    taxonomies: {},
    comments: { imported: 0, skipped: 0, failed: 0, byReason: {}, changed: {} },
    menus: { created: 0, skipped: 0, failed: 0, items: { imported: 0, skipped: 0, failed: 0 } },
    bylines: { created: 0, reused: 0 },
    unconverted: {},
    media: { attachments: [], featuredImages: [] },
    warnings: [],
    durationMs: 0,
  };

  private buckets(postType: string, collection: string | null): Bucket[] {
    const r = this.result;
    r.byPostType[postType] ??= bucket();
    const out = [r.byPostType[postType]];
    if (collection) {
      r.byCollection[collection] ??= bucket();
      out.push(r.byCollection[collection]);
    }
    return out;
  }

  imported(postType: string, collection: string | null): void {
    this.result.imported++;
    for (const b of this.buckets(postType, collection)) b.imported++;
  }

  skipped(postType: string, collection: string | null, reason: string): void {
    this.result.skipped++;
    for (const b of this.buckets(postType, collection)) {
      b.skipped++;
      b.byReason[reason] = (b.byReason[reason] ?? 0) + 1;
    }
  }

  failed(
    item: { postId: string; postType: string; title: string },
    collection: string | null,
    code: string,
    message: string,
  ): void {
    const r = this.result;
    r.failed++;
    r.success = false;
    for (const b of this.buckets(item.postType, collection)) {
      b.failed++;
      b.byReason[code] = (b.byReason[code] ?? 0) + 1;
    }
    if (r.errors.length < MAX_ERRORS) {
      r.errors.push({ sourceId: item.postId, postType: item.postType, title: item.title, code, message });
    }
  }

  /** Comments left out: `reason` is a stable code (entry_not_imported, exists, comments_disabled, pingback …). */
  commentsSkipped(reason: string, count = 1): void {
    if (count <= 0) return;
    const c = this.result.comments;
    c.skipped += count;
    c.byReason[reason] = (c.byReason[reason] ?? 0) + count;
  }

  unconverted(kind: string, count: number): void {
    this.result.unconverted[kind] = (this.result.unconverted[kind] ?? 0) + count;
  }
}
