import { sql } from 'kysely';
import { type Actor, requirePermission } from '../../auth/actor.js';
import { cursorText, decodeCursor, encodeCursor } from '../../core/cursor.js';
import { CmsError, issuesError, notFound } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { MenusTable } from '../../db/tables-structure.js';
import { inTransaction } from '../context.js';
import { localeChain, resolveLocale } from '../locales.js';
import { loadMenu, lockMenu, type MenuDeps, now, presentMenu, readItems } from './deps.js';
import { type MenuView, type MenuWithItems, menuView } from './model.js';

export interface MenuCreateInput {
  /** Required unless `translationOf` is given (the source's name is then used). */
  name?: string;
  label: string;
  locale?: string;
  /** ID of the menu in another locale: the new menu joins its translation group and gets a copy of its items. */
  translationOf?: string;
}

export interface MenuUpdateInput {
  name?: string;
  label?: string;
}

const taken = (name: string, locale: string) =>
  new CmsError('ALREADY_EXISTS', `A ${locale} menu named "${name}" already exists`, {
    issues: [{ path: ['name'], code: 'taken', message: 'already used in this locale' }],
  });

/** Menus: one per locale, linked by a translation group. */
export function menuOps(deps: MenuDeps) {
  const { ctx } = deps;

  async function counts(db: Kdb, ids: string[]): Promise<Map<string, number>> {
    if (!ids.length) return new Map();
    const rows = await db
      .selectFrom('_cms_menu_items')
      .select(['menu_id', sql<number | string>`count(*)`.as('n')])
      .where('menu_id', 'in', ids)
      .groupBy('menu_id')
      .execute();
    return new Map(rows.map((r) => [r.menu_id, Number(r.n)]));
  }

  async function views(db: Kdb, rows: MenusTable[]): Promise<MenuView[]> {
    const n = await counts(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => menuView(r, n.get(r.id) ?? 0));
  }

  async function list(
    actor: Actor,
    opts: { locale?: string; cursor?: string; limit?: number },
  ): Promise<{ items: MenuView[]; nextCursor?: string }> {
    requirePermission(actor, 'menus:read');
    const locale = resolveLocale(ctx.config, opts.locale);
    const limit = opts.limit ?? 50;
    let q = ctx.db.selectFrom('_cms_menus').selectAll().where('locale', '=', locale);
    if (opts.cursor) q = q.where('name', '>', decodeCursor(opts.cursor, [cursorText])[0]);
    const rows = await q
      .orderBy('name')
      .limit(limit + 1)
      .execute();
    const page = rows.slice(0, limit);
    return {
      items: await views(ctx.db, page),
      ...(rows.length > limit ? { nextCursor: encodeCursor([page[page.length - 1].name]) } : {}),
    };
  }

  /**
   * A menu with its items. The menu of the requested locale, else of its
   * fallback, else of the default locale; items resolve their targets to
   * the requested locale the same way.
   */
  async function get(actor: Actor, name: string, locale?: string): Promise<MenuWithItems> {
    requirePermission(actor, 'menus:read');
    const chain = localeChain(ctx.config, resolveLocale(ctx.config, locale));
    const rows = await ctx.db
      .selectFrom('_cms_menus')
      .selectAll()
      .where('name', '=', name)
      .where('locale', 'in', chain)
      .execute();
    const menu = chain.map((l) => rows.find((r) => r.locale === l)).find((r) => r !== undefined);
    if (!menu) throw notFound(`Menu "${name}"`);
    return presentMenu(ctx.db, actor, menu, chain, await deps.schema.snapshot());
  }

  async function create(actor: Actor, input: MenuCreateInput): Promise<MenuWithItems> {
    requirePermission(actor, 'menus:manage');
    const locale = resolveLocale(ctx.config, input.locale);
    const at = now(deps);
    const id = newId();
    try {
      await inTransaction(ctx.db, async (trx) => {
        let group = newId();
        let name = input.name;
        let source: MenusTable | undefined;
        if (input.translationOf !== undefined) {
          source = await trx
            .selectFrom('_cms_menus')
            .selectAll()
            .where('id', '=', input.translationOf)
            .executeTakeFirst();
          if (!source) {
            throw issuesError('translationOf names no menu', [
              { path: ['translationOf'], code: 'not_found', message: `no menu ${input.translationOf}` },
            ]);
          }
          const exists = await trx
            .selectFrom('_cms_menus')
            .select('id')
            .where('translation_group', '=', source.translation_group)
            .where('locale', '=', locale)
            .executeTakeFirst();
          if (exists)
            throw new CmsError('ALREADY_EXISTS', `The menu already has a ${locale} translation`, { id: exists.id });
          group = source.translation_group;
          name ??= source.name;
        }
        if (name === undefined)
          throw issuesError('name is required', [{ path: ['name'], code: 'required', message: 'required' }]);
        const clash = await trx
          .selectFrom('_cms_menus')
          .select('id')
          .where('name', '=', name)
          .where('locale', '=', locale)
          .executeTakeFirst();
        if (clash) throw taken(name, locale);
        await trx
          .insertInto('_cms_menus')
          .values({ id, name, locale, translation_group: group, label: input.label, created_at: at, updated_at: at })
          .execute();
        if (source) await cloneItems(trx, source.id, id, at);
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw new CmsError('ALREADY_EXISTS', 'A menu with this name or translation already exists');
      throw err;
    }
    const menu = await ctx.db.selectFrom('_cms_menus').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return presentMenu(ctx.db, actor, menu, localeChain(ctx.config, menu.locale), await deps.schema.snapshot());
  }

  /** A translation starts with a copy of the source's items; references keep their translation groups. */
  async function cloneItems(trx: Kdb, fromMenu: string, toMenu: string, at: string): Promise<void> {
    const items = await readItems(trx, fromMenu);
    const ids = new Map(items.map((i) => [i.id, newId()]));
    const copies = items.map((i) => ({
      ...i,
      id: ids.get(i.id) as string,
      menu_id: toMenu,
      parent_id: i.parent_id === null ? null : (ids.get(i.parent_id) ?? null),
      created_at: at,
      updated_at: at,
    }));
    for (let i = 0; i < copies.length; i += 100) {
      await trx
        .insertInto('_cms_menu_items')
        .values(copies.slice(i, i + 100))
        .execute();
    }
  }

  async function update(actor: Actor, name: string, locale: string | undefined, input: MenuUpdateInput) {
    requirePermission(actor, 'menus:manage');
    const loc = resolveLocale(ctx.config, locale);
    const at = now(deps);
    try {
      const id = await inTransaction(ctx.db, async (trx) => {
        const menu = await lockMenu(deps, trx, name, loc);
        const patch: Partial<MenusTable> = {};
        if (input.name !== undefined && input.name !== menu.name) {
          const clash = await trx
            .selectFrom('_cms_menus')
            .select('id')
            .where('name', '=', input.name)
            .where('locale', '=', loc)
            .executeTakeFirst();
          if (clash) throw taken(input.name, loc);
          patch.name = input.name;
        }
        if (input.label !== undefined) patch.label = input.label;
        if (Object.keys(patch).length) {
          await trx
            .updateTable('_cms_menus')
            .set({ ...patch, updated_at: at })
            .where('id', '=', menu.id)
            .execute();
        }
        return menu.id;
      });
      const menu = await ctx.db.selectFrom('_cms_menus').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return presentMenu(ctx.db, actor, menu, localeChain(ctx.config, menu.locale), await deps.schema.snapshot());
    } catch (err) {
      if (isUniqueViolation(err)) throw taken(input.name ?? name, loc);
      throw err;
    }
  }

  /** Deletes one locale's menu with its items; its translations stay. */
  async function remove(
    actor: Actor,
    name: string,
    locale?: string,
  ): Promise<{ deleted: true; id: string; name: string }> {
    requirePermission(actor, 'menus:manage');
    const loc = resolveLocale(ctx.config, locale);
    return inTransaction(ctx.db, async (trx) => {
      const menu = await lockMenu(deps, trx, name, loc);
      await trx.deleteFrom('_cms_menu_items').where('menu_id', '=', menu.id).execute();
      await trx.deleteFrom('_cms_menus').where('id', '=', menu.id).execute();
      return { deleted: true as const, id: menu.id, name: menu.name };
    });
  }

  /** Every configured locale's menu of a translation group, by menu ID or translation-group ID (MCP). */
  async function translations(
    actor: Actor,
    idOrGroup: string,
  ): Promise<{ translationGroup: string; items: MenuView[] }> {
    requirePermission(actor, 'menus:read');
    const hit = await ctx.db
      .selectFrom('_cms_menus')
      .select('translation_group')
      .where((eb) => eb.or([eb('id', '=', idOrGroup), eb('translation_group', '=', idOrGroup)]))
      .executeTakeFirst();
    if (!hit) throw notFound('Menu');
    const rows = await ctx.db
      .selectFrom('_cms_menus')
      .selectAll()
      .where('translation_group', '=', hit.translation_group)
      .where('locale', 'in', ctx.config.i18n.locales)
      .orderBy('locale')
      .execute();
    return { translationGroup: hit.translation_group, items: await views(ctx.db, rows) };
  }

  return { list, get, create, update, remove, translations, loadMenu };
}
