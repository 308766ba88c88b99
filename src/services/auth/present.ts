import { type Actor, roleName } from '../../auth/actor.js';
import type { RoleLevel } from '../../auth/roles.js';
import { CmsError } from '../../core/errors.js';
import type { PasskeysTable } from '../../db/tables-identity.js';

/** The signed-in user as sign-in responses and `/auth/me` show it. */
export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
  role: RoleLevel;
  roleName: string;
}

export function sessionUser(row: { id: string; email: string; name: string | null; role: number }): SessionUser {
  return { id: row.id, email: row.email, name: row.name, role: row.role as RoleLevel, roleName: roleName(row.role) };
}

export interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  deviceType: string;
  backedUp: boolean;
}

export function toPasskey(row: PasskeysTable): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    deviceType: row.device_type,
    backedUp: Boolean(row.backed_up),
  };
}

/** Any signed-in user (session or token). */
export function requireUser(actor: Actor): string {
  if (actor.kind !== 'user' || !actor.userId) throw new CmsError('UNAUTHORIZED', 'Sign in first');
  return actor.userId;
}

/**
 * A signed-in browser session. Adding or removing sign-in credentials is never
 * possible with an API token: a leaked token must not become a way into the account.
 */
export function requireSessionUser(actor: Actor): string {
  const userId = requireUser(actor);
  if (actor.via !== 'session') {
    throw new CmsError('FORBIDDEN', 'Passkeys are managed from a signed-in admin session, not with an API token');
  }
  return userId;
}
