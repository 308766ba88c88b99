import type { Actor } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { CmsError, issuesError, notFound, type ValidationIssue } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import { type DialectName, encodeValue } from '../../db/dialect.js';
import {
  checkFieldDefinition,
  computeRetiredTypes,
  type FieldInput,
  normalizeFieldInput,
} from '../fields/definition.js';
import {
  COLUMN_KIND,
  type FieldDefinition,
  isRelationBound,
  RESERVED_FIELD_SLUGS,
  SLUG_PATTERN,
} from '../fields/types.js';
import { addColumn, createFieldIndex, dropColumn, dropFieldIndex, renameColumn, SYSTEM_COLUMN_NAMES } from './ddl.js';
import { collectionOf, type SchemaDeps } from './deps.js';
import type { CollectionInfo, FieldInfo, SchemaSnapshot } from './model.js';
import { applyOrder, writePositions } from './order.js';
import { type FieldView, fieldView } from './present.js';
import {
  bindFieldToRelation,
  copyLegacyIdsToLinks,
  createRelationForField,
  type RelationSide,
  relationOfField,
  releaseField,
  setRelationMultiple,
} from './relations.js';

export type AddFieldInput = FieldInput;

export interface UpdateFieldInput {
  slug?: string;
  label?: string;
  type?: string;
  required?: boolean;
  unique?: boolean;
  searchable?: boolean;
  indexed?: boolean;
  translatable?: boolean;
  defaultValue?: unknown;
  validation?: Record<string, unknown>;
  widget?: string | null;
  options?: Record<string, unknown> | null;
  sortOrder?: number;
}

function fail(message: string, issues: ValidationIssue[], prefix: (string | number)[] = []): never {
  throw issuesError(
    message,
    issues.map((i) => ({ ...i, path: [...prefix, ...i.path] })),
  );
}

function fieldOf(collection: CollectionInfo, slug: string): FieldInfo {
  const f = collection.fields.find((x) => x.slug === slug);
  if (!f) throw notFound(`Field "${slug}" in collection "${collection.slug}"`);
  return f;
}

/** Column names the table has or had (a retired legacy column keeps its name until the field is deleted). */
function takenColumns(collection: CollectionInfo, except?: string): Set<string> {
  const taken = new Set<string>(SYSTEM_COLUMN_NAMES);
  for (const f of collection.fields) {
    if (f.id === except) continue;
    if (f.column) taken.add(f.column);
    if (f.retiredColumn) taken.add(f.retiredColumn);
  }
  return taken;
}

function checkBlockTypesExist(snap: SchemaSnapshot, def: FieldDefinition): ValidationIssue[] {
  if (def.type !== 'blocks') return [];
  const allowed = (def.validation?.allowedTypes as unknown[] | undefined) ?? [];
  return allowed
    .map((slug, i) =>
      typeof slug === 'string' && !snap.blockTypes.has(slug)
        ? { path: ['validation', 'allowedTypes', i], code: 'unknown_block_type', message: `No block type "${slug}"` }
        : null,
    )
    .filter((x): x is ValidationIssue => x !== null);
}

function storedValidation(def: FieldDefinition): string | null {
  return def.validation === undefined ? null : JSON.stringify(def.validation);
}

