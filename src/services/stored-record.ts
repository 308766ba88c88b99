import { isCmsError, type ValidationIssue } from '../core/errors.js';

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
