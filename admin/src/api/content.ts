/**
 * Types and queries of the content and schema routes, all through the
 * generated client (./client.ts). Query keys start with the resource so a
 * write can invalidate exactly what it changed.
 */
import { queryOptions } from '@tanstack/react-query';
import type { components } from '../../../generated/api-schema.gen';
import { api, unwrap } from './client';

type S = components['schemas'];
export type ContentItem = S['ContentItem'];
export type ContentSingle = S['ContentSingle'];
export type ContentModel = S['ContentModel'];
export type CollectionModel = ContentModel['collections'][number];
export type FieldDef = S['Field'];
/** A field as block types and repeaters describe it (no id or timestamps). */
export type FieldLike = Omit<S['FieldDefinition'], 'type'> & { type: FieldDef['type'] };
export type FieldType = FieldDef['type'];
export type BlockType = S['BlockType'];
export type EntrySummary = S['EntrySummary'];
export type LinkedEntry = S['LinkedEntry'];
export type Revision = S['ContentRevision'];
export type RevisionList = S['ContentRevisionList'];
export type ContentList = S['ContentList'];
export type LockState = S['EntryLock'];
export type Comparison = S['ContentComparison'];
export type Collection = S['Collection'];
export type FieldInput = S['FieldInput'];
export type Orphan = S['OrphanedTable'];
export type CreditInput = { bylineId: string; roleLabel?: string | null };

export const contentModelQuery = (locale?: string) =>
  queryOptions({
    queryKey: ['content-model', locale ?? ''],
    queryFn: () => unwrap(api.GET('/admin/content/model', { params: { query: { locale } } })),
    staleTime: 30_000,
  });

export const entryQuery = (collection: string, id: string) =>
  queryOptions({
    queryKey: ['content', collection, 'entry', id],
    queryFn: () => unwrap(api.GET('/content/{collection}/{id}', { params: { path: { collection, id } } })),
    staleTime: 0,
  });

export const lockQuery = (collection: string, id: string) =>
  queryOptions({
    queryKey: ['content', collection, 'lock', id],
    queryFn: () => unwrap(api.GET('/content/{collection}/{id}/lock', { params: { path: { collection, id } } })),
  });

export const collectionQuery = (slug: string) =>
  queryOptions({
    queryKey: ['schema', 'collection', slug],
    queryFn: () => unwrap(api.GET('/schema/collections/{slug}', { params: { path: { slug } } })),
  });

export const collectionsQuery = queryOptions({
  queryKey: ['schema', 'collections'],
  queryFn: () => unwrap(api.GET('/schema/collections')),
});

export const blockTypesQuery = queryOptions({
  queryKey: ['schema', 'block-types'],
  queryFn: () => unwrap(api.GET('/schema/block-types')),
});

/**
 * What one entry of a collection is called, in lower case ("recipe"). A collection created without
 * a singular name carries its plural there (the service fills it in): its entries are "entries",
 * so the editor says "New entry", never "New recipes".
 */
export function entryNoun(c: { label: string; labelSingular: string }): string {
  const one = c.labelSingular.trim();
  return one && one.toLowerCase() !== c.label.trim().toLowerCase() ? one.toLowerCase() : 'entry';
}

/** The field whose value names an entry in lists and pickers. */
export function entryTitle(
  item: { data?: Record<string, unknown>; slug?: string | null; id: string },
  titleField?: string | null,
) {
  const v = titleField ? item.data?.[titleField] : undefined;
  if (typeof v === 'string' && v.trim()) return v;
  return item.slug || item.id;
}
