import { sql } from 'kysely';
import { CmsError, issuesError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import { assertIdentifier } from '../../db/dialect.js';
import type { CollectionInfo, FieldInfo, RelationInfo, SchemaSnapshot } from './model.js';

/**
 * Relations join two collections; a reference field views one end. Links are
 * keyed by translation group, so every translation shares one selection.
 */
export type RelationSide = 'parent' | 'child';

export function relationOfField(
  snap: SchemaSnapshot,
  fieldId: string,
): { relation: RelationInfo; side: RelationSide } | null {
  for (const relation of snap.relations.values()) {
    if (relation.parentFieldId === fieldId) return { relation, side: 'parent' };
    if (relation.childFieldId === fieldId) return { relation, side: 'child' };
  }
  return null;
}

/** `targetCollection` makes this field the parent end of a new relation `{collection}_{field}`. */
export async function createRelationForField(
  trx: Kdb,
  snap: SchemaSnapshot,
  owner: CollectionInfo,
  fieldId: string,
  fieldSlug: string,
  targetSlug: string,
  multiple: boolean,
  now: string,
): Promise<void> {
  const target = snap.collections.get(targetSlug);
  if (!target) {
    throw issuesError('Unknown target collection', [
      {
        path: ['validation', 'targetCollection'],
        code: 'unknown_collection',
        message: `No collection "${targetSlug}"`,
      },
    ]);
  }
  const name = `${owner.slug}_${fieldSlug}`;
  if (snap.relations.has(name)) {
    throw new CmsError('ALREADY_EXISTS', `A relation named "${name}" already exists`);
  }
  await trx
    .insertInto('_cms_relations')
    .values({
      id: newId(),
      name,
      parent_collection_id: owner.id,
      child_collection_id: target.id,
      parent_field_id: fieldId,
      child_field_id: null,
      multiple: multiple ? 1 : 0,
      created_at: now,
    })
    .execute();
}

/** `relation` binds the field to a free end of an existing relation. */
export async function bindFieldToRelation(
  trx: Kdb,
  snap: SchemaSnapshot,
  owner: CollectionInfo,
  fieldId: string,
  relationName: string,
  requestedSide: RelationSide | undefined,
): Promise<void> {
  const relation = snap.relations.get(relationName);
  const issue = (message: string, key = 'relation') =>
    issuesError('Invalid relation binding', [{ path: ['validation', key], code: 'invalid_relation', message }]);
  if (!relation) throw issue(`No relation named "${relationName}"`);
  const selfRelation = relation.parentCollectionId === relation.childCollectionId;
  let side: RelationSide;
  if (selfRelation) {
    if (!requestedSide)
      throw issue('relationSide is required for a relation whose two ends are the same collection', 'relationSide');
    side = requestedSide;
  } else {
    if (requestedSide)
      throw issue('relationSide is only set for a relation whose two ends are the same collection', 'relationSide');
    if (relation.parentCollectionId === owner.id) side = 'parent';
    else if (relation.childCollectionId === owner.id) side = 'child';
    else throw issue(`Relation "${relationName}" does not involve collection "${owner.slug}"`);
  }
  const taken = side === 'parent' ? relation.parentFieldId : relation.childFieldId;
  if (taken) {
    throw new CmsError(
      'CONFLICT',
      `The ${side} end of relation "${relationName}" already has a field; one relation accepts one field per end`,
    );
  }
  await trx
    .updateTable('_cms_relations')
    .set(side === 'parent' ? { parent_field_id: fieldId } : { child_field_id: fieldId })
    .where('id', '=', relation.id)
    .execute();
}

/** A field leaves its relation; a relation with no field left is deleted with its links. */
export async function releaseField(trx: Kdb, snap: SchemaSnapshot, fieldId: string): Promise<void> {
  const bound = relationOfField(snap, fieldId);
  if (!bound) return;
  const { relation, side } = bound;
  const other = side === 'parent' ? relation.childFieldId : relation.parentFieldId;
  if (!other) {
    await trx.deleteFrom('_cms_links').where('relation_id', '=', relation.id).execute();
    await trx.deleteFrom('_cms_relations').where('id', '=', relation.id).execute();
    return;
  }
  await trx
    .updateTable('_cms_relations')
    .set(side === 'parent' ? { parent_field_id: null } : { child_field_id: null })
    .where('id', '=', relation.id)
    .execute();
}

/** Deleting a collection removes its relations, their links, and the fields of other collections viewing them. */
export async function deleteRelationsOfCollection(trx: Kdb, snap: SchemaSnapshot, collectionId: string): Promise<void> {
  for (const relation of snap.relations.values()) {
    if (relation.parentCollectionId !== collectionId && relation.childCollectionId !== collectionId) continue;
    const foreignFields = [relation.parentFieldId, relation.childFieldId].filter(
      (id): id is string => !!id && !snap.collectionsById.get(collectionId)?.fields.some((f) => f.id === id),
    );
    await trx.deleteFrom('_cms_links').where('relation_id', '=', relation.id).execute();
    await trx.deleteFrom('_cms_relations').where('id', '=', relation.id).execute();
    if (foreignFields.length) await trx.deleteFrom('_cms_fields').where('id', 'in', foreignFields).execute();
  }
}

/** Child entries (translation groups) that more than one parent links to. */
async function childrenWithSeveralParents(trx: Kdb, relationId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('_cms_links')
    .select('child_group')
    .where('relation_id', '=', relationId)
    .groupBy('child_group')
    .having(sql`count(*)`, '>', 1)
    .limit(20)
    .execute();
  return rows.map((r) => r.child_group);
}

export async function setRelationMultiple(trx: Kdb, relation: RelationInfo, multiple: boolean): Promise<void> {
  if (relation.multiple === multiple) return;
  if (!multiple) {
    const crowded = await childrenWithSeveralParents(trx, relation.id);
    if (crowded.length) {
      throw new CmsError(
        'CONFLICT',
        'Some linked entries already have several parents; unlink them before turning multiple off',
        {
          translationGroups: crowded,
        },
      );
    }
  }
  await trx
    .updateTable('_cms_relations')
    .set({ multiple: multiple ? 1 : 0 })
    .where('id', '=', relation.id)
    .execute();
}

/**
 * Legacy reference → relation: the IDs stored as text become links (keyed by
 * translation group), and the field stops writing its old column.
 */
export async function copyLegacyIdsToLinks(
  trx: Kdb,
  owner: CollectionInfo,
  field: FieldInfo,
  target: CollectionInfo,
  relationName: string,
  now: string,
): Promise<number> {
  const column = assertIdentifier(field.column ?? '');
  const relation = await trx
    .selectFrom('_cms_relations')
    .select(['id', 'multiple'])
    .where('name', '=', relationName)
    .executeTakeFirstOrThrow();
  // biome-ignore lint/suspicious/noExplicitAny: entry tables are dynamic
  const dyn = trx as any;
  const rows: Array<{ translation_group: string; value: string | null }> = await dyn
    .selectFrom(owner.table)
    .select(['translation_group', sql.ref(column).as('value')])
    .where(sql.ref(column), 'is not', null)
    .execute();
  const wanted = new Map<string, string[]>();
  const allIds = new Set<string>();
  for (const row of rows) {
    const ids = parseLegacyIds(row.value);
    const list = wanted.get(row.translation_group) ?? [];
    for (const id of ids) {
      if (!list.includes(id)) list.push(id);
      allIds.add(id);
    }
    wanted.set(row.translation_group, list);
  }
  const groupOf = new Map<string, string>();
  const idList = [...allIds];
  for (let i = 0; i < idList.length; i += 500) {
    const chunk = idList.slice(i, i + 500);
    const found: Array<{ id: string; translation_group: string }> = await dyn
      .selectFrom(target.table)
      .select(['id', 'translation_group'])
      .where('id', 'in', chunk)
      .execute();
    for (const f of found) groupOf.set(f.id, f.translation_group);
  }
  let count = 0;
  const parentsPerChild = new Map<string, number>();
  for (const [parentGroup, ids] of wanted) {
    let position = 0;
    for (const id of ids) {
      const childGroup = groupOf.get(id);
      if (!childGroup) continue;
      parentsPerChild.set(childGroup, (parentsPerChild.get(childGroup) ?? 0) + 1);
      await trx
        .insertInto('_cms_links')
        .values({
          relation_id: relation.id,
          parent_group: parentGroup,
          child_group: childGroup,
          position: position++,
          created_at: now,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
      count++;
    }
  }
  if (!relation.multiple) {
    const crowded = [...parentsPerChild.entries()].filter(([, n]) => n > 1).map(([g]) => g);
    if (crowded.length) {
      throw new CmsError(
        'CONFLICT',
        'Existing values link some entries from several entries; set validation.multiple to true',
        {
          translationGroups: crowded.slice(0, 20),
        },
      );
    }
  }
  return count;
}

function parseLegacyIds(value: string | null): string[] {
  if (!value) return [];
  const trimmed = value.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed.filter((v): v is string => typeof v === 'string' && v.length > 0);
    } catch {
      // not JSON: a single ID that happens to start with a bracket
    }
  }
  return [trimmed];
}
