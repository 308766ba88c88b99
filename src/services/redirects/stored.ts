import { fitted, issueText, refuse, type StoredRow, type StoredVerdict } from '../stored-record.js';
import { parseSource, REDIRECT_STATUSES, targetIssues } from './rule.js';

const STATUSES: ReadonlySet<number> = new Set(REDIRECT_STATUSES);

/**
 * A redirect rule from elsewhere (a site package), judged by the rules a
 * redirect write applies: a source path, a target that is a site path or an
 * http(s) URL without control characters, a redirect status. The kind and
 * source are the parsed source's, whatever the record says (reported as
 * `redirect_normalised` when they differ).
 */
export function storedRedirect(row: StoredRow): StoredVerdict {
  const parsed = parseSource(String(row.source ?? ''));
  if (Array.isArray(parsed)) return refuse(row, issueText(parsed) as string);
  const target = targetIssues(String(row.target ?? ''), parsed);
  if (target.length) return refuse(row, issueText(target) as string);
  if (!STATUSES.has(row.status_code as number)) {
    return refuse(row, `status_code ${String(row.status_code)} is not one of ${REDIRECT_STATUSES.join(', ')}`);
  }
  if (row.enabled !== 0 && row.enabled !== 1) return refuse(row, 'enabled must be 0 or 1');
  return fitted(
    row,
    { ...row, source: parsed.source, kind: parsed.kind, target: String(row.target).trim() },
    'redirect_normalised',
  );
}