/** Add one field inside an open schema transaction (also used by collection create). */
export async function addFieldInTransaction(
  deps: SchemaDeps,
  trx: Kdb,
  snap: SchemaSnapshot,
  collectionSlug: string,
  input: AddFieldInput,
  pathPrefix: (string | number)[] = [],
): Promise<string> {
  const { ctx } = deps;
  const collection = collectionOf(snap, collectionSlug);
  const def = normalizeFieldInput(input);
  const issues = [...checkFieldDefinition(def), ...checkBlockTypesExist(snap, def)];
  if (issues.length) fail('Invalid field definition', issues, pathPrefix);
  if (collection.fields.some((f) => f.slug === def.slug)) {
    throw new CmsError('ALREADY_EXISTS', `Field "${def.slug}" already exists in collection "${collection.slug}"`);
  }
  const bound = isRelationBound(def);
  if (!bound && takenColumns(collection).has(def.slug)) {
    throw new CmsError(
      'ALREADY_EXISTS',
      `Column "${def.slug}" is still held by a retired field value in "${collection.slug}"`,
    );
  }
  const id = newId();
  const now = isoNow(ctx.clock);
  const v = def.validation ?? {};
  await trx
    .insertInto('_cms_fields')
    .values({
      id,
      collection_id: collection.id,
      slug: def.slug,
      label: def.label,
      type: def.type,
      column_name: bound ? null : def.slug,
      retired_column: null,
      required: def.required ? 1 : 0,
      is_unique: def.unique ? 1 : 0,
      searchable: def.searchable ? 1 : 0,
      indexed: def.indexed ? 1 : 0,
      translatable: def.translatable ? 1 : 0,
      default_value: def.defaultValue === undefined ? null : JSON.stringify(def.defaultValue),
      validation: storedValidation(def),
      widget: def.widget ?? null,
      options: def.options === undefined ? null : JSON.stringify(def.options),
      sort_order: def.sortOrder ?? collection.fields.length,
      created_at: now,
      updated_at: now,
    })
    .execute();
  if (bound) {
    if (typeof v.targetCollection === 'string') {
      await createRelationForField(trx, snap, collection, id, def.slug, v.targetCollection, v.multiple === true, now);
    } else {
      await bindFieldToRelation(
        trx,
        snap,
        collection,
        id,
        String(v.relation),
        v.relationSide as RelationSide | undefined,
      );
    }
    return id;
  }
  const kind = COLUMN_KIND[def.type];
  await addColumn(trx, ctx.dialect, collection.table, { name: def.slug, kind });
  if (def.indexed) await createFieldIndex(trx, ctx.dialect, collection.table, id, def.slug, 'indexed');
  if (def.unique) await createFieldIndex(trx, ctx.dialect, collection.table, id, def.slug, 'unique');
  // Existing entries take the default so the new field reads the same everywhere (a blocks field's is `[]`).
  const backfill = def.type === 'blocks' ? [] : def.defaultValue;
  if (backfill !== undefined && backfill !== null) {
    // biome-ignore lint/suspicious/noExplicitAny: entry tables are dynamic
    await (trx as any)
      .updateTable(collection.table)
      .set({ [def.slug]: encodeValue(ctx.dialect, kind, encodeLegacy(def, backfill)) })
      .execute();
  }
  return id;
}

/** A legacy multi-ID reference keeps its JSON array in a text column. */
function encodeLegacy(def: FieldDefinition, value: unknown): unknown {
  return def.type === 'reference' && Array.isArray(value) ? JSON.stringify(value) : value;
}

