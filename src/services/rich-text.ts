import { issuesError } from '../core/errors.js';
import { findTextProblem } from '../core/text.js';
import type { FieldDefinition } from './fields/types.js';
import { validateFieldValue } from './fields/values.js';

const PORTABLE_TEXT: FieldDefinition = {
  slug: 'content',
  label: 'Content',
  type: 'portableText',
  required: false,
  unique: false,
  searchable: false,
  indexed: false,
  translatable: true,
};

/**
 * Portable Text outside entries (sections, rich-text widgets): the same
 * checks as a portableText field, links following the url rules, plus text
 * that stores on both databases. Throws VALIDATION_ERROR with issues under `path`.
 */
export function checkPortableText(value: unknown, path: (string | number)[]): unknown[] {
  const { value: out, issues } = validateFieldValue(PORTABLE_TEXT, value, path, { mode: 'create' });
  const problem = findTextProblem(value);
  if (problem) issues.push({ path: [...path, ...problem.path], code: problem.code, message: problem.message });
  if (issues.length) throw issuesError('Invalid Portable Text', issues);
  return Array.isArray(out) ? out : [];
}
