import type { FieldType } from '../fields/types.js';
import type { CollectionInfo, SchemaSnapshot } from '../schema/model.js';

/**
 * Which WordPress post types become content, which collection each lands in
 * by default, the fields an import fills, and how a mapping compares with the
 * current schema (the review states of the contract).
 */

/** Post types that are site machinery, not content: imported another way (menus, sections, media) or not at all. */
export const INTERNAL_POST_TYPES: Readonly<Record<string, string>> = {
  attachment: 'media: listed for the media copy step',
  nav_menu_item: 'menus: imported as menu items',
  wp_block: 'reusable blocks: imported as sections',
  revision: 'revision history is not imported',
  customize_changeset: 'customizer state is not content',
  oembed_cache: 'embed cache is not content',
  user_request: 'privacy requests are not content',
  wp_template: 'theme templates are not content',
  wp_template_part: 'theme template parts are not content',
  wp_global_styles: 'theme styles are not content',
  wp_navigation: 'block navigation is not imported (classic menus are)',
  custom_css: 'theme CSS is not content',
  wp_font_family: 'fonts are not content',
  wp_font_face: 'fonts are not content',
  'scheduled-action': 'background jobs are not content',
};

/** Taxonomies of WordPress internals, never imported as terms. */
export const INTERNAL_TAXONOMIES = new Set([
  'nav_menu',
  'link_category',
  'post_format',
  'wp_theme',
  'wp_template_part_area',
]);

export function isInternalType(type: string): boolean {
  return Object.hasOwn(INTERNAL_POST_TYPES, type);
}

/** Where a post type lands unless the mapping says otherwise. */
export function defaultCollection(type: string): string {
  if (type === 'post') return 'posts';
  if (type === 'page') return 'pages';
  const slug = type
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '');
  return (slug || 'imported').slice(0, 63);
}

/** A term's slug as WordPress percent-encodes it, decoded (a malformed escape is kept as it is). */
export function decodeTermSlug(slug: string): string {
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
}

/**
 * One term of the export, however often it is listed (as `<wp:category>` and
 * again as a `<wp:term>` of taxonomy `category`, or named by items): analysis
 * and execute count and create terms by this key.
 */
export function sourceTermKey(wpTaxonomy: string, slug: string): string {
  return `${wpTaxonomy}\0${decodeTermSlug(slug)}`;
}

/** A pingback or trackback: listed with the comments in an export, never imported as one. */
export function isPingback(type: string): boolean {
  return type !== '' && type !== 'comment';
}

/** Our taxonomy name for a WordPress taxonomy (the starter blog's names for the two built-in ones). */
export function taxonomyName(wpTaxonomy: string): string {
  if (wpTaxonomy === 'category') return 'category';
  if (wpTaxonomy === 'post_tag') return 'tags';
  return defaultCollection(wpTaxonomy);
}

export interface SuggestedField {
  slug: string;
  label: string;
  type: FieldType;
  required: boolean;
  searchable: boolean;
}

/** What an import of a post type writes, when the items use it. */
export interface TypeUsage {
  excerpt: boolean;
  featuredImage: boolean;
}

export function suggestedFields(usage: TypeUsage): SuggestedField[] {
  const fields: SuggestedField[] = [
    { slug: 'title', label: 'Title', type: 'string', required: true, searchable: true },
    { slug: 'body', label: 'Body', type: 'portableText', required: false, searchable: true },
  ];
  if (usage.excerpt)
    fields.push({ slug: 'excerpt', label: 'Excerpt', type: 'text', required: false, searchable: true });
  if (usage.featuredImage) {
    fields.push({ slug: 'featured_image', label: 'Featured image', type: 'image', required: false, searchable: false });
  }
  return fields;
}

export type ReviewState = 'Ready' | 'New collection' | 'Add fields' | 'Incompatible';

/**
 * Something the import of a mapping would leave out unless the person acts:
 * `comments_disabled` — the collection does not accept comments, so the
 * type's `count` comments would be skipped; prepare enables them when asked
 * (`enableComments`).
 */
export interface ReviewWarning {
  code: 'comments_disabled';
  count: number;
  message: string;
}

export interface Review {
  state: ReviewState;
  /** Fields the prepare step would add. */
  missingFields: string[];
  /** Existing fields whose type differs from what the import writes: they block the mapping. */
  incompatibleFields: Array<{ slug: string; expected: FieldType; actual: FieldType }>;
  reason?: string;
  warnings: ReviewWarning[];
}

/** What else of a post type's items a mapping receives: comments (pingbacks and trackbacks excluded). */
export interface MappingUsage {
  comments: number;
}

/** Compare what a mapping needs with the collection as it is now. */
export function review(
  snap: SchemaSnapshot,
  collection: string,
  fields: SuggestedField[],
  usage: MappingUsage = { comments: 0 },
): Review {
  const c = snap.collections.get(collection);
  if (!c) {
    // Prepare creates it with comments on (prepare.ts, IMPORT_SUPPORTS).
    return { state: 'New collection', missingFields: fields.map((f) => f.slug), incompatibleFields: [], warnings: [] };
  }
  return reviewExisting(c, fields, usage);
}

/** Comments a collection would skip: all of them when it does not accept comments. */
export function commentWarnings(c: CollectionInfo, usage: MappingUsage): ReviewWarning[] {
  if (!usage.comments || c.supports.includes('comments')) return [];
  return [
    {
      code: 'comments_disabled',
      count: usage.comments,
      message: `"${c.slug}" does not accept comments: ${usage.comments} comment${usage.comments === 1 ? '' : 's'} would be skipped (prepare with enableComments turns comments on)`,
    },
  ];
}

export function reviewExisting(
  c: CollectionInfo,
  fields: SuggestedField[],
  usage: MappingUsage = { comments: 0 },
): Review {
  const warnings = commentWarnings(c, usage);
  const missingFields: string[] = [];
  const incompatibleFields: Review['incompatibleFields'] = [];
  for (const f of fields) {
    const existing = c.fields.find((x) => x.slug === f.slug);
    if (!existing) missingFields.push(f.slug);
    else if (existing.type !== f.type)
      incompatibleFields.push({ slug: f.slug, expected: f.type, actual: existing.type });
  }
  if (incompatibleFields.length) {
    const list = incompatibleFields
      .map((f) => `"${f.slug}" is ${f.actual}, the import writes ${f.expected}`)
      .join('; ');
    return {
      state: 'Incompatible',
      missingFields,
      incompatibleFields,
      reason: `Existing fields of "${c.slug}" have another type (${list}); the import never changes a field's type`,
      warnings,
    };
  }
  return { state: missingFields.length ? 'Add fields' : 'Ready', missingFields, incompatibleFields, warnings };
}

/** A field slug for a custom field (post meta) key, or null when none can be made. */
export function metaFieldSlug(key: string): string | null {
  const slug = key
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '')
    .slice(0, 63);
  return slug || null;
}

/** WordPress status to ours: only `publish` is published; everything else is a draft. */
export function mapStatus(status: string): 'published' | 'draft' {
  return status === 'publish' ? 'published' : 'draft';
}
