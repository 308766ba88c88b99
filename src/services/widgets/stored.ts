import {
  fitted,
  jsonColumn,
  positionProblem,
  refuse,
  ruleProblem,
  type StoredRow,
  type StoredVerdict,
  schemaVerdict,
  storedInstants,
} from '../stored-record.js';
import { WIDGET_RULES, widgetSettings } from './rules.js';
import { WIDGET_TYPES, type WidgetType } from './types.js';

/**
 * Widget areas and widgets from elsewhere (a site package), judged by the
 * rules a widget write applies. Labels are stored trimmed and settings as
 * their type's rules return them (defaults filled in); a change is reported
 * as `widget_normalised`. The records settings name (a menu, a section …)
 * need not exist, as a widget whose section was deleted stays stored.
 */
export const WIDGET_NORMALISED = 'widget_normalised';

const TYPES: ReadonlySet<string> = new Set(WIDGET_TYPES);

export function storedWidgetArea(row: StoredRow): StoredVerdict {
  const name = schemaVerdict(WIDGET_RULES.areaName, row.name, 'name');
  if (!name.ok) return refuse(row, name.problem);
  const labelled = schemaVerdict(WIDGET_RULES.areaLabel, row.label, 'label');
  if (!labelled.ok) return refuse(row, labelled.problem);
  const described = schemaVerdict(WIDGET_RULES.areaDescription, row.description ?? null, 'description');
  if (!described.ok) return refuse(row, described.problem);
  const instants = storedInstants(row, ['created_at', 'updated_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(row, { ...row, label: labelled.value, ...instants.values }, WIDGET_NORMALISED);
}

/** A widget: a type of the list, a title within its limit, settings its type takes, its place in the area. */
export function storedWidget(row: StoredRow): StoredVerdict {
  if (!TYPES.has(row.type as string)) {
    return refuse(row, `type "${String(row.type)}" is not one of ${WIDGET_TYPES.join(', ')}`);
  }
  const title = schemaVerdict(WIDGET_RULES.title, row.title ?? null, 'title');
  if (!title.ok) return refuse(row, title.problem);
  const parsed = jsonColumn(row, 'settings');
  if (!parsed.ok) return refuse(row, parsed.problem);
  let settings: Record<string, unknown> = {};
  const problem = ruleProblem(() => {
    settings = widgetSettings(row.type as WidgetType, parsed.value);
  });
  if (problem) return refuse(row, problem);
  const position = positionProblem(row);
  if (position) return refuse(row, position);
  const instants = storedInstants(row, ['created_at', 'updated_at']);
  if (instants.problem !== null) return refuse(row, instants.problem);
  return fitted(row, { ...row, settings: JSON.stringify(settings), ...instants.values }, WIDGET_NORMALISED);
}
