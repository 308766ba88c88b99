/**
 * Row types of the public-side tables (migration 010): comments, redirects,
 * the 404 log and entry SEO. Flags are integers 0/1, instants ISO 8601 UTC text.
 */

export interface CommentsTable {
  id: string;
  collection: string;
  entry_id: string;
  /** Top-level comment of the thread (its own ID for a top-level comment). */
  root_id: string;
  /** The comment replied to; null for a top-level comment. */
  parent_id: string | null;
  /** pending, approved, spam, trash. */
  status: string;
  author_name: string;
  author_email: string | null;
  author_url: string | null;
  user_id: string | null;
  /** HTML-escaped plain text. */
  body: string;
  /** JSON array of heuristic names that routed the comment to spam. */
  spam_reasons: string | null;
  /** SHA-256 of the client's rate-limit key (IP or /64), for duplicate detection; never the IP itself. */
  client_key: string | null;
  user_agent: string | null;
  created_at: string;
  updated_at: string;
  moderated_at: string | null;
  moderated_by: string | null;
}

export interface RedirectsTable {
  id: string;
  source: string;
  /** exact, prefix or pattern (derived from the source). */
  kind: string;
  target: string;
  status_code: number;
  enabled: number;
  note: string | null;
  hits: number;
  last_hit_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface NotFoundTable {
  id: string;
  path: string;
  /** '' when the request carried no usable referrer. */
  referrer: string;
  count: number;
  first_seen: string;
  last_seen: string;
}

export interface SeoTable {
  collection: string;
  entry_id: string;
  title: string | null;
  description: string | null;
  canonical: string | null;
  noindex: number;
  updated_at: string;
}

export interface PublicTables {
  _cms_comments: CommentsTable;
  _cms_redirects: RedirectsTable;
  _cms_not_found: NotFoundTable;
  _cms_seo: SeoTable;
}
