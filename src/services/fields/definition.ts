/**
 * Field definition rules (spec 2, "Field types", "Common field properties" and the per-type
 * rules). The zod schemas check the request shape; checkFieldDefinition checks everything that
 * depends on the type, and on the previous definition when a field is updated.
 */
import { z } from 'zod';
import type { ValidationIssue } from '../../core/errors.js';
import { BLOCK_FIELD_TYPES, blocksLifecycleRules, blocksPropertyRules } from './blocks-rules.js';
import { type IssueSink, isPlainObject, report } from './issue.js';
import { readKey } from './rule-helpers.js';
import { optionsIssues, validationIssues } from './type-rules.js';
import {
  COLUMN_KIND,
  FIELD_TYPES,
  type FieldDefinition,
  type FieldType,
  INDEXABLE_TYPES,
  isRelationBound,
  RESERVED_FIELD_SLUGS,
  SLUG_PATTERN,
} from './types.js';
import type { BlockTypeVersionLookup } from './value-context.js';
import { validateFieldValue } from './values.js';

const SLUG_MESSAGE = 'must start with a lowercase letter and contain only lowercase letters, digits and underscores';

const fieldProperties = {
  slug: z
    .string()
    .max(63)
    .regex(SLUG_PATTERN, SLUG_MESSAGE)
    .refine((s) => !RESERVED_FIELD_SLUGS.has(s), { error: 'is a reserved field slug' }),
  label: z
    .string()
    .min(1)
    .max(200)
    .refine((s) => s.trim() !== '', { error: 'must not be blank' }),
  type: z.enum(FIELD_TYPES),
  required: z.boolean().optional(),
  unique: z.boolean().optional(),
  searchable: z.boolean().optional(),
  indexed: z.boolean().optional(),
  translatable: z.boolean().optional(),
  defaultValue: z.unknown().optional(),
  validation: z.record(z.string(), z.unknown()).optional(),
  widget: z.string().min(1).max(200).optional(),
  options: z.record(z.string(), z.unknown()).optional(),
  sortOrder: z.number().int().min(-2147483648).max(2147483647).optional(),
};

/** A field as sent to createField (and inside block type definitions). Unknown keys are rejected. */
export const fieldInputSchema = z.strictObject(fieldProperties);
export type FieldInput = z.infer<typeof fieldInputSchema>;

/**
 * updateField body: every property optional. `type` may be sent but must equal the current
 * type; that comparison needs the stored field and happens in checkFieldDefinition.
 */
export const fieldUpdateSchema = fieldInputSchema.partial().extend({
  // null clears a property on update
  widget: fieldProperties.widget.nullable().optional(),
  options: fieldProperties.options.nullable().optional(),
});
export type FieldUpdate = z.infer<typeof fieldUpdateSchema>;

export { BLOCK_FIELD_TYPES, computeRetiredTypes } from './blocks-rules.js';

/** Types whose values go into full-text search. */
export const SEARCHABLE_TYPES: ReadonlySet<FieldType> = new Set<FieldType>([
  'string',
  'text',
  'url',
  'slug',
  'select',
  'multiSelect',
  'portableText',
]);

/** Fills the documented defaults of the common properties. */
export function normalizeFieldInput(input: FieldInput): FieldDefinition {
  const def: FieldDefinition = {
    slug: input.slug,
    label: input.label,
    type: input.type,
    required: input.required ?? false,
    unique: input.unique ?? false,
    searchable: input.searchable ?? false,
    indexed: input.indexed ?? false,
    translatable: input.translatable ?? true,
  };
  if (input.defaultValue !== undefined) def.defaultValue = input.defaultValue;
  if (input.validation !== undefined) def.validation = input.validation;
  if (input.widget !== undefined) def.widget = input.widget;
  if (input.options !== undefined) def.options = input.options;
  if (input.sortOrder !== undefined) def.sortOrder = input.sortOrder;
  return def;
}

export interface CheckFieldOptions {
  /** The stored definition when updating; enables the "cannot change" rules. */
  previous?: FieldDefinition;
  /**
   * collection (default): the slug becomes a column, so reserved slugs are refused.
   * block: the field lives inside a block value, where system column names cannot collide.
   */
  context?: 'collection' | 'block';
  /** When given, block types newly listed in a blocks field's allowedTypes must exist. */
  blockTypes?: BlockTypeVersionLookup;
}

/** Every intrinsic rule for one field definition. Returns [] when the definition is valid. */
export function checkFieldDefinition(def: FieldDefinition, opts: CheckFieldOptions = {}): ValidationIssue[] {
  const sink: IssueSink = [];
  identityRules(def, opts.context ?? 'collection', sink);
  if (!(FIELD_TYPES as readonly string[]).includes(def.type)) {
    report(sink, ['type'], 'invalid_type', `type must be one of ${FIELD_TYPES.join(', ')}`);
    return sink;
  }
  const bound = isRelationBound(def);
  if (def.type === 'blocks') blocksPropertyRules(def, sink);
  else flagRules(def, bound, sink);
  validationIssues(def, sink);
  optionsIssues(def, bound, sink);
  if (def.type === 'reference') referenceChoiceRule(def, opts.previous, sink);
  if (def.type === 'blocks') blocksLifecycleRules(def, opts.previous, opts.blockTypes, sink);
  if (opts.previous) updateRules(def, opts.previous, sink);
  // The default is checked against the field's rules, which must themselves be sound first.
  const rulesOk = !sink.some((i) => i.path[0] === 'validation' || i.path[0] === 'options' || i.path[0] === 'type');
  if (rulesOk && def.defaultValue !== undefined && def.defaultValue !== null && !bound && def.type !== 'blocks') {
    const result = validateFieldValue(def, def.defaultValue, ['defaultValue'], { mode: 'create' });
    sink.push(...result.issues);
  }
  return sink;
}

