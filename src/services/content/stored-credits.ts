import { isLocaleCode } from '../locales.js';
import {
  fitted,
  keep,
  positionProblem,
  refuse,
  type StoredRow,
  type StoredVerdict,
  schemaVerdict,
  storedInstants,
} from '../stored-record.js';
import { BYLINE_RULES, bylineUrlIssues, isBylineSlug } from './byline-rules.js';

/**
 * Bylines, the credits of entries and who scheduled a publication, from
 * elsewhere (a site package), judged by the rules the byline and content
 * writes apply. A change (a trimmed name, an instant put in its UTC form) is
 * reported as `byline_normalised` or `entry_credit_normalised`.
 */
export const BYLINE_NORMALISED = 'byline_normalised';
export const CREDIT_NORMALISED = 'entry_credit_normalised';

/** A byline: its name, slug, bio and links (the url rules), its locale. The user it names is mapped by the import. */
export function storedByline(row: StoredRow): StoredVerdict {
  const name = schemaVerdict(BYLINE_RULES.displayName, row.display_name, 'display_name');
  if (!name.ok) return refuse(row, name.problem);
  if (typeof row.slug !== 'string' || !isBylineSlug(row.slug)) {
    return refuse(row, 'slug is not a byline slug (lower-case words joined by hyphens)');
  }
  const bio = schemaVerdict(BYLINE_RULES.bio, row.bio ?? null, 'bio');
  if (!bio.ok) return refuse(row, bio.problem);
  for (const col of ['avatar_url', 'website_url'] as const) {
    const judged = schemaVerdict(BYLINE_RULES.url, row[col] ?? null, col);
    if (!judged.ok) return refuse(row, judged.problem);
  }
  const [link] = bylineUrlIssues({
    avatarUrl: row.avatar_url as string | null | undefined,
    websiteUrl: row.website_url as string | null | undefined,
  });
  if (link) return refuse(row, `${link.path[0] === 'avatarUrl' ? 'avatar_url' : 'website_url'}: ${link.message}`);
  if (!isLocaleCode(row.locale)) return refuse(row, 'locale is not a locale code');
  const instants = storedInstants(row, ['created_at', 'updated_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(row, { ...row, display_name: name.value, ...instants.values }, BYLINE_NORMALISED);
}

/** A credit of an entry: its place in the entry's credits, what the byline did. */
export function storedEntryByline(row: StoredRow): StoredVerdict {
  const position = positionProblem(row);
  if (position) return refuse(row, position);
  const role = schemaVerdict(BYLINE_RULES.roleLabel, row.role_label ?? null, 'role_label');
  if (!role.ok) return refuse(row, role.problem);
  return keep(row);
}

/** Who scheduled an entry's publication, and when (the scheduler publishes with that user's rights). */
export function storedEntrySchedule(row: StoredRow): StoredVerdict {
  const instants = storedInstants(row, ['created_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(row, { ...row, ...instants.values }, CREDIT_NORMALISED);
}
