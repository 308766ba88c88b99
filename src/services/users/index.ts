import { type Actor, requirePermission } from '../../auth/actor.js';
import { isRoleLevel, ROLES, type RoleLevel } from '../../auth/roles.js';
import { isoNow } from '../../core/clock.js';
import { CmsError, notFound, validationError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import type { UsersTable } from '../../db/tables.js';
import { inTransaction, type ServiceContext } from '../context.js';
import { userAdminOps } from './admin.js';

export type { ListUsersQuery, UpdateUserInput } from './admin.js';
export type { AdminUser } from './present.js';

export interface User {
  id: string;
  email: string;
  name: string | null;
  role: RoleLevel;
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export function toUser(row: UsersTable): User {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role as RoleLevel,
    disabled: Boolean(row.disabled),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  if (!EMAIL.test(trimmed) || trimmed.length > 254) throw validationError(`"${email}" is not a valid email address`);
  return trimmed;
}

export interface CreateUserInput {
  /** Chosen in advance when a passkey ceremony needs the user handle (setup, invite, sign-up). */
  id?: string;
  email: string;
  name?: string | null;
  role?: number;
}

export function createUsersService(ctx: ServiceContext) {
  const accessListeners: Array<() => void | Promise<void>> = [];
  /** Called after a user's access changed (role, disabled): caches of credentials must forget. */
  function onAccessChange(listener: () => void | Promise<void>): void {
    accessListeners.push(listener);
  }
  const notifyAccessChange = async () => {
    await Promise.all(accessListeners.map((listener) => listener()));
  };

  /**
   * Create a user. The first user of a site is always an Admin, whatever role
   * was asked for. Callers other than the bootstrap path need users:manage.
   */
  async function create(
    actor: Actor | null,
    input: CreateUserInput,
    db: Kdb = ctx.db,
  ): Promise<{ user: User; first: boolean }> {
    if (actor) requirePermission(actor, 'users:manage');
    const email = normalizeEmail(input.email);
    const requested = input.role ?? ROLES.SUBSCRIBER;
    if (!isRoleLevel(requested)) throw validationError(`role must be one of 10, 20, 30, 40, 50`);
    return inTransaction(db, async (trx) => {
      const existing = await trx.selectFrom('_cms_users').select('id').where('email', '=', email).executeTakeFirst();
      if (existing) throw new CmsError('ALREADY_EXISTS', `A user with email ${email} already exists`);
      const any = await trx.selectFrom('_cms_users').select('id').limit(1).executeTakeFirst();
      const first = !any;
      const now = isoNow(ctx.clock);
      const row: UsersTable = {
        id: input.id ?? newId(),
        email,
        name: input.name?.trim() || null,
        role: first ? ROLES.ADMIN : requested,
        disabled: 0,
        created_at: now,
        updated_at: now,
        last_sign_in_at: null,
      };
      await trx.insertInto('_cms_users').values(row).execute();
      return { user: toUser(row), first };
    });
  }

  async function get(id: string): Promise<User> {
    const row = await ctx.db.selectFrom('_cms_users').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('User');
    return toUser(row);
  }

  async function findByEmail(email: string): Promise<User | undefined> {
    const row = await ctx.db
      .selectFrom('_cms_users')
      .selectAll()
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst();
    return row ? toUser(row) : undefined;
  }

  async function count(): Promise<number> {
    const row = await ctx.db
      .selectFrom('_cms_users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  return { create, get, findByEmail, count, onAccessChange, admin: userAdminOps(ctx, notifyAccessChange) };
}

export type UsersService = ReturnType<typeof createUsersService>;
