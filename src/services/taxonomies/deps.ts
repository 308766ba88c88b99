import { isoNow } from '../../core/clock.js';
import { notFound } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { TaxonomiesTable } from '../../db/tables-structure.js';
import type { ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
import type { SchemaSnapshot } from '../schema/model.js';

/** What the parts of the taxonomy domain are built from. */
export interface TaxonomyDeps {
  ctx: ServiceContext;
  schema: SchemaService;
}

export const now = (deps: TaxonomyDeps) => isoNow(deps.ctx.clock);

export async function loadTaxonomy(db: Kdb, name: string): Promise<TaxonomiesTable> {
  const row = await db.selectFrom('_cms_taxonomies').selectAll().where('name', '=', name).executeTakeFirst();
  if (!row) throw notFound(`Taxonomy "${name}"`);
  return row;
}

/**
 * Load the taxonomy row and, on PostgreSQL, lock it until the transaction
 * ends: every change to a taxonomy's term structure (create, move, reorder,
 * delete) takes this lock, so concurrent writers queue instead of computing
 * positions from the same stale state. SQLite transactions are serialised.
 */
export async function lockTaxonomy(deps: TaxonomyDeps, trx: Kdb, name: string): Promise<TaxonomiesTable> {
  const q = trx.selectFrom('_cms_taxonomies').selectAll().where('name', '=', name);
  const row = await (deps.ctx.dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
  if (!row) throw notFound(`Taxonomy "${name}"`);
  return row;
}

/**
 * IDs of the collections the taxonomy applies to that still exist. Takes a
 * snapshot read before any transaction: on SQLite the schema cache's check
 * would wait for the connection the transaction holds.
 */
export function collectionIdsOf(snap: SchemaSnapshot, slugs: string[]): string[] {
  return slugs.map((s) => snap.collections.get(s)?.id).filter((id): id is string => id !== undefined);
}
