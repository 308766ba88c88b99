import { checkSlug } from '../content/slugs.js';
import { isLocaleCode } from '../locales.js';
import { checkCollectionSlug } from '../schema/collections.js';
import {
  fitted,
  flagProblem,
  jsonColumn,
  positionProblem,
  refuse,
  ruleProblem,
  type StoredRow,
  type StoredVerdict,
  schemaVerdict,
  storedInstants,
} from '../stored-record.js';
import { TAXONOMY_RULES } from './rules.js';

/**
 * Taxonomies, their definitions, terms and the terms of entries from
 * elsewhere (a site package), judged by the rules the taxonomy service and
 * its request bodies apply. Labels are stored trimmed, slugs in NFC, a
 * collection listed once; a change is reported as `taxonomy_normalised`.
 */
export const TAXONOMY_NORMALISED = 'taxonomy_normalised';

const nameProblem = (row: StoredRow, col: string) => {
  const judged = schemaVerdict(TAXONOMY_RULES.name, row[col], col);
  return judged.ok ? null : judged.problem;
};

/** The taxonomy-wide values: its name, whether terms nest, the collections that take its terms. */
export function storedTaxonomy(row: StoredRow): StoredVerdict {
  const name = nameProblem(row, 'name');
  if (name) return refuse(row, name);
  const flag = flagProblem(row, 'hierarchical');
  if (flag) return refuse(row, flag);
  const listed = jsonColumn(row, 'collections');
  if (!listed.ok) return refuse(row, listed.problem);
  const slugs = listed.value;
  if (!Array.isArray(slugs) || slugs.length > TAXONOMY_RULES.maxCollections) {
    return refuse(row, `collections must be a list of at most ${TAXONOMY_RULES.maxCollections} collection slugs`);
  }
  for (const [i, slug] of slugs.entries()) {
    const problem = ruleProblem(() => checkCollectionSlug(String(slug)));
    if (typeof slug !== 'string' || problem) return refuse(row, `collections.${i}: not a collection slug`);
  }
  const instants = storedInstants(row, ['created_at', 'updated_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(
    row,
    { ...row, collections: JSON.stringify([...new Set(slugs)]), ...instants.values },
    TAXONOMY_NORMALISED,
  );
}

/** One locale's labels of a taxonomy. */
export function storedTaxonomyDef(row: StoredRow): StoredVerdict {
  const name = nameProblem(row, 'taxonomy');
  if (name) return refuse(row, name);
  if (!isLocaleCode(row.locale)) return refuse(row, 'locale is not a locale code');
  const next: StoredRow = { ...row };
  for (const col of ['label', 'label_singular'] as const) {
    const judged = schemaVerdict(TAXONOMY_RULES.label, row[col], col);
    if (!judged.ok) return refuse(row, judged.problem);
    next[col] = judged.value;
  }
  const instants = storedInstants(row, ['created_at', 'updated_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(row, { ...next, ...instants.values }, TAXONOMY_NORMALISED);
}

/** One locale's term: slug, label, description, and its place (parent group, position) in the tree. */
export function storedTerm(row: StoredRow): StoredVerdict {
  const name = nameProblem(row, 'taxonomy');
  if (name) return refuse(row, name);
  if (!isLocaleCode(row.locale)) return refuse(row, 'locale is not a locale code');
  const slug = ruleProblem(() => checkSlug(String(row.slug)));
  if (slug) return refuse(row, slug);
  const labelled = schemaVerdict(TAXONOMY_RULES.label, row.label, 'label');
  if (!labelled.ok) return refuse(row, labelled.problem);
  const described = schemaVerdict(TAXONOMY_RULES.termDescription, row.description ?? null, 'description');
  if (!described.ok) return refuse(row, described.problem);
  const position = positionProblem(row);
  if (position) return refuse(row, position);
  const instants = storedInstants(row, ['created_at', 'updated_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(
    row,
    { ...row, slug: checkSlug(String(row.slug)), label: labelled.value, ...instants.values },
    TAXONOMY_NORMALISED,
  );
}

/** A term assigned to an entry: the taxonomy's name and the term's place among the entry's terms. */
export function storedContentTerm(row: StoredRow): StoredVerdict {
  const name = nameProblem(row, 'taxonomy');
  if (name) return refuse(row, name);
  const position = positionProblem(row);
  if (position) return refuse(row, position);
  const instants = storedInstants(row, ['created_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(row, { ...row, ...instants.values }, TAXONOMY_NORMALISED);
}
