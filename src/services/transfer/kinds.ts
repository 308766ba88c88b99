import { MEDIA_FILE_KIND } from './manifest.js';

/**
 * The record kinds of a site package: which system table each comes from,
 * the key it is read in (keyset order), the columns that name a user (an
 * import maps them to the target site's users) and what is left out.
 *
 * The list is in dependency order: an import writes the kinds in this order,
 * so every row is written after the rows it points at. Entry tables come
 * right after the schema and media they use (`ENTRIES_AFTER`).
 *
 * Not in a package, and why: sessions, passkeys, sign-in challenges, magic
 * links, invites, sign-up requests, tokens, OAuth grants, identities linked
 * through login providers and provider sign-ins in flight (credentials
 * belong to one site), edit locks and rate-limit hits (short-lived), the 404
 * log (the old address's traffic), search indexes, term counts and the media
 * usage index (derived: the import rebuilds them).
 */
export interface RecordKind {
  kind: string;
  table: string;
  /** Primary key columns, the keyset order of an export. */
  key: readonly string[];
  /** Columns exported; all columns of the table when absent. */
  columns?: readonly string[];
  /** Columns holding a user ID. */
  users?: readonly string[];
  /** Only rows passing this filter (column = value). */
  where?: { column: string; value: string };
  /** Part of the package only when this export option is on. */
  option?: 'comments';
  /**
   * Columns that point at rows of another kind (foreign keys): a record whose
   * parent is not on the site when it is imported (deleted while the export
   * ran) is dropped, or the reference cleared when it may be empty.
   */
  parents?: readonly Parent[];
}

export interface Parent {
  column: string;
  table: string;
  key: string;
  missing: 'drop' | 'clear';
}

const parent = (column: string, table: string, key: string, missing: Parent['missing'] = 'drop'): Parent => ({
  column,
  table,
  key,
  missing,
});

