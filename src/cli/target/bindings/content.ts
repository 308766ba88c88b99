import { type Bindings, bind } from '../operations.js';
import type { GuardQuery, Target } from '../types.js';

const entry = (collection: string, id: string) => ({ collection, id });

/** The guard of a DELETE as its query carries it. */
const guardQuery = (g: GuardQuery) => ({
  ...(g._rev !== undefined ? { _rev: g._rev } : {}),
  ...(g.overrideLock ? { overrideLock: 'true' as const } : {}),
});

/**
 * The content methods that are catalogue operations. `list` (the entries or the trash, by a flag)
 * and `lifecycle` (one of four operations, by name) pick their operation per call and stay
 * written out in each target.
 */
export const CONTENT_OPERATIONS = {
  get: bind('getContent', (collection: string, id: string, locale?: string) => ({
    params: entry(collection, id),
    query: { locale },
  })),
  create: bind('createContent', (collection: string, body: object) => ({ params: { collection }, body })),
  update: bind('updateContent', (collection: string, id: string, body: object) => ({
    params: entry(collection, id),
    body,
  })),
  schedule: bind('scheduleContent', (collection: string, id: string, body: object) => ({
    params: entry(collection, id),
    body,
  })),
  unschedule: bind('unscheduleContent', (collection: string, id: string, guard: GuardQuery) => ({
    params: entry(collection, id),
    query: guardQuery(guard),
  })),
  trash: bind('deleteContent', (collection: string, id: string, guard: GuardQuery) => ({
    params: entry(collection, id),
    query: guardQuery(guard),
  })),
  permanentDelete: bind('permanentDeleteContent', (collection: string, id: string, guard: GuardQuery) => ({
    params: entry(collection, id),
    query: guardQuery(guard),
  })),
  duplicate: bind('duplicateContent', (collection: string, id: string) => ({
    params: entry(collection, id),
    body: {},
  })),
  translations: bind('getContentTranslations', (collection: string, id: string, locale?: string) => ({
    params: entry(collection, id),
    query: { locale },
  })),
} satisfies Bindings<Target['content']>;
