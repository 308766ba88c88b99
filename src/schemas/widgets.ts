import { z } from '@hono/zod-openapi';
import { WIDGET_RULES } from '../services/widgets/rules.js';
import { WIDGET_TYPES } from '../services/widgets/types.js';
import { CursorQuery, MachineName } from './text.js';

/** Widget areas and widgets. */

const Instant = z.string().openapi({ format: 'date-time', example: '2026-01-02T03:04:05.678Z' });
const Id = z.string().min(1).max(64);

const SETTINGS_HELP =
  'By type — richText: { content: Portable Text }; menu: { menu: name }; section: { section: slug }; ' +
  'terms: { taxonomy, showCounts?, hideEmpty? }; recentEntries: { collection, limit? (1–20, default 5) }; ' +
  'custom: { kind, data? (JSON, at most 64 KiB) }';

export const WidgetSchema = z
  .object({
    id: z.string(),
    type: z.enum(WIDGET_TYPES),
    title: z.string().nullable(),
    settings: z.record(z.string(), z.unknown()).openapi({ description: SETTINGS_HELP }),
    position: z.number().int(),
    createdAt: Instant,
    updatedAt: Instant,
  })
  .openapi('Widget');

export const WidgetAreaSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    label: z.string(),
    description: z.string().nullable(),
    widgetCount: z.number().int(),
    createdAt: Instant,
    updatedAt: Instant,
  })
  .openapi('WidgetArea');

export const WidgetAreaWithWidgetsSchema = WidgetAreaSchema.extend({ widgets: z.array(WidgetSchema) }).openapi(
  'WidgetAreaWithWidgets',
);

export const WidgetAreaList = z
  .object({ items: z.array(WidgetAreaSchema), nextCursor: z.string().optional() })
  .openapi('WidgetAreaList');

export const WidgetAreaCreateBody = z
  .object({
    name: WIDGET_RULES.areaName,
    label: WIDGET_RULES.areaLabel,
    description: WIDGET_RULES.areaDescription.optional(),
  })
  .strict()
  .openapi('CreateWidgetAreaRequest');

const Settings = z.record(z.string(), z.unknown()).openapi({ description: SETTINGS_HELP });

export const WidgetCreateBody = z
  .object({
    type: z.enum(WIDGET_TYPES),
    title: WIDGET_RULES.title.optional(),
    settings: Settings.optional(),
  })
  .strict()
  .openapi('CreateWidgetRequest');

export const WidgetUpdateBody = z
  .object({ title: WIDGET_RULES.title.optional(), settings: Settings.optional() })
  .strict()
  .openapi('UpdateWidgetRequest');

export const WidgetReorderBody = z
  .object({ ids: z.array(Id).max(100).openapi({ description: 'Every widget of the area, in the new order' }) })
  .strict()
  .openapi('ReorderWidgetsRequest');

export const WidgetAreaParams = z.object({ name: MachineName });
export const WidgetParams = z.object({ name: MachineName, id: Id });
export const WidgetAreaListQuery = z.object({ ...CursorQuery });
export const WidgetAreaDeleted = z.object({ deleted: z.literal(true), name: z.string() }).openapi('WidgetAreaDeleted');
export const WidgetDeleted = z.object({ deleted: z.literal(true), id: z.string() }).openapi('WidgetDeleted');
