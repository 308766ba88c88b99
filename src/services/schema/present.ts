import type { FieldDefinition } from '../fields/types.js';
import type { BlockTypeInfo, CollectionInfo, FieldInfo, SchemaSnapshot, Support } from './model.js';
import type { UrlPattern } from './url-pattern.js';

/** Public shapes of the schema API (REST data, MCP results). */
export interface FieldView extends FieldDefinition {
  id: string;
  sortOrder: number;
  createdAt: string;
  updatedAt: string;
}

export interface CollectionSummary {
  id: string;
  slug: string;
  label: string;
  labelSingular: string;
  description: string | null;
  icon: string | null;
  supports: Support[];
  urlPattern: UrlPattern | null;
  sortOrder: number;
  fieldCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface CollectionView extends Omit<CollectionSummary, 'fieldCount'> {
  fields: FieldView[];
}

/** Relation facts derived from the relations table are shown inside `validation`. */
export function fieldView(field: FieldInfo, snap: SchemaSnapshot): FieldView {
  let validation = field.validation;
  if (field.type === 'reference' && validation) {
    const rel = [...snap.relations.values()].find((r) => r.parentFieldId === field.id || r.childFieldId === field.id);
    if (rel) {
      const side = rel.parentFieldId === field.id ? 'parent' : 'child';
      const otherId = side === 'parent' ? rel.childCollectionId : rel.parentCollectionId;
      validation = {
        ...validation,
        relation: rel.name,
        targetCollection: snap.collectionsById.get(otherId)?.slug,
        multiple: rel.multiple,
        ...(rel.parentCollectionId === rel.childCollectionId ? { relationSide: side } : {}),
      };
    }
  }
  const view: FieldView = {
    id: field.id,
    slug: field.slug,
    label: field.label,
    type: field.type,
    required: field.required,
    unique: field.unique,
    searchable: field.searchable,
    indexed: field.indexed,
    translatable: field.translatable,
    sortOrder: field.sortOrder,
    createdAt: field.createdAt,
    updatedAt: field.updatedAt,
  };
  if (field.defaultValue !== undefined) view.defaultValue = field.defaultValue;
  if (validation !== undefined) view.validation = validation;
  if (field.widget !== undefined) view.widget = field.widget;
  if (field.options !== undefined) view.options = field.options;
  return view;
}

export function collectionSummary(c: CollectionInfo): CollectionSummary {
  return {
    id: c.id,
    slug: c.slug,
    label: c.label,
    labelSingular: c.labelSingular,
    description: c.description,
    icon: c.icon,
    supports: c.supports,
    urlPattern: c.urlPattern,
    sortOrder: c.sortOrder,
    fieldCount: c.fields.length,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

export function collectionView(c: CollectionInfo, snap: SchemaSnapshot): CollectionView {
  const { fieldCount: _, ...rest } = collectionSummary(c);
  return { ...rest, fields: c.fields.map((f) => fieldView(f, snap)) };
}

export interface BlockTypeView {
  id: string;
  slug: string;
  label: string;
  description: string | null;
  icon: string | null;
  activeVersion: number;
  /** Fields of the active version. */
  fields: FieldDefinition[];
  versions: Array<{ version: number; label: string; fields: FieldDefinition[]; active: boolean; createdAt: string }>;
  createdAt: string;
  updatedAt: string;
}

export function blockTypeView(b: BlockTypeInfo): BlockTypeView {
  return {
    id: b.id,
    slug: b.slug,
    label: b.label,
    description: b.description,
    icon: b.icon,
    activeVersion: b.activeVersion,
    fields: b.versions.find((v) => v.version === b.activeVersion)?.fields ?? [],
    versions: b.versions.map((v) => ({ ...v, active: v.version === b.activeVersion })),
    createdAt: b.createdAt,
    updatedAt: b.updatedAt,
  };
}