function identityRules(def: FieldDefinition, context: 'collection' | 'block', sink: IssueSink): void {
  if (typeof def.slug !== 'string' || !SLUG_PATTERN.test(def.slug) || def.slug.length > 63) {
    report(sink, ['slug'], 'invalid_slug', `slug ${SLUG_MESSAGE} (at most 63 characters)`);
  } else if (context === 'collection' && RESERVED_FIELD_SLUGS.has(def.slug)) {
    report(sink, ['slug'], 'reserved_slug', `"${def.slug}" is a reserved field slug`);
  }
  if (typeof def.label !== 'string' || def.label.trim() === '' || def.label.length > 200) {
    report(sink, ['label'], 'invalid_label', 'label must be a non-empty string of at most 200 characters');
  }
}

function flagRules(def: FieldDefinition, bound: boolean, sink: IssueSink): void {
  const noColumn = 'a reference bound to a relation keeps its links in the links table and has no column';
  if (def.indexed) {
    if (!INDEXABLE_TYPES.has(def.type)) {
      report(
        sink,
        ['indexed'],
        'not_allowed',
        `indexed is available only for ${[...INDEXABLE_TYPES].join(', ')} fields`,
      );
    } else if (bound) report(sink, ['indexed'], 'not_allowed', `cannot be indexed: ${noColumn}`);
  }
  if (def.unique) {
    if (COLUMN_KIND[def.type] === 'json') {
      report(sink, ['unique'], 'not_allowed', `unique is not available for ${def.type} fields (stored as JSON)`);
    } else if (bound) report(sink, ['unique'], 'not_allowed', `cannot be unique: ${noColumn}`);
  }
  if (def.searchable && !SEARCHABLE_TYPES.has(def.type)) {
    report(
      sink,
      ['searchable'],
      'not_allowed',
      `searchable is available only for ${[...SEARCHABLE_TYPES].join(', ')} fields`,
    );
  }
  if (bound && def.defaultValue !== undefined && def.defaultValue !== null) {
    report(sink, ['defaultValue'], 'not_allowed', `a relation-bound reference takes no defaultValue: ${noColumn}`);
  }
}

/**
 * Spec: "give either targetCollection or relation". The service may store both once the
 * relation exists; an unchanged pair carried over from the stored field is therefore accepted.
 */
function referenceChoiceRule(def: FieldDefinition, previous: FieldDefinition | undefined, sink: IssueSink): void {
  const target = readKey(def.validation, 'targetCollection');
  const relation = readKey(def.validation, 'relation');
  if (target === undefined || relation === undefined) return;
  const stored =
    readKey(previous?.validation, 'targetCollection') === target &&
    readKey(previous?.validation, 'relation') === relation;
  if (!stored) {
    report(
      sink,
      ['validation'],
      'conflict',
      'give either validation.targetCollection or validation.relation, not both',
    );
  }
}

function updateRules(def: FieldDefinition, previous: FieldDefinition, sink: IssueSink): void {
  if (def.type !== previous.type) {
    report(
      sink,
      ['type'],
      'immutable',
      `the type of a field cannot change (it is ${previous.type}); delete and re-add the field`,
    );
    return;
  }
  if (def.type !== 'reference') return;
  const was = (key: string) => readKey(previous.validation, key);
  const now = (key: string) => readKey(def.validation, key);
  // Legacy conversion (no target before, one now) is allowed; any other change of target is not.
  if (was('targetCollection') !== undefined && now('targetCollection') !== was('targetCollection')) {
    report(
      sink,
      ['validation', 'targetCollection'],
      'immutable',
      'the target collection cannot change once set; delete and re-add the field',
    );
  }
  for (const key of ['relation', 'relationSide']) {
    if (now(key) !== was(key)) {
      report(sink, ['validation', key], 'immutable', `${key} cannot change; delete and re-add the field`);
    }
  }
}

/**
 * Issues for the field list of one block type version, with paths `[index, ...]` into the list
 * (the caller prefixes where the list sits in its request). Block values live inside the blocks
 * field's JSON, so there is no column to make unique, index or search: those flags are refused
 * rather than silently ignored.
 */
export function blockDefinitionIssues(fields: readonly FieldDefinition[]): ValidationIssue[] {
  const sink: IssueSink = [];
  const seen = new Set<string>();
  fields.forEach((field, i) => {
    if (!isPlainObject(field)) {
      report(sink, [i], 'invalid_type', 'each field must be an object');
      return;
    }
    if (!BLOCK_FIELD_TYPES.has(field.type)) {
      const allowed = [...BLOCK_FIELD_TYPES].join(', ');
      report(
        sink,
        [i, 'type'],
        'not_allowed',
        `block types cannot contain ${String(field.type)} fields (allowed: ${allowed})`,
      );
    } else {
      for (const issue of checkFieldDefinition(field, { context: 'block' }))
        sink.push({ ...issue, path: [i, ...issue.path] });
      for (const flag of ['unique', 'indexed', 'searchable'] as const) {
        if (field[flag]) {
          report(
            sink,
            [i, flag],
            'not_allowed',
            `block fields are stored inside the blocks value and cannot be ${flag}`,
          );
        }
      }
    }
    if (seen.has(field.slug)) report(sink, [i, 'slug'], 'duplicate', `field slug "${field.slug}" is used twice`);
    seen.add(field.slug);
  });
  return sink;
}
