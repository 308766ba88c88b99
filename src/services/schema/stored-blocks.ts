import { blockDefinitionIssues, type FieldInput, fieldInputSchema, normalizeFieldInput } from '../fields/definition.js';
import type { FieldDefinition } from '../fields/types.js';
import {
  fitted,
  issueText,
  jsonColumn,
  refuse,
  ruleProblem,
  type StoredRow,
  type StoredVerdict,
  schemaVerdict,
  storedInstants,
} from '../stored-record.js';
import { checkBlockTypeSlug, MAX_BLOCK_FIELDS, SCHEMA_DESCRIPTION, SCHEMA_ICON, SCHEMA_LABEL } from './rules.js';

/**
 * Block types and their versions from elsewhere (a site package), judged by
 * the rules a block type create or update applies. Labels are stored trimmed;
 * a change is reported as `block_type_normalised`.
 */
export const BLOCK_TYPE_NORMALISED = 'block_type_normalised';

const versionProblem = (row: StoredRow, col: string) =>
  typeof row[col] === 'number' && Number.isSafeInteger(row[col]) && (row[col] as number) >= 1
    ? null
    : `${col} must be a whole number of 1 or more`;

/** A block type: its slug, label, description, icon and the version its blocks are made with. */
export function storedBlockType(row: StoredRow): StoredVerdict {
  const slug = ruleProblem(() => checkBlockTypeSlug(String(row.slug)));
  if (slug) return refuse(row, slug);
  const labelled = schemaVerdict(SCHEMA_LABEL, row.label, 'label');
  if (!labelled.ok) return refuse(row, labelled.problem);
  for (const [col, rule] of [
    ['description', SCHEMA_DESCRIPTION],
    ['icon', SCHEMA_ICON],
  ] as const) {
    const judged = schemaVerdict(rule, row[col] ?? null, col);
    if (!judged.ok) return refuse(row, judged.problem);
  }
  const version = versionProblem(row, 'active_version');
  if (version) return refuse(row, version);
  const instants = storedInstants(row, ['created_at', 'updated_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(row, { ...row, label: labelled.value, ...instants.values }, BLOCK_TYPE_NORMALISED);
}

/**
 * One version of a block type: 1 to 100 fields, each a field input of the
 * kinds a block may hold (blockDefinitionIssues: no references, JSON, slugs
 * or nested blocks; no unique, indexed or searchable flags; each slug once).
 * The fields are stored as a create stores them (normalised definitions).
 */
export function storedBlockTypeVersion(row: StoredRow): StoredVerdict {
  const version = versionProblem(row, 'version');
  if (version) return refuse(row, version);
  const labelled = schemaVerdict(SCHEMA_LABEL, row.label, 'label');
  if (!labelled.ok) return refuse(row, labelled.problem);
  const fields = jsonColumn(row, 'fields');
  if (!fields.ok) return refuse(row, fields.problem);
  const list = fields.value;
  if (!Array.isArray(list) || list.length < 1 || list.length > MAX_BLOCK_FIELDS) {
    return refuse(row, `fields must be a list of 1 to ${MAX_BLOCK_FIELDS} field definitions`);
  }
  const defs: FieldDefinition[] = [];
  for (const [i, field] of list.entries()) {
    const judged = schemaVerdict(fieldInputSchema, field, `fields.${i}`);
    if (!judged.ok) return refuse(row, judged.problem);
    defs.push(normalizeFieldInput(judged.value as FieldInput));
  }
  const issues = blockDefinitionIssues(defs).map((issue) => ({ ...issue, path: ['fields', ...issue.path] }));
  if (issues.length) return refuse(row, issueText(issues) as string);
  const instants = storedInstants(row, ['created_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(
    row,
    { ...row, label: labelled.value, fields: JSON.stringify(defs), ...instants.values },
    BLOCK_TYPE_NORMALISED,
  );
}