export const RECORD_KINDS: readonly RecordKind[] = [
  { kind: 'settings', table: '_cms_settings', key: ['key'] },
  {
    kind: 'users',
    table: '_cms_users',
    key: ['id'],
    columns: ['id', 'email', 'name', 'role', 'disabled', 'created_at', 'updated_at'],
  },
  { kind: 'allowedDomains', table: '_cms_allowed_domains', key: ['domain'] },
  { kind: 'collections', table: '_cms_collections', key: ['id'] },
  { kind: 'fields', table: '_cms_fields', key: ['id'], parents: [parent('collection_id', '_cms_collections', 'id')] },
  { kind: 'blockTypes', table: '_cms_block_types', key: ['id'] },
  {
    kind: 'blockTypeVersions',
    table: '_cms_block_type_versions',
    key: ['block_type_id', 'version'],
    parents: [parent('block_type_id', '_cms_block_types', 'id')],
  },
  {
    kind: 'relations',
    table: '_cms_relations',
    key: ['id'],
    parents: [
      parent('parent_collection_id', '_cms_collections', 'id'),
      parent('child_collection_id', '_cms_collections', 'id'),
      parent('parent_field_id', '_cms_fields', 'id', 'clear'),
      parent('child_field_id', '_cms_fields', 'id', 'clear'),
    ],
  },
  {
    kind: 'searchSettings',
    table: '_cms_search_collections',
    key: ['collection_id'],
    columns: ['collection_id', 'tokenizer', 'weights'],
    parents: [parent('collection_id', '_cms_collections', 'id')],
  },
  { kind: 'taxonomies', table: '_cms_taxonomies', key: ['name'] },
  {
    kind: 'taxonomyDefs',
    table: '_cms_taxonomy_defs',
    key: ['id'],
    parents: [parent('taxonomy', '_cms_taxonomies', 'name')],
  },
  { kind: 'terms', table: '_cms_terms', key: ['id'], parents: [parent('taxonomy', '_cms_taxonomies', 'name')] },
  { kind: 'mediaFolders', table: '_cms_media_folders', key: ['id'], users: ['created_by'] },
  {
    kind: 'media',
    table: '_cms_media',
    key: ['id'],
    users: ['uploaded_by'],
    where: { column: 'status', value: 'ready' },
    parents: [parent('folder_id', '_cms_media_folders', 'id', 'clear')],
  },
  { kind: 'bylines', table: '_cms_bylines', key: ['id'], users: ['user_id'] },
  // entries (one entry table per collection) are written here
  { kind: 'revisions', table: '_cms_revisions', key: ['id'], users: ['created_by'] },
  {
    kind: 'links',
    table: '_cms_links',
    key: ['relation_id', 'parent_group', 'child_group'],
    parents: [parent('relation_id', '_cms_relations', 'id')],
  },
  {
    kind: 'entryBylines',
    table: '_cms_entry_bylines',
    key: ['collection_id', 'entry_id', 'byline_id'],
    parents: [parent('byline_id', '_cms_bylines', 'id')],
  },
  { kind: 'entrySchedules', table: '_cms_entry_schedules', key: ['collection_id', 'entry_id'], users: ['user_id'] },
  { kind: 'contentTerms', table: '_cms_content_terms', key: ['collection_id', 'entry_group', 'term_group'] },
  { kind: 'menus', table: '_cms_menus', key: ['id'] },
  { kind: 'menuItems', table: '_cms_menu_items', key: ['id'], parents: [parent('menu_id', '_cms_menus', 'id')] },
  { kind: 'sections', table: '_cms_sections', key: ['id'] },
  { kind: 'widgetAreas', table: '_cms_widget_areas', key: ['id'] },
  { kind: 'widgets', table: '_cms_widgets', key: ['id'], parents: [parent('area_id', '_cms_widget_areas', 'id')] },
  { kind: 'seo', table: '_cms_seo', key: ['collection', 'entry_id'] },
  { kind: 'redirects', table: '_cms_redirects', key: ['id'], users: ['created_by'] },
  {
    kind: 'comments',
    table: '_cms_comments',
    key: ['id'],
    users: ['user_id', 'moderated_by'],
    // The rate-limit fingerprint of the commenter belongs to the old site.
    columns: [
      'id',
      'collection',
      'entry_id',
      'root_id',
      'parent_id',
      'status',
      'author_name',
      'author_email',
      'author_url',
      'user_id',
      'body',
      'spam_reasons',
      'user_agent',
      'created_at',
      'updated_at',
      'moderated_at',
      'moderated_by',
    ],
    option: 'comments',
  },
];

/** The kind of the entry tables' records; each file names its collection. */
export const ENTRIES_KIND = 'entries';

/** Entry records follow this kind (everything entries point at is written before them). */
export const ENTRIES_AFTER = 'bylines';

/** Entry system columns holding a user ID. */
export const ENTRY_USER_COLUMNS: readonly string[] = ['author_id'];

/** Every record kind a package may hold. */
export const KIND_NAMES: ReadonlySet<string> = new Set([...RECORD_KINDS.map((k) => k.kind), ENTRIES_KIND]);

export function recordKind(kind: string): RecordKind | undefined {
  return RECORD_KINDS.find((k) => k.kind === kind);
}

/**
 * Where files of a kind come in an import: the order of RECORD_KINDS, entry
 * files right after ENTRIES_AFTER, media bytes with their records. An import
 * reads and writes files in this order whatever order the manifest lists
 * them in, so no row is written before the rows it points at.
 */
export function importRank(kind: string): number {
  const at = (name: string) => RECORD_KINDS.findIndex((k) => k.kind === name);
  if (kind === ENTRIES_KIND) return at(ENTRIES_AFTER) + 0.5;
  if (kind === MEDIA_FILE_KIND) return at('media') + 0.25;
  const i = at(kind);
  return i === -1 ? RECORD_KINDS.length : i;
}
