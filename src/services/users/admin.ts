import { sql } from 'kysely';
import { type Actor, requirePermission } from '../../auth/actor.js';
import { isRoleLevel, ROLES } from '../../auth/roles.js';
import { isoNow } from '../../core/clock.js';
import { cursorText, decodeCursor, encodeCursor } from '../../core/cursor.js';
import { CmsError, notFound, validationError } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import { lockAdminRows, lockUserRows } from '../../db/locks.js';
import { inTransaction, type ServiceContext } from '../context.js';
import { type AdminUser, toAdminUser } from './present.js';

export interface ListUsersQuery {
  cursor?: string;
  limit?: number;
  search?: string;
  role?: number;
}

export interface UpdateUserInput {
  name?: string | null;
  role?: number;
}

/**
 * The users admin (Admin role, `users:manage`): list, get, update, disable,
 * enable. Rules: nobody raises their own role or grants a role above their
 * own; the last enabled Admin can be neither demoted nor disabled. Disabling
 * ends the user's sessions and links at once; `accessChanged` tells the token
 * cache to forget what it knew.
 */
export function userAdminOps(ctx: ServiceContext, accessChanged: () => Promise<void>) {
  function selectUsers(db: Kdb) {
    return db
      .selectFrom('_cms_users as u')
      .selectAll('u')
      .select((eb) =>
        eb
          .selectFrom('_cms_passkeys as p')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('p.user_id', '=', 'u.id')
          .as('passkey_count'),
      );
  }

  async function load(db: Kdb, id: string): Promise<AdminUser> {
    const row = await selectUsers(db).where('u.id', '=', id).executeTakeFirst();
    if (!row) throw notFound('User');
    return toAdminUser(row);
  }

  async function enabledAdmins(db: Kdb): Promise<number> {
    const row = await db
      .selectFrom('_cms_users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', ROLES.ADMIN)
      .where('disabled', '=', 0)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  const lastAdmin = (what: string) =>
    new CmsError('LAST_ADMIN', `The last enabled Admin cannot be ${what}; make another user Admin first`);

  async function list(actor: Actor, query: ListUsersQuery): Promise<{ items: AdminUser[]; nextCursor?: string }> {
    requirePermission(actor, 'users:manage');
    const limit = query.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw validationError('limit must be 1 to 100');
    let q = selectUsers(ctx.db);
    const search = query.search?.trim().toLowerCase();
    if (search) {
      const pattern = `%${search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
      q = q.where(
        sql<boolean>`(u.email like ${pattern} escape '\\' or lower(coalesce(u.name, '')) like ${pattern} escape '\\')`,
      );
    }
    if (query.role !== undefined) q = q.where('u.role', '=', query.role);
    if (query.cursor) {
      const [createdAt, id] = decodeCursor(query.cursor, [cursorText, cursorText]);
      q = q.where((eb) =>
        eb.or([eb('u.created_at', '>', createdAt), eb.and([eb('u.created_at', '=', createdAt), eb('u.id', '>', id)])]),
      );
    }
    const rows = await q
      .orderBy('u.created_at')
      .orderBy('u.id')
      .limit(limit + 1)
      .execute();
    const items = rows.slice(0, limit).map(toAdminUser);
    const last = items[items.length - 1];
    return rows.length > limit ? { items, nextCursor: encodeCursor([last.createdAt, last.id]) } : { items };
  }

  async function get(actor: Actor, id: string): Promise<AdminUser> {
    requirePermission(actor, 'users:manage');
    return load(ctx.db, id);
  }

  async function update(actor: Actor, id: string, input: UpdateUserInput): Promise<AdminUser> {
    requirePermission(actor, 'users:manage');
    let roleChanged = false;
    const user = await inTransaction(ctx.db, async (trx) => {
      await lockAdminRows(trx, ctx.dialect, ROLES.ADMIN);
      await lockUserRows(trx, ctx.dialect, [id]);
      const target = await load(trx, id);
      const patch: { name?: string | null; role?: number; updated_at: string } = { updated_at: isoNow(ctx.clock) };
      if (input.name !== undefined) {
        const name = input.name?.trim() || null;
        if (name && name.length > 200) throw validationError('name must be at most 200 characters');
        patch.name = name;
      }
      if (input.role !== undefined && input.role !== target.role) {
        const role = input.role;
        if (!isRoleLevel(role)) throw validationError('role must be one of 10, 20, 30, 40, 50');
        if (target.id === actor.userId && role > target.role) {
          throw new CmsError('FORBIDDEN', 'Nobody can raise their own role');
        }
        if (role > actor.role) {
          throw new CmsError('INSUFFICIENT_PERMISSIONS', 'You cannot give a role above your own');
        }
        if (target.role === ROLES.ADMIN && !target.disabled && (await enabledAdmins(trx)) <= 1) {
          throw lastAdmin('demoted');
        }
        patch.role = role;
        roleChanged = true;
      }
      await trx.updateTable('_cms_users').set(patch).where('id', '=', id).execute();
      return load(trx, id);
    });
    if (roleChanged) await accessChanged();
    return user;
  }

  async function disable(actor: Actor, id: string): Promise<AdminUser> {
    requirePermission(actor, 'users:manage');
    const user = await inTransaction(ctx.db, async (trx) => {
      await lockAdminRows(trx, ctx.dialect, ROLES.ADMIN);
      await lockUserRows(trx, ctx.dialect, [id]);
      const target = await load(trx, id);
      if (target.disabled) return target;
      if (target.role === ROLES.ADMIN && (await enabledAdmins(trx)) <= 1) throw lastAdmin('disabled');
      await trx
        .updateTable('_cms_users')
        .set({ disabled: 1, updated_at: isoNow(ctx.clock) })
        .where('id', '=', id)
        .execute();
      // Sessions and pending sign-in links end now; tokens are refused while the user is disabled.
      await trx.deleteFrom('_cms_sessions').where('user_id', '=', id).execute();
      await trx.deleteFrom('_cms_magic_links').where('user_id', '=', id).execute();
      return load(trx, id);
    });
    await accessChanged();
    return user;
  }

  async function enable(actor: Actor, id: string): Promise<AdminUser> {
    requirePermission(actor, 'users:manage');
    const res = await ctx.db
      .updateTable('_cms_users')
      .set({ disabled: 0, updated_at: isoNow(ctx.clock) })
      .where('id', '=', id)
      .where('disabled', '=', 1)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) > 0) await accessChanged();
    return load(ctx.db, id);
  }

  return { list, get, update, disable, enable };
}

export type UserAdminOps = ReturnType<typeof userAdminOps>;
