/**
 * The value dispatcher and the structured types (repeater rows, blocks) that recurse into it.
 * Entry data, repeater rows and block bodies are all "an object keyed by field slug", checked
 * by one routine (`checkFields`) so the rules cannot drift between them.
 */

import { BLOCKS_MAX_ITEMS } from './blocks-rules.js';
import { type IssuePath, isPlainObject, listForMessage, report } from './issue.js';
import { subFieldDefinitions } from './repeater-rules.js';
import { readKey } from './rule-helpers.js';
import { type FieldDefinition, isRelationBound } from './types.js';
import type { ValueContext } from './value-context.js';
import { checkFile, checkImage } from './values-media.js';
import { checkJson, checkPortableText } from './values-rich.js';
import {
  checkBoolean,
  checkDatetime,
  checkLegacyReference,
  checkMultiSelect,
  checkSelect,
  checkString,
  checkUrlValue,
  numberChecker,
  typeIssue,
  type ValueChecker,
} from './values-scalar.js';

const checkRepeater: ValueChecker = (field, value, path, ctx) => {
  if (!Array.isArray(value)) {
    typeIssue(ctx, path, 'an array of rows', value);
    return value;
  }
  itemCountRules(field, value.length, Number.POSITIVE_INFINITY, path, ctx);
  const subFields = subFieldDefinitions(field);
  return value.map((row, i) => {
    if (!isPlainObject(row)) {
      typeIssue(ctx, [...path, i], 'a row object keyed by sub-field slug', row);
      return row;
    }
    return checkFields(subFields, row, [...path, i], ctx, { partial: false });
  });
};

const CHECKERS: Readonly<Record<Exclude<FieldDefinition['type'], 'blocks'>, ValueChecker>> = {
  string: checkString,
  text: checkString,
  slug: checkString,
  url: checkUrlValue,
  number: numberChecker(false),
  integer: numberChecker(true),
  boolean: checkBoolean,
  datetime: checkDatetime,
  select: checkSelect,
  multiSelect: checkMultiSelect,
  portableText: checkPortableText,
  image: checkImage,
  file: checkFile,
  reference: checkLegacyReference,
  json: checkJson,
  repeater: checkRepeater,
};

function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  return Array.isArray(value) && value.length === 0;
}

function requiredIssue(field: FieldDefinition, path: IssuePath, ctx: ValueContext): void {
  report(ctx.sink, path, 'required', `${field.label} is required`);
}

/**
 * One field's value. null (or undefined) clears it; a required field then reports `required`,
 * as does a required string that is blank or a required list that is empty.
 * `previous` is this field's current stored value, used only by blocks (retired types).
 */
export function checkValue(
  field: FieldDefinition,
  value: unknown,
  path: IssuePath,
  ctx: ValueContext,
  previous?: unknown,
): unknown {
  if (isRelationBound(field)) {
    report(
      ctx.sink,
      path,
      'use_references',
      `${field.slug} is a relation-bound reference; send its entry IDs in references`,
    );
    return undefined;
  }
  // A blocks field is never required (spec); null and missing both mean "no blocks".
  if (field.type === 'blocks') return checkBlocks(field, value ?? [], path, ctx, previous);
  if (value === null || value === undefined) {
    if (field.required) requiredIssue(field, path, ctx);
    return null;
  }
  const checker = Object.hasOwn(CHECKERS, field.type) ? CHECKERS[field.type as keyof typeof CHECKERS] : undefined;
  if (!checker) {
    report(ctx.sink, path, 'invalid_field', `field ${field.slug} has unknown type ${String(field.type)}`);
    return value;
  }
  const before = ctx.sink.length;
  const out = checker(field, value, path, ctx);
  if (field.required && ctx.sink.length === before && isEmptyValue(out)) requiredIssue(field, path, ctx);
  return out;
}

export interface CheckFieldsOptions {
  /** Partial update: absent fields are left alone instead of defaulted or reported as required. */
  partial: boolean;
  /** Keys that belong to the container, not to a field (a block's `_type`, `_version`, `_key`). */
  skip?: ReadonlySet<string>;
  /** Current stored values keyed by field slug (entry data on update). */
  previous?: Record<string, unknown>;
}

/** An object keyed by field slug: entry data, a repeater row or the body of a block. */
export function checkFields(
  fields: readonly FieldDefinition[],
  obj: Record<string, unknown>,
  path: IssuePath,
  ctx: ValueContext,
  opts: CheckFieldsOptions,
): Record<string, unknown> {
  const bySlug = new Map(fields.map((f) => [f.slug, f]));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    if (opts.skip?.has(key)) continue;
    const field = bySlug.get(key);
    if (!field) {
      const known = fields.length
        ? `known fields: ${listForMessage(fields.map((f) => f.slug))}`
        : 'no fields are defined';
      report(ctx.sink, [...path, key], 'unknown_field', `unknown field "${key}" (${known})`);
      continue;
    }
    if (value === undefined) continue; // JSON cannot carry undefined; treat the key as absent
    const previous = opts.previous && Object.hasOwn(opts.previous, key) ? opts.previous[key] : undefined;
    out[key] = checkValue(field, value, [...path, key], ctx, previous);
  }
  if (opts.partial) return out;
  for (const field of fields) {
    if (isRelationBound(field) || (Object.hasOwn(obj, field.slug) && obj[field.slug] !== undefined)) continue;
    const fieldPath = [...path, field.slug];
    const fallback = field.defaultValue;
    if (field.type === 'blocks') out[field.slug] = checkValue(field, [], fieldPath, ctx);
    else if (fallback !== undefined && fallback !== null) {
      // Cloned so entries never share (and later mutate) the definition's default object.
      out[field.slug] = checkValue(field, structuredClone(fallback), fieldPath, ctx);
    } else if (field.required) requiredIssue(field, fieldPath, ctx);
  }
  return out;
}

