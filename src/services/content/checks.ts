import { CmsError, issuesError, type ValidationIssue } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { DialectName } from '../../db/dialect.js';
import { lockKey } from '../../db/locks.js';
import type { CollectionInfo } from '../schema/model.js';
import { encodeData, slugTaken, uniqueTaken } from './rows.js';
import { checkSlug, slugify } from './slugs.js';

/** Unique fields are unique per locale among entries not in the trash. */
export async function checkUniques(
  db: Kdb,
  dialect: DialectName,
  c: CollectionInfo,
  data: Record<string, unknown>,
  locale: string,
  exceptId?: string,
): Promise<void> {
  const issues: ValidationIssue[] = [];
  for (const f of c.fields) {
    if (!f.unique || !f.column || !Object.hasOwn(data, f.slug)) continue;
    const value = data[f.slug];
    if (value === null || value === undefined || value === '') continue;
    const encoded = encodeData(dialect, c, { [f.slug]: value })[f.column];
    if (await uniqueTaken(db, c, f, encoded, locale, exceptId)) {
      issues.push({
        path: ['data', f.slug],
        code: 'not_unique',
        message: `another ${locale} entry already uses this value`,
      });
    }
  }
  if (issues.length) throw issuesError('Invalid entry data', issues);
}

/** An explicit slug must be valid and free in its locale. */
export async function claimSlug(
  db: Kdb,
  c: CollectionInfo,
  slug: string,
  locale: string,
  exceptId?: string,
): Promise<string> {
  const s = checkSlug(slug);
  if (await slugTaken(db, c, s, locale, exceptId)) {
    throw new CmsError('ALREADY_EXISTS', `Slug "${s}" is already used by another ${locale} entry`, { slug: s, locale });
  }
  return s;
}

/**
 * A free slug derived from `base`: base, else base-N. Numbered siblings are
 * found by doubling then halving N over the (locale, slug) index, so the cost
 * grows with the logarithm of the number of siblings, not with their number.
 */
export async function freeSlug(
  db: Kdb,
  dialect: DialectName,
  c: CollectionInfo,
  base: string,
  locale: string,
): Promise<string> {
  const root = slugify(base).slice(0, 180) || 'entry';
  const taken = (n: number) => slugTaken(db, c, n === 1 ? root : `${root}-${n}`, locale);
  // A free root is the common case: take it without a lock (a writer that loses the race to the same root
  // fails on the unique index and its create is retried, then finds the root taken).
  if (!(await taken(1))) return root;
  // Numbered siblings are where writers collide: those deriving from the same root wait for each other.
  await lockKey(db, dialect, `slug:${c.table}:${locale}:${root}`);
  if (!(await taken(1))) return root;
  // Invariant: `lo` is taken (1 stands for the bare root), `hi` is free.
  let lo = 1;
  let hi = 2;
  while (await taken(hi)) {
    lo = hi;
    hi *= 2;
    if (hi > 2 ** 40) throw new CmsError('CONFLICT', 'Could not find a free slug');
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (await taken(mid)) lo = mid;
    else hi = mid;
  }
  return `${root}-${hi}`;
}

/** Source text for an automatic slug: the display-title field's value. */
export function slugSource(c: CollectionInfo, data: Record<string, unknown>): string | null {
  const candidates = c.fields.filter((f) => ['string', 'text', 'slug'].includes(f.type) && f.column);
  const named =
    candidates.find((f) => f.slug === 'title') ?? candidates.find((f) => f.slug === 'name') ?? candidates[0];
  const value = named ? data[named.slug] : null;
  return typeof value === 'string' && value.trim() ? value : null;
}
