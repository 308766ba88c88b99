import {
  WidgetAreaCreateBody,
  WidgetAreaDeleted,
  WidgetAreaList,
  WidgetAreaListQuery,
  WidgetAreaParams,
  WidgetAreaWithWidgetsSchema,
  WidgetCreateBody,
  WidgetDeleted,
  WidgetParams,
  WidgetReorderBody,
  WidgetSchema,
  WidgetUpdateBody,
} from '../schemas/widgets.js';
import { operation } from './operation.js';

/**
 * The widget-area and widget operations (spec: widget-area rows; REST only, no MCP tool). A
 * token reads them with `content:read` and changes them with `content:write` (it opens
 * `widgets:manage`).
 */
const READS = 'content:read';
const MANAGES = 'content:write';

export const listWidgetAreas = operation({
  id: 'listWidgetAreas',
  query: WidgetAreaListQuery,
  output: WidgetAreaList,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { query }) => services.widgets.listAreas(actor, query),
});

export const createWidgetArea = operation({
  id: 'createWidgetArea',
  body: WidgetAreaCreateBody,
  output: WidgetAreaWithWidgetsSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { body }) => services.widgets.createArea(actor, body),
});

export const getWidgetArea = operation({
  id: 'getWidgetArea',
  params: WidgetAreaParams,
  output: WidgetAreaWithWidgetsSchema,
  writes: false,
  scope: READS,
  run: ({ services, actor }, { params }) => services.widgets.getArea(actor, params.name),
});

export const deleteWidgetArea = operation({
  id: 'deleteWidgetArea',
  params: WidgetAreaParams,
  output: WidgetAreaDeleted,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params }) => services.widgets.deleteArea(actor, params.name),
});

export const createWidget = operation({
  id: 'createWidget',
  params: WidgetAreaParams,
  body: WidgetCreateBody,
  output: WidgetSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params, body }) => services.widgets.createWidget(actor, params.name, body),
});

export const updateWidget = operation({
  id: 'updateWidget',
  params: WidgetParams,
  body: WidgetUpdateBody,
  output: WidgetSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params, body }) => services.widgets.updateWidget(actor, params.name, params.id, body),
});

export const deleteWidget = operation({
  id: 'deleteWidget',
  params: WidgetParams,
  output: WidgetDeleted,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params }) => services.widgets.deleteWidget(actor, params.name, params.id),
});

export const reorderWidgets = operation({
  id: 'reorderWidgets',
  params: WidgetAreaParams,
  body: WidgetReorderBody,
  output: WidgetAreaWithWidgetsSchema,
  writes: true,
  scope: MANAGES,
  run: ({ services, actor }, { params, body }) => services.widgets.reorder(actor, params.name, body.ids),
});
