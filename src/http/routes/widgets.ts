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
} from '../../schemas/widgets.js';
import { type Api, op } from '../op.js';

/** Routes of the spec's widget-area rows. */
export function widgetRoutes(api: Api): void {
  const tags = ['Widgets'];
  const area = '/widget-areas/{name}';
  op(
    api,
    {
      method: 'get',
      path: '/widget-areas',
      operationId: 'listWidgetAreas',
      summary: 'List widget areas with their widget counts',
      tags,
      query: WidgetAreaListQuery,
      response: WidgetAreaList,
    },
    async ({ actor, services, query }) => services.widgets.listAreas(actor, query),
  );
  op(
    api,
    {
      method: 'post',
      path: '/widget-areas',
      operationId: 'createWidgetArea',
      summary: 'Create a widget area',
      tags,
      body: WidgetAreaCreateBody,
      response: WidgetAreaWithWidgetsSchema,
      status: 201,
    },
    async ({ actor, services, body }) => services.widgets.createArea(actor, body),
  );
  op(
    api,
    {
      method: 'get',
      path: area,
      operationId: 'getWidgetArea',
      summary: 'A widget area with its widgets in order',
      tags,
      params: WidgetAreaParams,
      response: WidgetAreaWithWidgetsSchema,
    },
    async ({ actor, services, params }) => services.widgets.getArea(actor, params.name),
  );
  op(
    api,
    {
      method: 'delete',
      path: area,
      operationId: 'deleteWidgetArea',
      summary: 'Delete a widget area and its widgets',
      tags,
      params: WidgetAreaParams,
      response: WidgetAreaDeleted,
    },
    async ({ actor, services, params }) => services.widgets.deleteArea(actor, params.name),
  );
  op(
    api,
    {
      method: 'post',
      path: `${area}/widgets`,
      operationId: 'createWidget',
      summary: 'Add a widget at the end of the area',
      tags,
      params: WidgetAreaParams,
      body: WidgetCreateBody,
      response: WidgetSchema,
      status: 201,
    },
    async ({ actor, services, params, body }) => services.widgets.createWidget(actor, params.name, body),
  );
  op(
    api,
    {
      method: 'put',
      path: `${area}/widgets/{id}`,
      operationId: 'updateWidget',
      summary: 'Change a widget’s title or settings (its type is fixed)',
      tags,
      params: WidgetParams,
      body: WidgetUpdateBody,
      response: WidgetSchema,
    },
    async ({ actor, services, params, body }) => services.widgets.updateWidget(actor, params.name, params.id, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: `${area}/widgets/{id}`,
      operationId: 'deleteWidget',
      summary: 'Delete a widget',
      tags,
      params: WidgetParams,
      response: WidgetDeleted,
    },
    async ({ actor, services, params }) => services.widgets.deleteWidget(actor, params.name, params.id),
  );
  op(
    api,
    {
      method: 'post',
      path: `${area}/reorder`,
      operationId: 'reorderWidgets',
      summary: 'Put every widget of the area in a new order',
      tags,
      params: WidgetAreaParams,
      body: WidgetReorderBody,
      response: WidgetAreaWithWidgetsSchema,
    },
    async ({ actor, services, params, body }) => services.widgets.reorder(actor, params.name, body.ids),
  );
}
