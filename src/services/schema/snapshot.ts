import type { Kdb } from '../../db/connect.js';
import type {
  BlockTypesTable,
  BlockTypeVersionsTable,
  CollectionsTable,
  FieldsTable,
  RelationsTable,
} from '../../db/tables.js';
import { entryTable } from './ddl.js';
import type {
  BlockTypeInfo,
  CollectionInfo,
  FieldInfo,
  FieldType,
  RelationInfo,
  SchemaSnapshot,
  Support,
} from './model.js';
import { decodeUrlPattern } from './url-pattern.js';

/** Re-read the version row at most this often; a schema write in this process clears the cache at once. */
const VERSION_CHECK_MS = 1_000;

const parseJson = <T>(text: string | null): T | undefined => (text === null ? undefined : (JSON.parse(text) as T));

export async function readSchemaVersion(db: Kdb): Promise<number> {
  const row = await db.selectFrom('_cms_meta').select('value').where('key', '=', 'schema_version').executeTakeFirst();
  return Number(row?.value ?? 0);
}

/** Bump the version row inside a schema-changing transaction. */
export async function bumpSchemaVersion(db: Kdb): Promise<void> {
  const current = await readSchemaVersion(db);
  await db
    .updateTable('_cms_meta')
    .set({ value: String(current + 1) })
    .where('key', '=', 'schema_version')
    .execute();
}

async function load(db: Kdb, version: number): Promise<SchemaSnapshot> {
  const [collections, fields, relations, blockTypes, versions] = await Promise.all([
    db.selectFrom('_cms_collections').selectAll().orderBy('sort_order').orderBy('slug').execute(),
    db.selectFrom('_cms_fields').selectAll().orderBy('sort_order').orderBy('created_at').execute(),
    db.selectFrom('_cms_relations').selectAll().execute(),
    db.selectFrom('_cms_block_types').selectAll().orderBy('slug').execute(),
    db.selectFrom('_cms_block_type_versions').selectAll().orderBy('version').execute(),
  ]);
  return buildSnapshot(version, { collections, fields, relations, blockTypes, versions });
}

/** The schema tables' rows a snapshot is made from (fields in display order, versions in version order). */
export interface SchemaRows {
  collections: CollectionsTable[];
  fields: FieldsTable[];
  relations: RelationsTable[];
  blockTypes: BlockTypesTable[];
  versions: BlockTypeVersionsTable[];
}

/**
 * A snapshot from the schema tables' rows: what the cache loads, and what a
 * site import checks a package's entries against before its schema is written.
 */
export function buildSnapshot(version: number, rows: SchemaRows): SchemaSnapshot {
  const { collections, fields, relations, blockTypes, versions } = rows;
  const snap: SchemaSnapshot = {
    version,
    collections: new Map(),
    collectionsById: new Map(),
    relations: new Map(),
    relationsById: new Map(),
    blockTypes: new Map(),
  };
  for (const c of collections) {
    const info: CollectionInfo = {
      id: c.id,
      slug: c.slug,
      label: c.label,
      labelSingular: c.label_singular,
      description: c.description,
      icon: c.icon,
      supports: JSON.parse(c.supports) as Support[],
      urlPattern: decodeUrlPattern(c.url_pattern),
      sortOrder: Number(c.sort_order),
      source: c.source,
      createdAt: c.created_at,
      updatedAt: c.updated_at,
      fields: [],
      table: entryTable(c.slug),
    };
    snap.collections.set(c.slug, info);
    snap.collectionsById.set(c.id, info);
  }
  for (const f of fields) {
    const owner = snap.collectionsById.get(f.collection_id);
    if (!owner) continue;
    const info: FieldInfo = {
      id: f.id,
      collectionId: f.collection_id,
      slug: f.slug,
      label: f.label,
      type: f.type as FieldType,
      column: f.column_name,
      retiredColumn: f.retired_column,
      required: Boolean(f.required),
      unique: Boolean(f.is_unique),
      searchable: Boolean(f.searchable),
      indexed: Boolean(f.indexed),
      translatable: Boolean(f.translatable),
      defaultValue: parseJson(f.default_value),
      validation: parseJson(f.validation),
      widget: f.widget ?? undefined,
      options: parseJson(f.options),
      sortOrder: Number(f.sort_order),
      createdAt: f.created_at,
      updatedAt: f.updated_at,
    };
    owner.fields.push(info);
  }
  for (const r of relations) {
    const info: RelationInfo = {
      id: r.id,
      name: r.name,
      parentCollectionId: r.parent_collection_id,
      childCollectionId: r.child_collection_id,
      parentFieldId: r.parent_field_id,
      childFieldId: r.child_field_id,
      multiple: Boolean(r.multiple),
      createdAt: r.created_at,
    };
    snap.relations.set(r.name, info);
    snap.relationsById.set(r.id, info);
  }
  const byTypeId = new Map<string, BlockTypeInfo>();
  for (const b of blockTypes) {
    const info: BlockTypeInfo = {
      id: b.id,
      slug: b.slug,
      label: b.label,
      description: b.description,
      icon: b.icon,
      activeVersion: Number(b.active_version),
      versions: [],
      createdAt: b.created_at,
      updatedAt: b.updated_at,
    };
    snap.blockTypes.set(b.slug, info);
    byTypeId.set(b.id, info);
  }
  for (const v of versions) {
    byTypeId.get(v.block_type_id)?.versions.push({
      version: Number(v.version),
      label: v.label,
      fields: JSON.parse(v.fields),
      createdAt: v.created_at,
    });
  }
  return snap;
}

/**
 * Process-local schema cache. A schema change is published on the invalidation
 * bus (every process forgets at once); the version row, re-read at most every
 * VERSION_CHECK_MS (in the background, while the snapshot held keeps answering), is the safety net.
 */
export class SchemaCache {
  private snap: SchemaSnapshot | null = null;
  private checkedAt = 0;
  private loading: Promise<SchemaSnapshot> | null = null;
  /** Bumped by invalidate(): a load begun before it is neither joined nor kept after it. */
  private generation = 0;
  private loadingGeneration = -1;

  constructor(private readonly db: Kdb) {}

  async get(): Promise<SchemaSnapshot> {
    if (!this.snap) return this.load();
    if (Date.now() - this.checkedAt >= VERSION_CHECK_MS) {
      // Due for a version check: answer with the snapshot held and check in the background. The caller
      // may be inside a write transaction (a write listener): on SQLite, one connection, a read outside
      // that transaction would wait for it to end, and the transaction would wait for this answer.
      this.load().catch(() => {});
    }
    return this.snap;
  }

  private load(): Promise<SchemaSnapshot> {
    if (this.loading && this.loadingGeneration === this.generation) return this.loading;
    const generation = this.generation;
    const run = async () => {
      const version = await readSchemaVersion(this.db);
      const snap = this.snap && this.snap.version === version ? this.snap : await load(this.db, version);
      if (generation === this.generation) {
        this.snap = snap;
        this.checkedAt = Date.now();
      }
      return snap;
    };
    const loading: Promise<SchemaSnapshot> = run().finally(() => {
      if (this.loading === loading) this.loading = null;
    });
    this.loading = loading;
    this.loadingGeneration = generation;
    return loading;
  }

  /** Read the schema through a transaction (never cached: it may hold uncommitted changes). */
  async fresh(db: Kdb): Promise<SchemaSnapshot> {
    return load(db, await readSchemaVersion(db));
  }

  invalidate(): void {
    this.generation++;
    this.snap = null;
    this.checkedAt = 0;
  }
}
