import { schemaError } from '../../core/errors.js';
import { checkPortableText } from '../rich-text.js';
import { label, MachineName, safeText } from '../structure-text.js';
import { WIDGET_SETTINGS, type WidgetType } from './types.js';

/** Value rules of widget areas and widgets: the request bodies are built from them, stored records judged by them. */
export const WIDGET_RULES = {
  areaName: MachineName,
  areaLabel: label(),
  areaDescription: safeText(1000).nullable(),
  title: safeText(200).nullable(),
};

/**
 * A widget's settings by the rules of its type, without the database: the
 * shape its type takes (defaults filled in) and, for rich text, Portable
 * Text whose links follow the url rules. Whether the menu, section, taxonomy
 * or collection they name exists is the widget service's check on a write.
 * Throws VALIDATION_ERROR with issues under `settings`.
 */
export function widgetSettings(type: WidgetType, settings: unknown): Record<string, unknown> {
  const parsed = WIDGET_SETTINGS[type].safeParse(settings ?? {});
  if (!parsed.success) {
    throw schemaError(`Invalid settings for a ${type} widget`, parsed.error.issues, ['settings']);
  }
  const value = parsed.data as Record<string, unknown>;
  if (type === 'richText') value.content = checkPortableText(value.content, ['settings', 'content']);
  return value;
}
