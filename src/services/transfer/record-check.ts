import type { CmsConfig } from '../../core/config.js';
import { type ColumnKind, IDENTIFIER } from '../../db/dialect.js';
import { storedAllowedDomain, storedUser } from '../auth/stored.js';
import { storedComment } from '../comments/stored.js';
import { storedEntry, storedRevision } from '../content/stored.js';
import { storedByline, storedEntryByline, storedEntrySchedule } from '../content/stored-credits.js';
import { COLUMN_KIND } from '../fields/types.js';
import { storedMedia, storedMediaFolder } from '../media/stored.js';
import { storedMenu, storedMenuItem } from '../menus/stored.js';
import { storedRedirect } from '../redirects/stored.js';
import { SYSTEM_COLUMNS } from '../schema/ddl.js';
import type { CollectionInfo, SchemaSnapshot } from '../schema/model.js';
import { storedCollection, storedField } from '../schema/stored.js';
import { storedBlockType, storedBlockTypeVersion } from '../schema/stored-blocks.js';
import { storedLink, storedRelation } from '../schema/stored-relations.js';
import { storedSearchSettings } from '../search/stored.js';
import { storedSection } from '../sections/stored.js';
import { storedSeo } from '../seo/stored.js';
import { storedSiteSetting } from '../settings/stored.js';
import { keep, refuse, type StoredRow, type StoredVerdict } from '../stored-record.js';
import { storedContentTerm, storedTaxonomy, storedTaxonomyDef, storedTerm } from '../taxonomies/stored.js';
import { storedWidget, storedWidgetArea } from '../widgets/stored.js';
import { ENTRIES_KIND, recordKind } from './kinds.js';
import type { ColumnShapes } from './parts.js';

/**
 * The one check every record of a site package passes, in the analysis (a
 * failure is a blocker naming the file and line) and again as the import
 * writes it (so nothing the analysis did not see can be written): the values
 * fit this release's columns, then the record's own domain judges it by the
 * rules its write path applies (see docs/decisions.md, "Where imported
 * records are checked").
 */
export interface CheckContext {
  config: CmsConfig;
  /** Columns of the kind's system table (system kinds). */
  columns: ColumnShapes | null;
  /** The schema the package's entries and revisions are judged against. */
  snapshot: SchemaSnapshot;
}

type Rule = (row: StoredRow, ctx: CheckContext) => StoredVerdict;

/** Each kind's domain rule (docs/transfer.md, "How records are checked"); a kind without one is judged by its columns alone. */
const RULES: Readonly<Record<string, Rule>> = {
  settings: (row) => storedSiteSetting(row),
  users: (row) => storedUser(row),
  allowedDomains: (row) => storedAllowedDomain(row),
  collections: (row) => storedCollection(row),
  fields: (row) => storedField(row),
  blockTypes: (row) => storedBlockType(row),
  blockTypeVersions: (row) => storedBlockTypeVersion(row),
  relations: (row) => storedRelation(row),
  searchSettings: (row, ctx) => storedSearchSettings(row, ctx.snapshot),
  taxonomies: (row) => storedTaxonomy(row),
  taxonomyDefs: (row) => storedTaxonomyDef(row),
  terms: (row) => storedTerm(row),
  mediaFolders: (row) => storedMediaFolder(row),
  media: (row, ctx) => storedMedia(row, ctx.config.mediaAllowedTypes),
  bylines: (row) => storedByline(row),
  revisions: (row, ctx) => storedRevision(ctx.snapshot, row),
  links: (row) => storedLink(row),
  entryBylines: (row) => storedEntryByline(row),
  entrySchedules: (row) => storedEntrySchedule(row),
  contentTerms: (row) => storedContentTerm(row),
  menus: (row) => storedMenu(row),
  menuItems: (row) => storedMenuItem(row),
  sections: (row) => storedSection(row),
  widgetAreas: (row) => storedWidgetArea(row),
  widgets: (row) => storedWidget(row),
  seo: (row) => storedSeo(row),
  redirects: (row) => storedRedirect(row),
  comments: (row) => storedComment(row),
};

const SYSTEM_KINDS: ReadonlyMap<string, ColumnKind> = new Map(SYSTEM_COLUMNS.map((c) => [c.name, c.kind]));

