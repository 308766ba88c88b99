import { sql } from 'kysely';
import { CmsError, issuesError, type ValidationIssue } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { DialectName } from '../../db/dialect.js';
import type { CollectionInfo } from '../schema/model.js';
import { dyn, encodeData, slugTaken, uniqueTaken } from './rows.js';
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
    if (!f.unique || !f.column || !(f.slug in data)) continue;
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
 * A free slug derived from `base`: base, else base-N with N one above the
 * highest numbered sibling (one query, however many siblings exist).
 */
export async function freeSlug(
  db: Kdb,
  dialect: DialectName,
  c: CollectionInfo,
  base: string,
  locale: string,
): Promise<string> {
  const root = slugify(base).slice(0, 180) || 'entry';
  if (!(await slugTaken(db, c, root, locale))) return root;
  // slugify leaves only letters, digits and hyphens, so the root needs no escaping in GLOB or a regex.
  const numbered =
    dialect === 'postgres'
      ? sql<boolean>`slug ~ ${`^${root}-[0-9]+$`}`
      : sql<boolean>`slug glob ${`${root}-[0-9]*`} and substr(slug, ${root.length + 2}) not glob '*[^0-9]*'`;
  const top = await dyn(db)
    .selectFrom(c.table)
    .select('slug')
    .where('locale', '=', locale)
    .where(numbered)
    .orderBy(sql`length(slug)`, 'desc')
    .orderBy('slug', 'desc')
    .limit(1)
    .executeTakeFirst();
  const n = top ? Number((top.slug as string).slice(root.length + 1)) + 1 : 2;
  return `${root}-${n}`;
}

/** Source text for an automatic slug: the display-title field's value. */
export function slugSource(c: CollectionInfo, data: Record<string, unknown>): string | null {
  const candidates = c.fields.filter((f) => ['string', 'text', 'slug'].includes(f.type) && f.column);
  const named =
    candidates.find((f) => f.slug === 'title') ?? candidates.find((f) => f.slug === 'name') ?? candidates[0];
  const value = named ? data[named.slug] : null;
  return typeof value === 'string' && value.trim() ? value : null;
}
