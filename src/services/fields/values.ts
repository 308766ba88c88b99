/**
 * The one value-validation module: every door (REST, MCP, CLI, seeds, imports) checks entry
 * data here, so a rule holds everywhere. Inputs are never mutated; normalised copies come back
 * (datetimes in UTC milliseconds, '' on url/select/datetime as null, blocks defaulting to []).
 */
import { issuesError, type ValidationIssue } from '../../core/errors.js';
import { type IssuePath, type IssueSink, isPlainObject, report } from './issue.js';
import type { FieldDefinition } from './types.js';
import type { ValidateOptions, ValueContext } from './value-context.js';
import { checkFields, checkValue } from './values-core.js';

export type { BlockTypeVersionLookup, ValidateOptions } from './value-context.js';

export interface FieldValueResult {
  value: unknown;
  issues: ValidationIssue[];
}

/**
 * Validates and normalises entry `data` against the collection's fields. Returns only field
 * slugs. Throws VALIDATION_ERROR with every issue found, paths starting `['data', fieldSlug]`.
 * Relation-bound reference fields are not part of data; their links go in `references`.
 */
export function validateEntryData(
  fields: readonly FieldDefinition[],
  data: unknown,
  options: ValidateOptions,
): Record<string, unknown> {
  const sink: IssueSink = [];
  if (!isPlainObject(data)) {
    report(sink, ['data'], 'invalid_type', 'data must be an object keyed by field slug');
    throw issuesError('Invalid entry data', sink);
  }
  const ctx: ValueContext = { sink, options };
  const previous = isPlainObject(options.previous) ? options.previous : undefined;
  const out = checkFields(fields, data, ['data'], ctx, { partial: options.mode === 'update', previous });
  if (sink.length > 0) throw issuesError('Invalid entry data', sink);
  return out;
}

/** Validates one field's value; issues carry `path` as their prefix. */
export function validateFieldValue(
  field: FieldDefinition,
  value: unknown,
  path: IssuePath,
  options: ValidateOptions,
): FieldValueResult {
  const sink: IssueSink = [];
  const previous =
    isPlainObject(options.previous) && Object.hasOwn(options.previous, field.slug)
      ? options.previous[field.slug]
      : undefined;
  const out = checkValue(field, value, path, { sink, options }, previous);
  return { value: out, issues: sink };
}
