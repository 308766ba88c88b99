import { ROLES, type RoleLevel } from './roles.js';

/**
 * Every permission and the minimum role that holds it (spec: "Roles" and
 * "Minimum role per capability"). The one table all doors consult.
 */
export const PERMISSIONS = {
  'content:read': ROLES.SUBSCRIBER,
  'media:read': ROLES.SUBSCRIBER,
  'taxonomies:read': ROLES.SUBSCRIBER,
  'menus:read': ROLES.SUBSCRIBER,
  'content:read_drafts': ROLES.CONTRIBUTOR,
  'content:create': ROLES.CONTRIBUTOR,
  'content:edit_own': ROLES.CONTRIBUTOR,
  'media:upload': ROLES.CONTRIBUTOR,
  'content:publish_own': ROLES.AUTHOR,
  'media:register': ROLES.AUTHOR,
  'media:edit_own': ROLES.AUTHOR,
  'content:edit_any': ROLES.EDITOR,
  'content:publish_any': ROLES.EDITOR,
  'media:edit_any': ROLES.EDITOR,
  'bylines:manage': ROLES.EDITOR,
  'taxonomies:manage': ROLES.EDITOR,
  'menus:manage': ROLES.EDITOR,
  'sections:manage': ROLES.EDITOR,
  'widgets:manage': ROLES.EDITOR,
  'comments:moderate': ROLES.EDITOR,
  'redirects:manage': ROLES.EDITOR,
  'search:manage': ROLES.EDITOR,
  'schema:read': ROLES.EDITOR,
  'settings:read': ROLES.EDITOR,
  'schema:manage': ROLES.ADMIN,
  'settings:manage': ROLES.ADMIN,
  'content:delete_permanent': ROLES.ADMIN,
  'media:usage_repair': ROLES.ADMIN,
  'users:manage': ROLES.ADMIN,
  'transfer:export': ROLES.ADMIN,
  'transfer:import': ROLES.ADMIN,
  'import:execute': ROLES.ADMIN,
  'plugins:manage': ROLES.ADMIN,
  // The consistency checker reads every table and its repair rewrites derived state.
  'site:check': ROLES.ADMIN,
} as const satisfies Record<string, RoleLevel>;

export type Permission = keyof typeof PERMISSIONS;

export function roleHas(role: number, permission: Permission): boolean {
  return role >= PERMISSIONS[permission];
}