/** Whether a package value can be stored in a column of this kind (as the exporter writes it). */
function fits(kind: ColumnKind, value: unknown): boolean {
  if (value === null || kind === 'json') return true;
  if (kind === 'text') return typeof value === 'string';
  if (kind === 'boolean') return typeof value === 'boolean';
  return typeof value === 'number' && Number.isFinite(value) && (kind === 'real' || Number.isSafeInteger(value));
}

const article = (kind: string) => (kind === 'integer' ? 'an' : 'a');

const kindsOf = new WeakMap<CollectionInfo, ReadonlyMap<string, ColumnKind>>();

/** Storage kinds of an entry table's columns: system columns, field columns, a legacy reference's retired column. */
export function entryColumnKinds(c: CollectionInfo): ReadonlyMap<string, ColumnKind> {
  // Asked for every entry record: made once per collection of a snapshot (snapshots are never changed).
  const known = kindsOf.get(c);
  if (known) return known;
  const kinds = new Map(SYSTEM_KINDS);
  for (const f of c.fields) {
    if (f.column) kinds.set(f.column, COLUMN_KIND[f.type]);
    if (f.retiredColumn) kinds.set(f.retiredColumn, 'text');
  }
  kindsOf.set(c, kinds);
  return kinds;
}

/** The columns an entry of `collection` may carry, or null when the schema has no such collection. */
export function entryColumns(snap: SchemaSnapshot, collection: string | null): ReadonlySet<string> | null {
  const c = snap.collections.get(collection ?? '');
  return c ? new Set(entryColumnKinds(c).keys()) : null;
}

const isName = (v: unknown) => typeof v === 'string' && IDENTIFIER.test(v) && v.length <= 60;

/** Values this release turns into SQL names (entry tables and columns) or reads as JSON must have the form it expects. */
function transferDefect(kind: string, row: StoredRow): string | null {
  if (kind === 'collections' && !isName(row.slug)) return 'the collection slug is not a valid identifier';
  if (kind === 'fields') {
    for (const col of ['column_name', 'retired_column'] as const) {
      if (row[col] !== null && row[col] !== undefined && !isName(row[col])) return `${col} is not a valid identifier`;
    }
  }
  if (kind === 'settings') {
    try {
      JSON.parse(String(row.value));
    } catch {
      return 'the setting value is not JSON';
    }
  }
  return null;
}

/** Values the database would refuse (a wrong type, NULL or nothing where a value is needed). */
function shapeProblem(kind: string, row: StoredRow, columns: ColumnShapes): string | null {
  for (const [col, v] of Object.entries(row)) {
    const shape = columns.get(col);
    if (!shape) continue;
    if (v === null) {
      if (!shape.nullable) return `${col} must not be empty`;
    } else if (shape.integer ? !Number.isSafeInteger(v) : shape.real ? !Number.isFinite(v) : typeof v !== 'string') {
      return `${col} is not ${shape.integer ? 'a whole number' : shape.real ? 'a number' : 'a text value'}`;
    }
  }
  const exported = recordKind(kind)?.columns ?? [...columns.keys()];
  for (const col of exported) {
    const shape = columns.get(col);
    if (shape && !shape.optional && !(col in row)) return `${col} is missing`;
  }
  return null;
}

export function checkRecord(
  file: { kind: string; collection: string | null },
  row: StoredRow,
  ctx: CheckContext,
): StoredVerdict {
  if (file.kind === ENTRIES_KIND) {
    const c = ctx.snapshot.collections.get(file.collection ?? '');
    // Entries of a collection the package does not define are left out by the importer.
    if (!c) return keep(row);
    const kinds = entryColumnKinds(c);
    for (const [col, value] of Object.entries(row)) {
      const kind = kinds.get(col);
      if (kind && !fits(kind, value)) return refuse(row, `${col} is not ${article(kind)} ${kind} value`);
    }
    for (const col of SYSTEM_COLUMNS) {
      if (col.notNull && (row[col.name] === null || row[col.name] === undefined)) {
        return refuse(row, `${col.name} must not be empty`);
      }
    }
    return storedEntry(ctx.snapshot, c, row);
  }
  const problem = (ctx.columns && shapeProblem(file.kind, row, ctx.columns)) || transferDefect(file.kind, row);
  if (problem) return refuse(row, problem);
  const rule = RULES[file.kind];
  return rule ? rule(row, ctx) : keep(row);
}
