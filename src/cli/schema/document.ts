import type { BlockType, Collection, Field, FieldInput, Target } from '../target/types.js';

/**
 * A schema document: every collection (with its fields, in order) and every
 * block type (with its versions), as `cms schema export` writes it and
 * `cms schema apply` reads it. IDs and timestamps are left out, so the same
 * schema exported from two sites gives the same document.
 */
export interface SchemaDocument {
  version: 1;
  collections: CollectionDoc[];
  blockTypes: BlockTypeDoc[];
}

/**
 * A collection as createCollection takes it: slug, label, fields and every
 * other property the API shows (labelSingular, description, icon, supports,
 * urlPattern …), so a property added to collections later is exported too.
 */
export interface CollectionDoc {
  slug: string;
  label: string;
  fields: FieldDoc[];
  [property: string]: unknown;
}

/** A field as createField takes it; reference ends also name their relation (see relationRole). */
export type FieldDoc = Omit<FieldInput, 'sortOrder'>;

export interface BlockTypeDoc {
  slug: string;
  label: string;
  description?: string | null;
  icon?: string | null;
  /** Defaults to the last version. */
  activeVersion?: number;
  /** In order; a site that lacks the block type gets them all, with the same numbers. */
  versions: Array<{ version: number; label: string; fields: FieldDoc[] }>;
}

type Validation = Record<string, unknown>;

export const validationOf = (f: { validation?: Validation }): Validation => f.validation ?? {};

/**
 * Which end of a relation a field of a document is: the parent created the
 * relation (it carries targetCollection), the child is bound to it by name
 * (`relation` only); `relationSide` decides within one collection.
 */
export function relationRole(field: FieldDoc): 'parent' | 'child' | null {
  if (field.type !== 'reference') return null;
  const v = validationOf(field);
  if (v.relationSide === 'parent' || v.relationSide === 'child') return v.relationSide;
  if (typeof v.targetCollection === 'string') return 'parent';
  return typeof v.relation === 'string' ? 'child' : null;
}

/**
 * The API shows both ends of a relation alike (relation, targetCollection =
 * the other end, multiple). The parent is the field that created it, and
 * the relation is named `<collection>_<field>` after it: a field whose
 * collection starts the name is the parent (the longer collection slug wins
 * when both ends' slugs do), even after the field was renamed.
 */
function exportedRole(collection: string, field: Field): 'parent' | 'child' {
  const v = validationOf(field);
  if (v.relationSide === 'parent' || v.relationSide === 'child') return v.relationSide;
  const relation = String(v.relation);
  if (relation === `${collection}_${field.slug}`) return 'parent';
  const other = typeof v.targetCollection === 'string' ? v.targetCollection : '';
  const mine = relation.startsWith(`${collection}_`);
  const theirs = other !== '' && relation.startsWith(`${other}_`);
  if (mine && theirs) return collection.length >= other.length ? 'parent' : 'child';
  return mine ? 'parent' : 'child';
}

/** Export shape of a field read from the API: no ID, timestamps or position; each relation end as it is created. */
export function fieldDoc(collection: string, field: Field): FieldDoc {
  const { id: _id, createdAt: _c, updatedAt: _u, sortOrder: _s, ...rest } = field;
  const doc: FieldDoc = { ...rest };
  if (doc.validation && Object.keys(doc.validation).length === 0) delete doc.validation;
  if (field.type === 'reference' && typeof doc.validation?.relation === 'string') {
    const v = { ...doc.validation };
    if (exportedRole(collection, field) === 'parent') {
      if (v.relationSide !== 'parent') delete v.relationSide;
    } else {
      delete v.targetCollection;
      delete v.multiple;
    }
    doc.validation = v;
  }
  return doc;
}

export function collectionDoc(c: Collection): CollectionDoc {
  // Position (the list order says it), IDs and timestamps are not part of a schema.
  const { id: _id, sortOrder: _s, createdAt: _c, updatedAt: _u, fields, ...props } = c;
  return { ...props, fields: fields.map((f) => fieldDoc(c.slug, f)) };
}

export function blockTypeDoc(b: BlockType): BlockTypeDoc {
  return {
    slug: b.slug,
    label: b.label,
    description: b.description,
    icon: b.icon,
    activeVersion: b.activeVersion,
    versions: b.versions.map((v) => ({ version: v.version, label: v.label, fields: v.fields as FieldDoc[] })),
  };
}

/** Read the whole schema of a target (collections in sidebar order). */
export async function readSchema(target: Target, progress?: (line: string) => void): Promise<SchemaDocument> {
  const summaries = await target.schema.listCollections();
  const collections: Collection[] = [];
  for (const s of summaries) {
    collections.push(await target.schema.getCollection(s.slug));
    progress?.(`… read ${collections.length}/${summaries.length} collections`);
  }
  const blockTypes = await target.schema.listBlockTypes();
  return documentOf(collections, blockTypes);
}

export function documentOf(collections: Collection[], blockTypes: BlockType[]): SchemaDocument {
  return {
    version: 1,
    collections: collections.map(collectionDoc),
    blockTypes: [...blockTypes].sort((a, b) => a.slug.localeCompare(b.slug)).map(blockTypeDoc),
  };
}

/** relation name → `collection.field` of the parent end that creates it, in one document. */
export function relationNames(doc: SchemaDocument): Map<string, string> {
  const parents = new Map<string, string>();
  for (const c of doc.collections) {
    for (const f of c.fields) {
      if (relationRole(f) !== 'parent') continue;
      const v = validationOf(f);
      parents.set(typeof v.relation === 'string' ? v.relation : `${c.slug}_${f.slug}`, `${c.slug}.${f.slug}`);
    }
  }
  return parents;
}
