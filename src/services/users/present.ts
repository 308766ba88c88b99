import { roleName } from '../../auth/actor.js';
import type { RoleLevel } from '../../auth/roles.js';
import type { UsersTable } from '../../db/tables.js';

/** A user as the users admin shows it. */
export interface AdminUser {
  id: string;
  email: string;
  name: string | null;
  role: RoleLevel;
  roleName: string;
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
  lastSignInAt: string | null;
  passkeyCount: number;
}

export function toAdminUser(row: UsersTable & { passkey_count: number | string | null }): AdminUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role as RoleLevel,
    roleName: roleName(row.role),
    disabled: Boolean(row.disabled),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastSignInAt: row.last_sign_in_at,
    passkeyCount: Number(row.passkey_count ?? 0),
  };
}
