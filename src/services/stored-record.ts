import type { ZodType } from 'zod';
import { isCmsError, type ValidationIssue } from '../core/errors.js';
import { normalizeDatetime } from './fields/datetime.js';

/**
 * What a domain's rules say of one stored row that comes from elsewhere (a
 * site package's record): keep it, keep it changed by a documented
 * transformation, or refuse it. Each domain judges its own rows with the
 * rules its write path applies, so an importer never holds a copy of a rule.
 */
export type StoredRow = Record<string, unknown>;

export interface StoredVerdict {
  /** The row to write: the same object when nothing changed. */
  row: StoredRow;
  /** Why the row cannot be written (the importer names its file and line). */
  problem?: string;
  /** Code of the documented transformation that changed the row (reported with a count). */
  transformation?: string;
  /**
   * Code of a note on a row kept as it is although the current rules would
   * refuse it on its next save (a value stored before a rule changed); reported
   * with a count, as values stored by an earlier release are.
   */
  note?: string;
}

export const keep = (row: StoredRow): StoredVerdict => ({ row });
export const refuse = (row: StoredRow, problem: string): StoredVerdict => ({ row, problem });

/** The row, changed by `transformation` when `next` differs from it in any column. */
export function fitted(row: StoredRow, next: StoredRow, transformation: string): StoredVerdict {
  const changed = Object.keys(next).some((k) => next[k] !== row[k]);
  return changed ? { row: next, transformation } : { row };
}

/** The first issue as one line: `path: message`. */
export function issueText(issues: readonly ValidationIssue[]): string | null {
  const first = issues[0];
  if (!first) return null;
  return first.path.length ? `${first.path.join('.')}: ${first.message}` : first.message;
}

/**
 * Run a write-path rule that throws VALIDATION_ERROR; its message (and first
 * issue) as a problem, or null when the value passes.
 */
export function ruleProblem(rule: () => unknown): string | null {
  try {
    rule();
    return null;
  } catch (err) {
    if (!isCmsError(err) || err.code !== 'VALIDATION_ERROR') throw err;
    const issues = (err.details?.issues as ValidationIssue[] | undefined) ?? [];
    return issueText(issues) ?? err.message;
  }
}

/** A text column: a string (or null where `nullable`). */
export function textProblem(row: StoredRow, column: string, nullable = false): string | null {
  const v = row[column];
  if (typeof v === 'string' || (nullable && v === null)) return null;
  return `${column} must be ${nullable ? 'text or null' : 'text'}`;
}

/** A value judged by a write path's zod schema: its parsed (normalised) form, or the first issue naming `column`. */
export function schemaVerdict<T>(
  schema: ZodType<T>,
  value: unknown,
  column: string,
): { ok: true; value: T } | { ok: false; problem: string } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const [issue] = parsed.error.issues;
  const at = [column, ...(issue?.path ?? []).map(String)].join('.');
  return { ok: false, problem: `${at}: ${issue?.message ?? 'invalid'}` };
}

/** A 0/1 flag column. */
export function flagProblem(row: StoredRow, column: string): string | null {
  return row[column] === 0 || row[column] === 1 ? null : `${column} must be 0 or 1`;
}

/** A position among siblings: a whole number of zero or more. */
export function positionProblem(row: StoredRow, column = 'position'): string | null {
  const v = row[column];
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
    ? null
    : `${column} must be a whole number of zero or more`;
}

/**
 * Instant columns as every write stores them (spec 2, datetime rules): a
 * date-time with a zone, put in its UTC millisecond form; anything else is a
 * problem naming the column. Empty values are the column shapes' business.
 */
export function storedInstants(
  row: StoredRow,
  columns: readonly string[],
): { values: StoredRow; problem: null } | { values: null; problem: string } {
  const values: StoredRow = {};
  for (const col of columns) {
    const v = row[col];
    if (v === null || v === undefined) continue;
    const at = typeof v === 'string' ? normalizeDatetime(v) : null;
    if (!at) return { values: null, problem: `${col} is not a date-time with a time zone` };
    values[col] = at;
  }
  return { values, problem: null };
}

/** A JSON text column's value, or a problem naming the column. */
export function jsonColumn(
  row: StoredRow,
  column: string,
): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, value: JSON.parse(String(row[column])) };
  } catch {
    return { ok: false, problem: `${column} is not JSON` };
  }
}