function itemCountRules(field: FieldDefinition, count: number, cap: number, path: IssuePath, ctx: ValueContext): void {
  const minItems = readKey(field.validation, 'minItems');
  const maxItems = readKey(field.validation, 'maxItems');
  const max = Math.min(typeof maxItems === 'number' ? maxItems : cap, cap);
  if (typeof minItems === 'number' && count < minItems) {
    report(ctx.sink, path, 'too_small', `needs at least ${minItems} item${minItems === 1 ? '' : 's'} (has ${count})`);
  }
  if (count > max) report(ctx.sink, path, 'too_big', `takes at most ${max} item${max === 1 ? '' : 's'} (has ${count})`);
}

const BLOCK_META_KEYS: ReadonlySet<string> = new Set(['_type', '_version', '_key']);

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Blocks of a retired type survive only where the stored value already has that `_key` with that `_type`. */
function retainedBlocks(previous: unknown): Set<string> {
  const kept = new Set<string>();
  if (!Array.isArray(previous)) return kept;
  for (const b of previous) {
    if (isPlainObject(b) && typeof b._key === 'string' && typeof b._type === 'string')
      kept.add(`${b._type}\u0000${b._key}`);
  }
  return kept;
}

function checkBlocks(field: FieldDefinition, value: unknown, path: IssuePath, ctx: ValueContext, previous: unknown) {
  if (!Array.isArray(value)) {
    typeIssue(ctx, path, 'an array of blocks', value);
    return value;
  }
  itemCountRules(field, value.length, BLOCKS_MAX_ITEMS, path, ctx);
  const allowed = stringList(readKey(field.validation, 'allowedTypes'));
  const retired = stringList(readKey(field.validation, 'retiredTypes'));
  const kept = retainedBlocks(previous);
  const keys = new Set<string>();
  return value.map((block, i) => {
    const p = [...path, i];
    if (!isPlainObject(block)) {
      typeIssue(ctx, p, 'a block object with _type, _version and _key', block);
      return block;
    }
    const key = block._key;
    if (typeof key !== 'string' || key === '') {
      report(ctx.sink, [...p, '_key'], 'required', 'every block needs a non-empty string _key');
    } else {
      if (keys.has(key))
        report(ctx.sink, [...p, '_key'], 'duplicate', `_key "${key}" is used by another block in this field`);
      keys.add(key);
    }
    const type = block._type;
    if (typeof type !== 'string' || type === '') {
      report(ctx.sink, [...p, '_type'], 'required', 'every block needs a _type (a block type slug)');
      return block;
    }
    if (!allowed.includes(type)) {
      if (!retired.includes(type)) {
        const hint = allowed.length ? `allowed: ${listForMessage(allowed)}` : 'no block types are allowed';
        report(
          ctx.sink,
          [...p, '_type'],
          'invalid_block_type',
          `block type "${type}" is not allowed in this field (${hint})`,
        );
        return block;
      }
      if (!kept.has(`${type}\u0000${key}`)) {
        report(
          ctx.sink,
          [...p, '_type'],
          'retired_block_type',
          `block type "${type}" is retired: existing blocks may stay, new ones cannot be added`,
        );
      }
    }
    return checkBlockBody(block, type, p, ctx);
  });
}

function checkBlockBody(block: Record<string, unknown>, type: string, p: IssuePath, ctx: ValueContext): unknown {
  const lookup = ctx.options.blockTypes;
  if (!lookup) {
    report(ctx.sink, p, 'block_types_unavailable', 'block type definitions are not available to validate this block');
    return block;
  }
  let version = block._version ?? undefined;
  if (version === undefined) {
    // Lenient: a block without _version gets the active version, as the editor would give it.
    version = lookup.activeVersion(type);
    if (version === undefined) {
      report(ctx.sink, [...p, '_type'], 'unknown_block_type', `block type "${type}" does not exist`);
      return block;
    }
  } else if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) {
    typeIssue(ctx, [...p, '_version'], 'a positive integer block type version', version);
    return block;
  }
  const fields = lookup.fields(type, version as number);
  if (!fields) {
    report(ctx.sink, [...p, '_version'], 'unknown_block_version', `block type "${type}" has no version ${version}`);
    return block;
  }
  const body = checkFields(fields, block, p, ctx, { partial: false, skip: BLOCK_META_KEYS });
  return { _type: type, _version: version, _key: block._key, ...body };
}
