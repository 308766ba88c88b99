import { SLUG_PATTERN } from '../fields/types.js';
import {
  fitted,
  flagProblem,
  refuse,
  type StoredRow,
  type StoredVerdict,
  schemaVerdict,
  storedInstants,
} from '../stored-record.js';
import { ENTRY_SEO_RULES, seoText } from './entry-rules.js';

export const SEO_NORMALISED = 'seo_normalised';

/**
 * An entry's SEO object from elsewhere (a site package), judged by the rules
 * an SEO update applies: a title and description within their limits, a
 * canonical link that is an absolute http(s) URL, noindex a flag. Values are
 * stored trimmed (blank as null), as an update stores them; a change is
 * reported as `seo_normalised`.
 */
export function storedSeo(row: StoredRow): StoredVerdict {
  if (typeof row.collection !== 'string' || !SLUG_PATTERN.test(row.collection)) {
    return refuse(row, 'collection is not a collection slug');
  }
  const next: StoredRow = { ...row };
  for (const col of ['title', 'description', 'canonical'] as const) {
    const judged = schemaVerdict(ENTRY_SEO_RULES[col], row[col] ?? null, col);
    if (!judged.ok) return refuse(row, judged.problem);
    next[col] = seoText(judged.value);
  }
  const flag = flagProblem(row, 'noindex');
  if (flag) return refuse(row, flag);
  const instants = storedInstants(row, ['updated_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(row, { ...next, ...instants.values }, SEO_NORMALISED);
}
