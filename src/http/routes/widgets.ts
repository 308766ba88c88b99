import {
  createWidget,
  createWidgetArea,
  deleteWidget,
  deleteWidgetArea,
  getWidgetArea,
  listWidgetAreas,
  reorderWidgets,
  updateWidget,
} from '../../operations/widgets.js';
import { type Api, route } from '../op.js';

/** Routes of the spec's widget-area rows (operations: operations/widgets.ts). */
export function widgetRoutes(api: Api): void {
  const tags = ['Widgets'];
  const area = '/widget-areas/{name}';
  route(api, {
    operation: listWidgetAreas,
    method: 'get',
    path: '/widget-areas',
    summary: 'List widget areas with their widget counts',
    tags,
  });
  route(api, {
    operation: createWidgetArea,
    method: 'post',
    path: '/widget-areas',
    summary: 'Create a widget area',
    tags,
    status: 201,
  });
  route(api, {
    operation: getWidgetArea,
    method: 'get',
    path: area,
    summary: 'A widget area with its widgets in order',
    tags,
  });
  route(api, {
    operation: deleteWidgetArea,
    method: 'delete',
    path: area,
    summary: 'Delete a widget area and its widgets',
    tags,
  });
  route(api, {
    operation: createWidget,
    method: 'post',
    path: `${area}/widgets`,
    summary: 'Add a widget at the end of the area',
    tags,
    status: 201,
  });
  route(api, {
    operation: updateWidget,
    method: 'put',
    path: `${area}/widgets/{id}`,
    summary: 'Change a widget’s title or settings (its type is fixed)',
    tags,
  });
  route(api, {
    operation: deleteWidget,
    method: 'delete',
    path: `${area}/widgets/{id}`,
    summary: 'Delete a widget',
    tags,
  });
  route(api, {
    operation: reorderWidgets,
    method: 'post',
    path: `${area}/reorder`,
    summary: 'Put every widget of the area in a new order',
    tags,
  });
}
