import type { FieldDefinition, FieldType } from '../fields/types.js';
import type { UrlPattern } from './url-pattern.js';

/** What a collection supports (spec: supports). */
export const SUPPORTS = ['drafts', 'revisions', 'editLock', 'search', 'seo', 'comments'] as const;
export type Support = (typeof SUPPORTS)[number];
export const DEFAULT_SUPPORTS: Support[] = ['drafts', 'revisions', 'editLock'];

export interface FieldInfo extends FieldDefinition {
  id: string;
  collectionId: string;
  /** Column holding the value; null for relation-bound references. */
  column: string | null;
  /** Column a legacy reference wrote before it was converted to a relation. */
  retiredColumn: string | null;
  sortOrder: number;
  createdAt: string;
  updatedAt: string;
}

export interface CollectionInfo {
  id: string;
  slug: string;
  label: string;
  labelSingular: string;
  description: string | null;
  icon: string | null;
  supports: Support[];
  /** Makes entries routable (sitemaps, hreflang); null when the collection has no public URLs. */
  urlPattern: UrlPattern | null;
  sortOrder: number;
  source: string;
  createdAt: string;
  updatedAt: string;
  /** Ordered by sortOrder. */
  fields: FieldInfo[];
  table: string;
}

export interface RelationInfo {
  id: string;
  name: string;
  parentCollectionId: string;
  childCollectionId: string;
  parentFieldId: string | null;
  childFieldId: string | null;
  /** A child entry may hold more than one parent. */
  multiple: boolean;
  createdAt: string;
}

export interface BlockTypeVersion {
  version: number;
  label: string;
  fields: FieldDefinition[];
  createdAt: string;
}

export interface BlockTypeInfo {
  id: string;
  slug: string;
  label: string;
  description: string | null;
  icon: string | null;
  activeVersion: number;
  versions: BlockTypeVersion[];
  createdAt: string;
  updatedAt: string;
}

/** The whole schema at one version, as loaded into the cache. */
export interface SchemaSnapshot {
  version: number;
  collections: Map<string, CollectionInfo>;
  collectionsById: Map<string, CollectionInfo>;
  relations: Map<string, RelationInfo>;
  relationsById: Map<string, RelationInfo>;
  blockTypes: Map<string, BlockTypeInfo>;
}

export type { FieldDefinition, FieldType };
