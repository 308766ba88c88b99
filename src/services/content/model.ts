/** Shapes of the content domain. */

export type EntryStatus = 'draft' | 'published' | 'scheduled';

/** A row of an entry table: system columns plus one column per field. */
export interface EntryRow {
  id: string;
  slug: string | null;
  status: EntryStatus;
  locale: string;
  translation_group: string;
  author_id: string | null;
  primary_byline_id: string | null;
  created_at: string;
  updated_at: string;
  published_at: string | null;
  scheduled_at: string | null;
  deleted_at: string | null;
  version: number;
  live_revision_id: string | null;
  draft_revision_id: string | null;
  [column: string]: unknown;
}

export interface BylineView {
  id: string;
  displayName: string;
  slug: string;
  bio: string | null;
  avatarUrl: string | null;
  websiteUrl: string | null;
  userId: string | null;
  locale: string;
  translationGroup: string;
}

export interface CreditView {
  byline: BylineView;
  roleLabel: string | null;
}

export interface LinkedEntry {
  id: string;
  slug: string | null;
  collection: string;
  title: string | null;
  locale: string;
  translationGroup: string;
  status: string;
}

export interface ReferencePage {
  items: LinkedEntry[];
  nextCursor?: string;
  /** Route that pages on (relative to the API root). */
  next?: string;
}

export interface ContentItem {
  id: string;
  type: string;
  slug: string | null;
  status: EntryStatus | 'trashed';
  locale: string;
  translationGroup: string;
  data: Record<string, unknown>;
  authorId: string | null;
  primaryBylineId: string | null;
  byline: BylineView | null;
  bylines: CreditView[];
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  scheduledAt: string | null;
  trashedAt: string | null;
  /** A pending draft is staged on top of the live version. */
  hasDraft: boolean;
  liveRevisionId: string | null;
  draftRevisionId: string | null;
  references?: Record<string, ReferencePage>;
}

/** Staged reference selections: field slug → translation groups, in order. */
export type StagedRefs = Record<string, string[]>;

/** Byline credits as written: byline id and optional role label, in order. */
export interface CreditInput {
  bylineId: string;
  roleLabel?: string | null;
}
