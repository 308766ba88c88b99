import { sql } from 'kysely';
import { type Actor, requirePermission } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { cursorText, decodeCursor, encodeCursor } from '../../core/cursor.js';
import { CmsError, issuesError, notFound, type ValidationIssue } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { WidgetAreasTable, WidgetsTable } from '../../db/tables-structure.js';
import { inTransaction, type ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
import type { SchemaSnapshot } from '../schema/model.js';
import { widgetSettings } from './rules.js';
import { WIDGET_TYPES, type WidgetSettings, type WidgetType } from './types.js';

export { WIDGET_SETTINGS, WIDGET_TYPES, type WidgetType } from './types.js';

export const MAX_WIDGETS_PER_AREA = 100;

/** A widget; its settings are those its type takes (as its type's rules return them). */
export type WidgetView = {
  [K in WidgetType]: {
    id: string;
    type: K;
    title: string | null;
    settings: WidgetSettings[K];
    position: number;
    createdAt: string;
    updatedAt: string;
  };
}[WidgetType];

export interface WidgetAreaView {
  id: string;
  name: string;
  label: string;
  description: string | null;
  widgetCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface WidgetAreaWithWidgets extends WidgetAreaView {
  widgets: WidgetView[];
}

export interface WidgetInput {
  type: WidgetType;
  title?: string | null;
  settings?: unknown;
}

function widgetView(row: WidgetsTable): WidgetView {
  // Stored settings were written by the rules of the row's type (widgetSettings).
  return {
    id: row.id,
    type: row.type,
    title: row.title,
    settings: JSON.parse(row.settings),
    position: Number(row.position),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  } as WidgetView;
}

function areaView(row: WidgetAreasTable, widgetCount: number): WidgetAreaView {
  return {
    id: row.id,
    name: row.name,
    label: row.label,
    description: row.description,
    widgetCount,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Widget areas (sidebar, footer …) holding ordered widgets of a few known types. */
export function createWidgetService(ctx: ServiceContext, schema: SchemaService) {
  const { db } = ctx;
  const now = () => isoNow(ctx.clock);

  async function lockArea(trx: Kdb, name: string): Promise<WidgetAreasTable> {
    const q = trx.selectFrom('_cms_widget_areas').selectAll().where('name', '=', name);
    const row = await (ctx.dialect === 'postgres' ? q.forUpdate() : q).executeTakeFirst();
    if (!row) throw notFound(`Widget area "${name}"`);
    return row;
  }

  async function widgetsOf(conn: Kdb, areaId: string): Promise<WidgetsTable[]> {
    return conn
      .selectFrom('_cms_widgets')
      .selectAll()
      .where('area_id', '=', areaId)
      .orderBy('position')
      .orderBy('id')
      .execute();
  }

  /** Shape by type, then the records the settings name must exist (snapshot read before the transaction). */
  async function checkSettings(
    conn: Kdb,
    snap: SchemaSnapshot,
    type: WidgetType,
    settings: unknown,
  ): Promise<Record<string, unknown>> {
    const value = widgetSettings(type, settings);
    const issues: ValidationIssue[] = [];
    const missing = (field: string, what: string) =>
      issues.push({ path: ['settings', field], code: 'not_found', message: `no ${what} "${String(value[field])}"` });
    if (type === 'menu') {
      const hit = await conn
        .selectFrom('_cms_menus')
        .select('id')
        .where('name', '=', value.menu as string)
        .executeTakeFirst();
      if (!hit) missing('menu', 'menu');
    }
    if (type === 'section') {
      const hit = await conn
        .selectFrom('_cms_sections')
        .select('id')
        .where('slug', '=', value.section as string)
        .executeTakeFirst();
      if (!hit) missing('section', 'section');
    }
    if (type === 'terms') {
      const hit = await conn
        .selectFrom('_cms_taxonomies')
        .select('name')
        .where('name', '=', value.taxonomy as string)
        .executeTakeFirst();
      if (!hit) missing('taxonomy', 'taxonomy');
    }
    if (type === 'recentEntries' && !snap.collections.has(value.collection as string)) {
      missing('collection', 'collection');
    }
    if (issues.length) throw issuesError(`Invalid settings for a ${type} widget`, issues);
    return value;
  }

  async function listAreas(
    actor: Actor,
    opts: { cursor?: string; limit?: number },
  ): Promise<{ items: WidgetAreaView[]; nextCursor?: string }> {
    requirePermission(actor, 'content:read');
    const limit = opts.limit ?? 50;
    let q = db.selectFrom('_cms_widget_areas').selectAll();
    if (opts.cursor) q = q.where('name', '>', decodeCursor(opts.cursor, [cursorText])[0]);
    const rows = await q
      .orderBy('name')
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit);
    const counts = page.length
      ? await db
          .selectFrom('_cms_widgets')
          .select(['area_id', sql<number | string>`count(*)`.as('n')])
          .where(
            'area_id',
            'in',
            page.map((r) => r.id),
          )
          .groupBy('area_id')
          .execute()
      : [];
    const n = new Map(counts.map((c) => [c.area_id, Number(c.n)]));
    return {
      items: page.map((r) => areaView(r, n.get(r.id) ?? 0)),
      ...(rows.length > limit ? { nextCursor: encodeCursor([page[page.length - 1].name]) } : {}),
    };
  }

  async function read(conn: Kdb, area: WidgetAreasTable): Promise<WidgetAreaWithWidgets> {
    const widgets = await widgetsOf(conn, area.id);
    return { ...areaView(area, widgets.length), widgets: widgets.map(widgetView) };
  }

  async function getArea(actor: Actor, name: string): Promise<WidgetAreaWithWidgets> {
    requirePermission(actor, 'content:read');
    const area = await db.selectFrom('_cms_widget_areas').selectAll().where('name', '=', name).executeTakeFirst();
    if (!area) throw notFound(`Widget area "${name}"`);
    return read(db, area);
  }

  async function createArea(
    actor: Actor,
    input: { name: string; label: string; description?: string | null },
  ): Promise<WidgetAreaWithWidgets> {
    requirePermission(actor, 'widgets:manage');
    const at = now();
    const row: WidgetAreasTable = {
      id: newId(),
      name: input.name,
      label: input.label,
      description: input.description ?? null,
      created_at: at,
      updated_at: at,
    };
    try {
      await db.insertInto('_cms_widget_areas').values(row).execute();
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new CmsError('ALREADY_EXISTS', `A widget area named "${input.name}" already exists`, {
          issues: [{ path: ['name'], code: 'taken', message: 'already used by another widget area' }],
        });
      }
      throw err;
    }
    return { ...areaView(row, 0), widgets: [] };
  }

  async function deleteArea(actor: Actor, name: string): Promise<{ deleted: true; name: string }> {
    requirePermission(actor, 'widgets:manage');
    await inTransaction(db, async (trx) => {
      const area = await lockArea(trx, name);
      await trx.deleteFrom('_cms_widgets').where('area_id', '=', area.id).execute();
      await trx.deleteFrom('_cms_widget_areas').where('id', '=', area.id).execute();
    });
    return { deleted: true, name };
  }

  async function createWidget(actor: Actor, areaName: string, input: WidgetInput): Promise<WidgetView> {
    requirePermission(actor, 'widgets:manage');
    if (!WIDGET_TYPES.includes(input.type)) {
      throw issuesError('Unknown widget type', [
        { path: ['type'], code: 'invalid_value', message: `one of ${WIDGET_TYPES.join(', ')}` },
      ]);
    }
    const snap = await schema.snapshot();
    return inTransaction(db, async (trx) => {
      const area = await lockArea(trx, areaName);
      const widgets = await widgetsOf(trx, area.id);
      if (widgets.length >= MAX_WIDGETS_PER_AREA) {
        throw issuesError('The area is full', [
          { path: [], code: 'too_many', message: `a widget area holds at most ${MAX_WIDGETS_PER_AREA} widgets` },
        ]);
      }
      const settings = await checkSettings(trx, snap, input.type, input.settings);
      const at = now();
      const row: WidgetsTable = {
        id: newId(),
        area_id: area.id,
        position: widgets.reduce((max, w) => Math.max(max, Number(w.position) + 1), 0),
        type: input.type,
        title: input.title ?? null,
        settings: JSON.stringify(settings),
        created_at: at,
        updated_at: at,
      };
      await trx.insertInto('_cms_widgets').values(row).execute();
      await trx.updateTable('_cms_widget_areas').set({ updated_at: at }).where('id', '=', area.id).execute();
      return widgetView(row);
    });
  }

  async function updateWidget(
    actor: Actor,
    areaName: string,
    id: string,
    input: { title?: string | null; settings?: unknown },
  ): Promise<WidgetView> {
    requirePermission(actor, 'widgets:manage');
    const snap = await schema.snapshot();
    return inTransaction(db, async (trx) => {
      const area = await lockArea(trx, areaName);
      const row = await trx
        .selectFrom('_cms_widgets')
        .selectAll()
        .where('id', '=', id)
        .where('area_id', '=', area.id)
        .executeTakeFirst();
      if (!row) throw notFound('Widget');
      const patch: Partial<WidgetsTable> = {};
      if (input.title !== undefined) patch.title = input.title;
      if (input.settings !== undefined) {
        patch.settings = JSON.stringify(await checkSettings(trx, snap, row.type as WidgetType, input.settings));
      }
      const at = now();
      if (Object.keys(patch).length) {
        await trx
          .updateTable('_cms_widgets')
          .set({ ...patch, updated_at: at })
          .where('id', '=', id)
          .execute();
        await trx.updateTable('_cms_widget_areas').set({ updated_at: at }).where('id', '=', area.id).execute();
      }
      return widgetView({ ...row, ...patch, ...(Object.keys(patch).length ? { updated_at: at } : {}) });
    });
  }

  async function deleteWidget(actor: Actor, areaName: string, id: string): Promise<{ deleted: true; id: string }> {
    requirePermission(actor, 'widgets:manage');
    await inTransaction(db, async (trx) => {
      const area = await lockArea(trx, areaName);
      const res = await trx
        .deleteFrom('_cms_widgets')
        .where('id', '=', id)
        .where('area_id', '=', area.id)
        .executeTakeFirst();
      if (Number(res.numDeletedRows) === 0) throw notFound('Widget');
      await trx.updateTable('_cms_widget_areas').set({ updated_at: now() }).where('id', '=', area.id).execute();
    });
    return { deleted: true, id };
  }

  /** Every widget of the area in its new order; a list missing widgets (added meanwhile) changes nothing. */
  async function reorder(actor: Actor, areaName: string, ids: string[]): Promise<WidgetAreaWithWidgets> {
    requirePermission(actor, 'widgets:manage');
    return inTransaction(db, async (trx) => {
      const area = await lockArea(trx, areaName);
      const widgets = await widgetsOf(trx, area.id);
      const known = new Set(widgets.map((w) => w.id));
      const issues: ValidationIssue[] = [];
      ids.forEach((id, i) => {
        if (!known.has(id)) issues.push({ path: ['ids', i], code: 'not_found', message: 'not a widget of this area' });
        else if (ids.indexOf(id) !== i) issues.push({ path: ['ids', i], code: 'duplicate', message: 'listed twice' });
      });
      if (issues.length) throw issuesError('Invalid reorder', issues);
      const missing = widgets.filter((w) => !ids.includes(w.id)).map((w) => w.id);
      if (missing.length) {
        throw new CmsError(
          'CONFLICT',
          'The area has widgets the reorder does not list (it changed meanwhile): reload it',
          {
            missing,
          },
        );
      }
      const at = now();
      const position = new Map(widgets.map((w) => [w.id, Number(w.position)]));
      for (let i = 0; i < ids.length; i++) {
        if (position.get(ids[i]) === i) continue;
        await trx.updateTable('_cms_widgets').set({ position: i, updated_at: at }).where('id', '=', ids[i]).execute();
      }
      await trx.updateTable('_cms_widget_areas').set({ updated_at: at }).where('id', '=', area.id).execute();
      return read(trx, { ...area, updated_at: at });
    });
  }

  return { listAreas, getArea, createArea, deleteArea, createWidget, updateWidget, deleteWidget, reorder };
}

export type WidgetService = ReturnType<typeof createWidgetService>;
