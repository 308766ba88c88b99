import { notFound } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import { titleColumn } from '../content/references.js';
import { dyn } from '../content/rows.js';
import type { SchemaService } from '../schema/index.js';
import type { CollectionInfo } from '../schema/model.js';

export interface EntryFacts {
  id: string;
  slug: string | null;
  title: string | null;
  status: string;
  trashed: boolean;
}

/** Entries of one collection by ID (one statement), for comment views. */
export async function entryFacts(db: Kdb, c: CollectionInfo, ids: string[]): Promise<Map<string, EntryFacts>> {
  const out = new Map<string, EntryFacts>();
  if (!ids.length) return out;
  const title = titleColumn(c);
  const rows: Array<Record<string, unknown>> = await dyn(db)
    .selectFrom(c.table)
    .select(['id', 'slug', 'status', 'deleted_at', ...(title ? [`${title} as _title`] : [])])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  for (const r of rows) {
    out.set(r.id as string, {
      id: r.id as string,
      slug: (r.slug as string | null) ?? null,
      title: typeof r._title === 'string' ? r._title : null,
      status: r.status as string,
      trashed: r.deleted_at !== null,
    });
  }
  return out;
}

/**
 * A published, non-trashed entry of a collection, or 404. Drafts and trashed
 * entries look missing to the public (never "forbidden": that would reveal them).
 */
export async function publishedEntry(
  db: Kdb,
  schema: SchemaService,
  collection: string,
  id: string,
): Promise<{ c: CollectionInfo; entry: EntryFacts }> {
  const c = (await schema.snapshot()).collections.get(collection);
  if (!c) throw notFound(`Collection "${collection}"`);
  const entry = (await entryFacts(db, c, [id])).get(id);
  if (entry?.status !== 'published' || entry.trashed) throw notFound(`Entry "${id}" in "${collection}"`);
  return { c, entry };
}
