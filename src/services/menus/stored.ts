import { isLocaleCode } from '../locales.js';
import {
  fitted,
  flagProblem,
  issueText,
  positionProblem,
  refuse,
  type StoredRow,
  type StoredVerdict,
  schemaVerdict,
  storedInstants,
} from '../stored-record.js';
import { MachineName } from '../structure-text.js';
import { itemLabel, urlItemIssues } from './item-input.js';
import { MENU_ITEM_KINDS, type MenuItemKind } from './model.js';
import { MENU_RULES } from './rules.js';

/**
 * Menus and their items from elsewhere (a site package), judged by the rules
 * a menu write applies. Labels are stored trimmed (a blank item label as
 * none); a change is reported as `menu_normalised` or `menu_item_normalised`.
 */
export const MENU_NORMALISED = 'menu_normalised';
export const MENU_ITEM_NORMALISED = 'menu_item_normalised';

const KINDS: ReadonlySet<string> = new Set(MENU_ITEM_KINDS);

/** The target columns each kind of item fills; the others stay empty. */
const TARGET_OF: Record<MenuItemKind, readonly string[]> = {
  url: ['url'],
  content: ['collection_id', 'target_group'],
  term: ['taxonomy', 'target_group'],
};
const TARGET_COLUMNS = ['url', 'collection_id', 'taxonomy', 'target_group'] as const;

/** One locale's menu: its machine name and label. */
export function storedMenu(row: StoredRow): StoredVerdict {
  const name = schemaVerdict(MENU_RULES.name, row.name, 'name');
  if (!name.ok) return refuse(row, name.problem);
  const labelled = schemaVerdict(MENU_RULES.label, row.label, 'label');
  if (!labelled.ok) return refuse(row, labelled.problem);
  if (!isLocaleCode(row.locale)) return refuse(row, 'locale is not a locale code');
  const instants = storedInstants(row, ['created_at', 'updated_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(row, { ...row, label: labelled.value, ...instants.values }, MENU_NORMALISED);
}

/**
 * A menu item: a kind of the list and exactly that kind's target — a URL
 * item's link passes the url field's safety rules (no `javascript:`, `data:`,
 * protocol-relative or backslash forms) and has a label; a content item names
 * a collection and an entry group, a term item a taxonomy and a term group —
 * a label and link within their limits, its place among its siblings.
 */
export function storedMenuItem(row: StoredRow): StoredVerdict {
  if (!KINDS.has(row.kind as string)) {
    return refuse(row, `kind "${String(row.kind)}" is not one of ${MENU_ITEM_KINDS.join(', ')}`);
  }
  const kind = row.kind as MenuItemKind;
  if (row.label !== null && row.label !== undefined) {
    const judged = schemaVerdict(MENU_RULES.itemLabel, row.label, 'label');
    if (!judged.ok) return refuse(row, judged.problem);
  }
  const label = itemLabel(row.label as string | null | undefined);
  for (const col of TARGET_COLUMNS) {
    const used = TARGET_OF[kind].includes(col);
    const v = row[col];
    if (used && (typeof v !== 'string' || v === '')) return refuse(row, `${col}: a ${kind} item needs one`);
    if (!used && v !== null && v !== undefined) return refuse(row, `${col}: not used by ${kind} items`);
  }
  if (kind === 'url') {
    const url = schemaVerdict(MENU_RULES.itemUrl, row.url, 'url');
    if (!url.ok) return refuse(row, url.problem);
    const issues = urlItemIssues(url.value, label, []);
    if (issues.length) return refuse(row, issueText(issues) as string);
  }
  if (kind === 'term') {
    // A taxonomy is named by a machine name (the rule TAXONOMY_RULES.name is), judged here without the taxonomy room.
    const taxonomy = schemaVerdict(MachineName, row.taxonomy, 'taxonomy');
    if (!taxonomy.ok) return refuse(row, taxonomy.problem);
  }
  const position = positionProblem(row);
  if (position) return refuse(row, position);
  const flag = flagProblem(row, 'open_in_new_tab');
  if (flag) return refuse(row, flag);
  const instants = storedInstants(row, ['created_at', 'updated_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(row, { ...row, label, ...instants.values }, MENU_ITEM_NORMALISED);
}