export function fieldOps(deps: SchemaDeps) {
  const { ctx } = deps;

  async function list(actor: Actor, collectionSlug: string): Promise<FieldView[]> {
    const snap = await deps.read(actor);
    return collectionOf(snap, collectionSlug).fields.map((f) => fieldView(f, snap));
  }

  async function get(actor: Actor, collectionSlug: string, fieldSlug: string): Promise<FieldView> {
    const snap = await deps.read(actor);
    return fieldView(fieldOf(collectionOf(snap, collectionSlug), fieldSlug), snap);
  }

  async function create(actor: Actor, collectionSlug: string, input: AddFieldInput): Promise<FieldView> {
    await deps.write(actor, (trx, snap) => addFieldInTransaction(deps, trx, snap, collectionSlug, input));
    return get(actor, collectionSlug, input.slug);
  }

  async function update(
    actor: Actor,
    collectionSlug: string,
    fieldSlug: string,
    input: UpdateFieldInput,
  ): Promise<FieldView> {
    const finalSlug = await deps.write(actor, async (trx, snap) => {
      const collection = collectionOf(snap, collectionSlug);
      const field = fieldOf(collection, fieldSlug);
      const now = isoNow(ctx.clock);
      if (input.type !== undefined && input.type !== field.type) {
        fail('Invalid field update', [
          {
            path: ['type'],
            code: 'immutable',
            message: 'The type of a field cannot change; delete the field and add it again',
          },
        ]);
      }
      const previous: FieldDefinition = definitionOf(field);
      const rel = relationOfField(snap, field.id);
      let validation = input.validation === undefined ? previous.validation : { ...input.validation };
      let convertTo: string | null = null;

      if (field.type === 'reference' && rel && input.validation !== undefined) {
        // Relation-bound: only `multiple` may change (on the end that created it); the rest is fixed.
        const view = fieldView(field, snap).validation ?? {};
        for (const key of ['targetCollection', 'relation', 'relationSide'] as const) {
          if (Object.hasOwn(input.validation, key) && input.validation[key] !== view[key]) {
            fail('Invalid field update', [
              {
                path: ['validation', key],
                code: 'immutable',
                message: `${key} cannot change; delete the field and add it again`,
              },
            ]);
          }
        }
        if (typeof input.validation.multiple === 'boolean') {
          await setRelationMultiple(trx, rel.relation, input.validation.multiple);
        }
        const kept: Record<string, unknown> = { ...(previous.validation ?? {}) };
        if (typeof input.validation.multiple === 'boolean' && 'multiple' in kept)
          kept.multiple = input.validation.multiple;
        validation = kept;
      } else if (field.type === 'reference' && !rel && validation && typeof validation.targetCollection === 'string') {
        convertTo = validation.targetCollection;
      } else if (field.type === 'blocks' && validation && !('retiredTypes' in validation)) {
        // retiredTypes is server-managed: types dropped from allowedTypes are retired, re-added ones revived.
        const allowed = Array.isArray(validation.allowedTypes) ? (validation.allowedTypes as string[]) : [];
        const retired = computeRetiredTypes(previous, allowed);
        validation = retired.length ? { ...validation, retiredTypes: retired } : validation;
      }

      const next: FieldDefinition = {
        ...previous,
        slug: input.slug ?? previous.slug,
        label: input.label ?? previous.label,
        required: input.required ?? previous.required,
        unique: input.unique ?? previous.unique,
        searchable: input.searchable ?? previous.searchable,
        indexed: input.indexed ?? previous.indexed,
        translatable: input.translatable ?? previous.translatable,
        defaultValue: input.defaultValue === undefined ? previous.defaultValue : (input.defaultValue ?? undefined),
        validation,
        widget: input.widget === undefined ? previous.widget : (input.widget ?? undefined),
        options: input.options === undefined ? previous.options : (input.options ?? undefined),
        sortOrder: input.sortOrder ?? previous.sortOrder,
      };
      if (convertTo) {
        // Converting clears the flags a relation-bound field cannot carry.
        next.indexed = false;
        next.searchable = false;
        next.unique = false;
      }
      // Relation-bound fields keep the validation the client first sent, so the same rules apply.
      const issues = [...checkFieldDefinition(next, { previous }), ...checkBlockTypesExist(snap, next)];
      if (next.slug !== previous.slug && (!SLUG_PATTERN.test(next.slug) || RESERVED_FIELD_SLUGS.has(next.slug))) {
        issues.push({
          path: ['slug'],
          code: 'invalid_slug',
          message: 'must match ^[a-z][a-z0-9_]*$ and not be a reserved slug',
        });
      }
      if (issues.length) fail('Invalid field update', issues);

      if (next.slug !== field.slug) {
        if (collection.fields.some((f) => f.slug === next.slug)) {
          throw new CmsError(
            'ALREADY_EXISTS',
            `Field "${next.slug}" already exists in collection "${collection.slug}"`,
          );
        }
        if (field.column) {
          if (takenColumns(collection, field.id).has(next.slug)) {
            throw new CmsError('ALREADY_EXISTS', `Column "${next.slug}" is taken in "${collection.slug}"`);
          }
          await renameColumn(trx, collection.table, field.column, next.slug);
        }
      }
      let column = field.column && next.slug !== field.slug ? next.slug : field.column;
      let retired = field.retiredColumn;

      if (convertTo) {
        await createRelationForField(
          trx,
          snap,
          collection,
          field.id,
          next.slug,
          convertTo,
          validation?.multiple === true,
          now,
        );
        const target = snap.collections.get(convertTo)!;
        if (field.indexed && column) await dropFieldIndex(trx, collection.table, field.id, 'indexed');
        if (field.unique && column) await dropFieldIndex(trx, collection.table, field.id, 'unique');
        await copyLegacyIdsToLinks(
          trx,
          collection,
          { ...field, column },
          target,
          `${collection.slug}_${next.slug}`,
          now,
        );
        retired = column;
        column = null;
      } else if (column) {
        await toggleIndex(trx, ctx.dialect, collection.table, field.id, column, 'indexed', field.indexed, next.indexed);
        await toggleIndex(trx, ctx.dialect, collection.table, field.id, column, 'unique', field.unique, next.unique);
      }

      await trx
        .updateTable('_cms_fields')
        .set({
          slug: next.slug,
          label: next.label,
          column_name: column,
          retired_column: retired,
          required: next.required ? 1 : 0,
          is_unique: next.unique ? 1 : 0,
          searchable: next.searchable ? 1 : 0,
          indexed: next.indexed ? 1 : 0,
          translatable: next.translatable ? 1 : 0,
          default_value: next.defaultValue === undefined ? null : JSON.stringify(next.defaultValue),
          validation: storedValidation(next),
          widget: next.widget ?? null,
          options: next.options === undefined ? null : JSON.stringify(next.options),
          sort_order: next.sortOrder ?? field.sortOrder,
          updated_at: now,
        })
        .where('id', '=', field.id)
        .execute();
      return next.slug;
    });
    return get(actor, collectionSlug, finalSlug);
  }

  /** Drops the column and every stored value of the field. Cannot be undone. */
  async function remove(
    actor: Actor,
    collectionSlug: string,
    fieldSlug: string,
  ): Promise<{ deleted: true; slug: string }> {
    await deps.write(actor, async (trx, snap) => {
      const collection = collectionOf(snap, collectionSlug);
      const field = fieldOf(collection, fieldSlug);
      if (field.column) {
        if (field.indexed) await dropFieldIndex(trx, collection.table, field.id, 'indexed');
        if (field.unique) await dropFieldIndex(trx, collection.table, field.id, 'unique');
        await dropColumn(trx, collection.table, field.column);
      }
      if (field.retiredColumn) await dropColumn(trx, collection.table, field.retiredColumn);
      await releaseField(trx, snap, field.id);
      await trx.deleteFrom('_cms_fields').where('id', '=', field.id).execute();
    });
    return { deleted: true, slug: fieldSlug };
  }

  async function reorder(actor: Actor, collectionSlug: string, slugs: string[]): Promise<FieldView[]> {
    await deps.write(actor, async (trx, snap) => {
      const collection = collectionOf(snap, collectionSlug);
      const ordered = applyOrder(
        collection.fields.map((f) => f.slug),
        slugs,
        'field',
      );
      await writePositions(
        trx,
        '_cms_fields',
        ordered.map((s) => fieldOf(collection, s).id),
      );
    });
    return list(actor, collectionSlug);
  }

  return { list, get, create, update, remove, reorder };
}

async function toggleIndex(
  trx: Kdb,
  dialect: DialectName,
  table: string,
  fieldId: string,
  column: string,
  kind: 'indexed' | 'unique',
  before: boolean,
  after: boolean,
): Promise<void> {
  if (before === after) return;
  if (!after) {
    await dropFieldIndex(trx, table, fieldId, kind);
    return;
  }
  try {
    await createFieldIndex(trx, dialect, table, fieldId, column, kind);
  } catch (err) {
    if (kind === 'unique') {
      throw new CmsError(
        'CONFLICT',
        'Existing entries share values of this field in one locale; make them unique first',
      );
    }
    throw err;
  }
}

export function definitionOf(field: FieldInfo): FieldDefinition {
  const def: FieldDefinition = {
    slug: field.slug,
    label: field.label,
    type: field.type,
    required: field.required,
    unique: field.unique,
    searchable: field.searchable,
    indexed: field.indexed,
    translatable: field.translatable,
    sortOrder: field.sortOrder,
  };
  if (field.defaultValue !== undefined) def.defaultValue = field.defaultValue;
  if (field.validation !== undefined) def.validation = field.validation;
  if (field.widget !== undefined) def.widget = field.widget;
  if (field.options !== undefined) def.options = field.options;
  return def;
}
