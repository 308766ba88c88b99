import { checkFieldDefinition, type FieldInput, fieldInputSchema, normalizeFieldInput } from '../fields/definition.js';
import { isRelationBound } from '../fields/types.js';
import {
  fitted,
  flagProblem,
  issueText,
  jsonColumn,
  refuse,
  ruleProblem,
  type StoredRow,
  type StoredVerdict,
  schemaVerdict,
  storedInstants,
} from '../stored-record.js';
import { checkCollectionSlug, normalizeSupports } from './collections.js';
import { SUPPORTS, type Support } from './model.js';
import { SCHEMA_DESCRIPTION, SCHEMA_ICON, SCHEMA_LABEL } from './rules.js';
import type { UrlPattern } from './url-pattern.js';
import { urlPatternIssues } from './url-pattern.js';

/**
 * Collections and fields from elsewhere (a site package), judged by the
 * rules the schema API applies to a create or an update. Block types are
 * judged in stored-blocks.ts, relations and their links in stored-relations.ts.
 */
export const COLLECTION_NORMALISED = 'collection_normalised';
export const FIELD_NORMALISED = 'field_normalised';

const SUPPORTED: ReadonlySet<string> = new Set(SUPPORTS);

/** A stored URL pattern: the text itself, or a JSON object of one pattern per locale. */
function storedPattern(stored: unknown): { pattern: UrlPattern | null } | { problem: string } {
  if (stored === null || stored === undefined || stored === '') return { pattern: null };
  const text = String(stored);
  if (!text.startsWith('{')) return { pattern: text };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return { pattern: value as Record<string, string> };
    }
  } catch {
    // refused below
  }
  return { problem: 'url_pattern is neither a pattern nor a JSON object of patterns' };
}

/**
 * A collection: its slug, labels (trimmed), description and icon within their
 * limits, supports from this release's list (each once), a URL pattern of the
 * pattern rules. Locales a per-locale pattern names are not checked against
 * this site's configuration (see urlPatternIssues). Changes: `collection_normalised`.
 */
export function storedCollection(row: StoredRow): StoredVerdict {
  const slug = ruleProblem(() => checkCollectionSlug(String(row.slug)));
  if (slug) return refuse(row, slug);
  const next: StoredRow = { ...row };
  for (const col of ['label', 'label_singular'] as const) {
    const judged = schemaVerdict(SCHEMA_LABEL, row[col], col);
    if (!judged.ok) return refuse(row, judged.problem);
    next[col] = judged.value;
  }
  for (const [col, rule] of [
    ['description', SCHEMA_DESCRIPTION],
    ['icon', SCHEMA_ICON],
  ] as const) {
    const judged = schemaVerdict(rule, row[col] ?? null, col);
    if (!judged.ok) return refuse(row, judged.problem);
  }
  const supports = jsonColumn(row, 'supports');
  if (!supports.ok) return refuse(row, supports.problem);
  if (!Array.isArray(supports.value) || !supports.value.every((s) => SUPPORTED.has(s as string))) {
    return refuse(row, `supports must be a list of ${SUPPORTS.join(', ')}`);
  }
  next.supports = JSON.stringify(normalizeSupports(supports.value as Support[]));
  const pattern = storedPattern(row.url_pattern);
  if ('problem' in pattern) return refuse(row, pattern.problem);
  const issues = urlPatternIssues(pattern.pattern, null, ['url_pattern']);
  if (issues.length) return refuse(row, issueText(issues) as string);
  const instants = storedInstants(row, ['created_at', 'updated_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(row, { ...next, ...instants.values }, COLLECTION_NORMALISED);
}

const FLAGS = ['required', 'is_unique', 'searchable', 'indexed', 'translatable'] as const;

/** The field input a stored field row says (what a create with these values would send). */
function inputOf(row: StoredRow): { input: Record<string, unknown> } | { problem: string } {
  const input: Record<string, unknown> = {
    slug: row.slug,
    label: row.label,
    type: row.type,
    required: row.required === 1,
    unique: row.is_unique === 1,
    searchable: row.searchable === 1,
    indexed: row.indexed === 1,
    translatable: row.translatable === 1,
    sortOrder: row.sort_order,
  };
  const props = [
    ['default_value', 'defaultValue'],
    ['validation', 'validation'],
    ['options', 'options'],
  ] as const;
  for (const [col, prop] of props) {
    if (row[col] === null || row[col] === undefined) continue;
    const parsed = jsonColumn(row, col);
    if (!parsed.ok) return { problem: parsed.problem };
    input[prop] = parsed.value;
  }
  if (row.widget !== null && row.widget !== undefined) input.widget = row.widget;
  return { input };
}

/**
 * A field: the definition its row says passes checkFieldDefinition — slug,
 * label, type, flags, validation (a `pattern` the linear-time engine runs,
 * repeater sub-fields, blocks' allowed types), options and default — judged
 * as an update that changes nothing is (the stored definition is its own
 * previous one, so server-managed values it holds, such as retired block
 * types, stand). Whether the block types a blocks field allows exist is not
 * asked: an import writes block types after fields. Its column is its slug,
 * none for a reference bound to a relation.
 */
export function storedField(row: StoredRow): StoredVerdict {
  for (const flag of FLAGS) {
    const problem = flagProblem(row, flag);
    if (problem) return refuse(row, problem);
  }
  const made = inputOf(row);
  if ('problem' in made) return refuse(row, made.problem);
  const parsed = fieldInputSchema.safeParse(made.input);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    return refuse(row, `${issue.path.map(String).join('.')}: ${issue.message}`);
  }
  const def = normalizeFieldInput(parsed.data as FieldInput);
  const issues = checkFieldDefinition(def, { previous: def });
  if (issues.length) return refuse(row, issueText(issues) as string);
  const column = isRelationBound(def) ? null : def.slug;
  if (row.column_name !== column) {
    return refuse(
      row,
      column === null
        ? 'column_name must be empty: a reference bound to a relation keeps its links in the links table'
        : `column_name must be the field's slug "${def.slug}"`,
    );
  }
  const instants = storedInstants(row, ['created_at', 'updated_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(row, { ...row, ...instants.values }, FIELD_NORMALISED);
}
