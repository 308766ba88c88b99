/** Definition rules particular to blocks fields and block type versions (spec 2, "blocks rules"). */
import { type IssueSink, report, sameStringSet } from './issue.js';
import { itemCountRules, readKey, SLUG_ITEM, stringListKey, vpath } from './rule-helpers.js';
import type { FieldDefinition, FieldType } from './types.js';
import type { BlockTypeVersionLookup } from './value-context.js';

/** Scalar, text, selection, Portable Text, image, file and repeater; no references, JSON, slugs or nested blocks. */
export const BLOCK_FIELD_TYPES: ReadonlySet<FieldType> = new Set<FieldType>([
  'string',
  'text',
  'url',
  'number',
  'integer',
  'boolean',
  'datetime',
  'select',
  'multiSelect',
  'portableText',
  'image',
  'file',
  'repeater',
]);

/** Spec 2, "Limits": a blocks field holds at most 100 blocks, whatever maxItems says. */
export const BLOCKS_MAX_ITEMS = 100;

/** The validation keys of a blocks field: allowedTypes (required), retiredTypes, minItems, maxItems <= 100. */
export function blocksRules(v: Record<string, unknown>, sink: IssueSink): void {
  itemCountRules(v, BLOCKS_MAX_ITEMS, BLOCKS_MAX_ITEMS, sink);
  const allowed = stringListKey(v, 'allowedTypes', sink, { ...SLUG_ITEM, allowEmpty: true });
  if (readKey(v, 'allowedTypes') === undefined) {
    report(
      sink,
      vpath('allowedTypes'),
      'required',
      'a blocks field needs validation.allowedTypes (an ordered list of block type slugs)',
    );
  }
  const retired = stringListKey(v, 'retiredTypes', sink, { ...SLUG_ITEM, allowEmpty: true });
  for (const slug of retired ?? []) {
    if (allowed?.includes(slug)) {
      report(
        sink,
        vpath('retiredTypes'),
        'invalid_validation',
        `block type "${slug}" cannot be both allowed and retired`,
      );
    }
  }
}

/** Spec: a blocks field uses only slug, label, type, translatable, validation and sortOrder. */
export function blocksPropertyRules(def: FieldDefinition, sink: IssueSink): void {
  for (const flag of ['required', 'unique', 'searchable', 'indexed'] as const) {
    if (def[flag]) report(sink, [flag], 'not_allowed', `a blocks field cannot be ${flag}`);
  }
  for (const prop of ['widget', 'defaultValue', 'options'] as const) {
    if (def[prop] !== undefined) {
      const only = 'slug, label, type, translatable, validation and sortOrder';
      report(sink, [prop], 'not_allowed', `a blocks field uses only ${only}; remove ${prop}`);
    }
  }
}

function slugList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * What retiredTypes becomes when a blocks field changes from `previous` to a field allowing
 * `nextAllowed`: types removed from allowedTypes are retired (existing blocks of them may stay);
 * a retired type listed in allowedTypes again is no longer retired.
 */
export function computeRetiredTypes(previous: FieldDefinition | undefined, nextAllowed: readonly string[]): string[] {
  const before = [
    ...slugList(readKey(previous?.validation, 'retiredTypes')),
    ...slugList(readKey(previous?.validation, 'allowedTypes')),
  ];
  return [...new Set(before)].filter((t) => !nextAllowed.includes(t));
}

/**
 * retiredTypes is server-managed: a definition may carry it only as stored on `previous` or as
 * the server computes it (computeRetiredTypes); anything else was sent by a client. A new field
 * needs at least one allowed type; newly allowed types must exist when a lookup is given.
 */
export function blocksLifecycleRules(
  def: FieldDefinition,
  previous: FieldDefinition | undefined,
  blockTypes: BlockTypeVersionLookup | undefined,
  sink: IssueSink,
): void {
  const allowed = slugList(readKey(def.validation, 'allowedTypes'));
  const retired = readKey(def.validation, 'retiredTypes');
  if (Array.isArray(retired)) {
    const list = slugList(retired);
    const stored = slugList(readKey(previous?.validation, 'retiredTypes'));
    if (!sameStringSet(list, stored) && !sameStringSet(list, computeRetiredTypes(previous, allowed))) {
      report(
        sink,
        ['validation', 'retiredTypes'],
        'server_managed',
        'retiredTypes is managed by the server (types removed from allowedTypes are retired); do not send it',
      );
    }
  }
  if (!previous && Array.isArray(readKey(def.validation, 'allowedTypes')) && allowed.length === 0) {
    report(
      sink,
      ['validation', 'allowedTypes'],
      'too_small',
      'a new blocks field needs at least one allowed block type',
    );
  }
  if (!blockTypes) return;
  const wasAllowed = slugList(readKey(previous?.validation, 'allowedTypes'));
  allowed.forEach((slug, i) => {
    if (!wasAllowed.includes(slug) && blockTypes.activeVersion(slug) === undefined) {
      report(sink, ['validation', 'allowedTypes', i], 'unknown_block_type', `block type "${slug}" does not exist`);
    }
  });
}
