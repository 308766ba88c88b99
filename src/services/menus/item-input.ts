import { issuesError, type ValidationIssue } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import { dyn } from '../content/rows.js';
import { checkUrl } from '../fields/url.js';
import type { SchemaSnapshot } from '../schema/model.js';
import type { MenuItemKind } from './model.js';

/** A menu item as written: one target (an entry, a term or a URL) and how it shows. */
export interface MenuItemInput {
  kind: MenuItemKind;
  /** Shown instead of the target's title; required for URL items. */
  label?: string | null;
  /** URL items: an absolute http(s) URL, mailto:, tel:, a site path or a #fragment. */
  url?: string;
  /** Content items: the collection slug … */
  collection?: string;
  /** … and the database ID of an entry in any locale (its translation group is stored). */
  entryId?: string;
  /** Term items: the ID of a term in any locale (its translation group is stored). */
  termId?: string;
  openInNewTab?: boolean;
}

/** The stored columns of an item's target. */
export interface ItemColumns {
  kind: MenuItemKind;
  label: string | null;
  url: string | null;
  collection_id: string | null;
  taxonomy: string | null;
  target_group: string | null;
  open_in_new_tab: number;
}

const FIELDS_OF: Record<MenuItemKind, Array<keyof MenuItemInput>> = {
  content: ['collection', 'entryId'],
  term: ['termId'],
  url: ['url'],
};

/** The label as stored: trimmed; null (the target's title shows) when blank. */
export function itemLabel(label: string | null | undefined): string | null {
  return label === undefined || label === null || label.trim() === '' ? null : label.trim();
}

/** A URL item's link (the url field's safety rules) and its label (required: a link has no title of its own). */
export function urlItemIssues(
  url: string | null | undefined,
  label: string | null,
  path: (string | number)[],
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!url) issues.push({ path: [...path, 'url'], code: 'required', message: 'a URL item needs a url' });
  else {
    const problem = checkUrl(url);
    if (problem) issues.push({ path: [...path, 'url'], code: 'unsafe_url', message: problem });
  }
  if (!label) issues.push({ path: [...path, 'label'], code: 'required', message: 'a URL item needs a label' });
  return issues;
}

/**
 * Check one item and turn it into columns; issues name the field under
 * `path`. URL items follow the url field's safety rules; content items must
 * name an entry that is not in the trash.
 */
export async function checkItem(
  db: Kdb,
  snap: SchemaSnapshot,
  input: MenuItemInput,
  path: (string | number)[],
  issues: ValidationIssue[],
): Promise<ItemColumns | null> {
  const at = (field: string) => [...path, field];
  const before = issues.length;
  const label = itemLabel(input.label);
  for (const kind of Object.keys(FIELDS_OF) as MenuItemKind[]) {
    if (kind === input.kind) continue;
    for (const f of FIELDS_OF[kind]) {
      if (input[f] !== undefined && !FIELDS_OF[input.kind].includes(f)) {
        issues.push({ path: at(f), code: 'unexpected', message: `not used by ${input.kind} items` });
      }
    }
  }
  const columns: ItemColumns = {
    kind: input.kind,
    label,
    url: null,
    collection_id: null,
    taxonomy: null,
    target_group: null,
    open_in_new_tab: input.openInNewTab ? 1 : 0,
  };
  if (input.kind === 'url') {
    issues.push(...urlItemIssues(input.url, label, path));
    if (input.url) columns.url = input.url;
  } else if (input.kind === 'content') {
    const c = input.collection ? snap.collections.get(input.collection) : undefined;
    if (!input.collection) issues.push({ path: at('collection'), code: 'required', message: 'required' });
    else if (!c)
      issues.push({ path: at('collection'), code: 'not_found', message: `no collection "${input.collection}"` });
    if (!input.entryId) issues.push({ path: at('entryId'), code: 'required', message: 'required' });
    else if (c) {
      const row: { translation_group: string; deleted_at: string | null } | undefined = await dyn(db)
        .selectFrom(c.table)
        .select(['translation_group', 'deleted_at'])
        .where('id', '=', input.entryId)
        .executeTakeFirst();
      if (!row || row.deleted_at !== null) {
        issues.push({ path: at('entryId'), code: 'not_found', message: `no entry ${input.entryId} in "${c.slug}"` });
      } else {
        columns.collection_id = c.id;
        columns.target_group = row.translation_group;
      }
    }
  } else {
    if (!input.termId) issues.push({ path: at('termId'), code: 'required', message: 'required' });
    else {
      const term = await db
        .selectFrom('_cms_terms')
        .select(['taxonomy', 'translation_group'])
        .where('id', '=', input.termId)
        .executeTakeFirst();
      if (!term) issues.push({ path: at('termId'), code: 'not_found', message: `no term ${input.termId}` });
      else {
        columns.taxonomy = term.taxonomy;
        columns.target_group = term.translation_group;
      }
    }
  }
  return issues.length > before ? null : columns;
}

/** checkItem for a single item: throws VALIDATION_ERROR with its issues. */
export async function checkOneItem(
  db: Kdb,
  snap: SchemaSnapshot,
  input: MenuItemInput,
  path: (string | number)[] = [],
): Promise<ItemColumns> {
  const issues: ValidationIssue[] = [];
  const columns = await checkItem(db, snap, input, path, issues);
  if (!columns) throw issuesError('Invalid menu item', issues);
  return columns;
}
