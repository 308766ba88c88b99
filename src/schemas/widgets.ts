import { z } from '@hono/zod-openapi';
import { WIDGET_RULES } from '../services/widgets/rules.js';
import { WIDGET_SETTINGS, WIDGET_TYPES, type WidgetType } from '../services/widgets/types.js';
import { CursorQuery, MachineName } from './text.js';

/** Widget areas and widgets. */

const Instant = z.string().openapi({ format: 'date-time', example: '2026-01-02T03:04:05.678Z' });
const Id = z.string().min(1).max(64);

const pascal = (type: WidgetType) => `${type[0].toUpperCase()}${type.slice(1)}`;

/**
 * Each type's settings as the document names them (RichTextWidgetSettings …): the very schemas
 * the widget service applies (src/services/widgets/types.ts), so what validates is what is shown.
 */
const SETTINGS = Object.fromEntries(
  WIDGET_TYPES.map((type) => [type, WIDGET_SETTINGS[type].openapi(`${pascal(type)}WidgetSettings`)]),
) as unknown as typeof WIDGET_SETTINGS;

function widgetOf<T extends WidgetType>(type: T) {
  return z
    .object({
      id: z.string(),
      type: z.literal(type),
      title: z.string().nullable(),
      settings: SETTINGS[type],
      position: z.number().int(),
      createdAt: Instant,
      updatedAt: Instant,
    })
    .openapi(`${pascal(type)}Widget`);
}

/** One schema per widget type, in the order of WIDGET_TYPES (a tuple, as unions take). */
type MapTypes<T extends readonly WidgetType[], M extends Record<WidgetType, z.ZodType>> = {
  -readonly [I in keyof T]: M[T[I] & WidgetType];
};
type PerType<M extends Record<WidgetType, z.ZodType>> = MapTypes<typeof WIDGET_TYPES, M>;
function perType<M extends Record<WidgetType, z.ZodType>>(make: (type: WidgetType) => z.ZodType): PerType<M> {
  return WIDGET_TYPES.map(make) as unknown as PerType<M>;
}

/** A widget: its settings are those of its type (the `type` property tells which). */
export const WidgetSchema = z
  .discriminatedUnion('type', perType<{ [K in WidgetType]: ReturnType<typeof widgetOf<K>> }>(widgetOf))
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

/**
 * A widget to add: its type and that type's settings. Settings are required where the type has a
 * required setting (every type so far); a type whose settings all have defaults could omit them.
 */
function createWidgetOf<T extends WidgetType>(type: T) {
  const settings = SETTINGS[type];
  return z
    .object({
      type: z.literal(type),
      title: WIDGET_RULES.title.optional(),
      settings: settings.safeParse({}).success ? settings.optional() : settings,
    })
    .strict()
    .openapi(`Create${pascal(type)}WidgetRequest`);
}

export const WidgetCreateBody = z
  .discriminatedUnion('type', perType<{ [K in WidgetType]: ReturnType<typeof createWidgetOf<K>> }>(createWidgetOf))
  .openapi('CreateWidgetRequest');

/** The widget's type is fixed, so its settings are those of one of the types; the service applies its own type's. */
export const WidgetUpdateBody = z
  .object({
    title: WIDGET_RULES.title.optional(),
    settings: z
      .union(perType<typeof SETTINGS>((type) => SETTINGS[type]))
      .optional()
      .openapi({ description: 'The settings of the widget’s type' }),
  })
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
