import type { ValidationIssue } from '../../core/errors.js';
import { isRelationBound } from '../fields/types.js';
import { validateFieldValue } from '../fields/values.js';
import { isLocaleCode } from '../locales.js';
import type { CollectionInfo, SchemaSnapshot } from '../schema/model.js';
import {
  issueText,
  refuse,
  ruleProblem,
  type StoredRow,
  type StoredVerdict,
  storedInstants,
} from '../stored-record.js';
import { blockLookup } from './deps.js';
import type { EntryStatus } from './model.js';
import type { RevisionKind } from './revisions.js';
import { checkSlug } from './slugs.js';

/**
 * Entry rows and revisions that come from elsewhere (a site package), judged
 * by the value rules every content write applies (spec 2: site imports apply
 * the URL checks in entries, revisions, repeaters and blocks). A value of the
 * wrong shape, an unsafe URL or text no database stores refuses the record; a
 * value that breaks only a constraint its field may have gained after it was
 * stored (required, lengths, bounds, pattern, options) is kept and noted, as
 * values stored by an earlier release are kept until their next save.
 */
const ENTRY_STATUSES: ReadonlySet<string> = new Set<EntryStatus>(['draft', 'published', 'scheduled']);
const REVISION_KINDS: ReadonlySet<string> = new Set<RevisionKind>(['save', 'draft', 'publish', 'restore']);

/** Issue codes of constraints (as opposed to shape and safety rules): a stored value breaking one is kept. */
const CONSTRAINT_CODES: ReadonlySet<string> = new Set([
  'required',
  'too_small',
  'too_big',
  'invalid_format',
  'invalid_option',
]);

export const VALUES_NOTE = 'values_breaking_constraints';

interface ValuesVerdict {
  data: Record<string, unknown>;
  problem: string | null;
  noted: boolean;
  /** Some value was normalised (a new value, or a copy of an object). */
  changed: boolean;
}

/** Field values (by field slug) judged against the collection's fields; normalised where they pass. */
export function storedValues(snap: SchemaSnapshot, c: CollectionInfo, data: Record<string, unknown>): ValuesVerdict {
  const out = { ...data };
  let noted = false;
  let changed = false;
  const options = {
    mode: 'update' as const,
    blockTypes: blockLookup(snap),
    previous: data,
    // Seeds and imports keep scheme-less links (spec 2, url rule 3); unsafe schemes are still refused.
    allowSchemelessUrls: true,
  };
  for (const f of c.fields) {
    if (isRelationBound(f) || !Object.hasOwn(data, f.slug)) continue;
    const { value, issues } = validateFieldValue(f, data[f.slug], [f.slug], options);
    const blocking: ValidationIssue[] = issues.filter((i) => !CONSTRAINT_CODES.has(i.code));
    if (blocking.length) return { data, problem: issueText(blocking), noted, changed: false };
    if (issues.length) noted = true;
    else if (value !== data[f.slug]) {
      out[f.slug] = value;
      changed = true;
    }
  }
  return { data: out, problem: null, noted, changed };
}

const INSTANTS = ['created_at', 'updated_at', 'published_at', 'scheduled_at', 'deleted_at'] as const;

/** An entry table row: its system columns and every field column. */
export function storedEntry(snap: SchemaSnapshot, c: CollectionInfo, row: StoredRow): StoredVerdict {
  if (!ENTRY_STATUSES.has(row.status as string))
    return refuse(row, `status "${String(row.status)}" is not an entry status`);
  if (!isLocaleCode(row.locale)) {
    return refuse(row, 'locale is not a locale code');
  }
  if (typeof row.version !== 'number' || row.version < 1) return refuse(row, 'version must be a positive integer');
  const next: StoredRow = { ...row };
  if (row.slug !== null && row.slug !== undefined) {
    const problem = ruleProblem(() => checkSlug(String(row.slug)));
    if (problem) return refuse(row, problem);
  }
  const instants = storedInstants(row, INSTANTS);
  if (instants.problem !== null) return refuse(row, instants.problem);
  Object.assign(next, instants.values);
  const data: Record<string, unknown> = {};
  for (const f of c.fields) if (f.column && Object.hasOwn(row, f.column)) data[f.slug] = row[f.column];
  const values = storedValues(snap, c, data);
  if (values.problem) return refuse(row, values.problem);
  for (const f of c.fields) if (f.column && Object.hasOwn(values.data, f.slug)) next[f.column] = values.data[f.slug];
  return { row: next, ...(values.noted ? { note: VALUES_NOTE } : {}) };
}

/** A revision: its kind, slug and the field values it holds (JSON kept as text). */
export function storedRevision(snap: SchemaSnapshot, row: StoredRow): StoredVerdict {
  if (!REVISION_KINDS.has(row.kind as string)) return refuse(row, `kind "${String(row.kind)}" is not a revision kind`);
  if (row.slug !== null && row.slug !== undefined) {
    const problem = ruleProblem(() => checkSlug(String(row.slug)));
    if (problem) return refuse(row, `slug: ${problem}`);
  }
  const instants = storedInstants(row, ['created_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  let data: unknown;
  try {
    data = JSON.parse(String(row.data));
  } catch {
    return refuse(row, 'data is not JSON');
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return refuse(row, 'data must be an object of field values');
  }
  for (const col of ['refs', 'bylines'] as const) {
    if (row[col] === null || row[col] === undefined) continue;
    try {
      JSON.parse(String(row[col]));
    } catch {
      return refuse(row, `${col} is not JSON`);
    }
  }
  // A revision of a collection the package does not hold is left out by the importer.
  const c = snap.collectionsById.get(String(row.collection_id));
  if (!c) return { row };
  const values = storedValues(snap, c, data as Record<string, unknown>);
  if (values.problem) return refuse(row, `data.${values.problem}`);
  // Text JSON is written again only when a value was normalised.
  const next = { ...row, ...instants.values, ...(values.changed ? { data: JSON.stringify(values.data) } : {}) };
  return { row: next, ...(values.noted ? { note: VALUES_NOTE } : {}) };
}
