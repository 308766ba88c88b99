import type { Permission } from './permissions.js';

/**
 * Token scopes and the permissions each unlocks (spec: "Scope" table). A scope
 * only opens a door; the user's role must still hold the permission.
 */
export const SCOPES = {
  'content:read': ['content:read', 'content:read_drafts', 'taxonomies:read', 'menus:read'],
  'content:write': [
    'content:read',
    'content:create',
    'content:edit_own',
    'content:edit_any',
    'content:publish_own',
    'content:publish_any',
    'content:delete_permanent',
    'bylines:manage',
    'taxonomies:manage',
    'menus:manage',
    // Moderation and redirects are Editor work on the site's content; tokens reach them through content:write.
    'comments:moderate',
    'redirects:manage',
    'sections:manage',
    'widgets:manage',
    // Search indexes follow the content they hold (enable, rebuild, stats); the role still needs Editor.
    'search:manage',
  ],
  'media:read': ['media:read'],
  'media:write': ['media:upload', 'media:register', 'media:edit_own', 'media:edit_any'],
  'schema:read': ['schema:read'],
  'schema:write': ['schema:read', 'schema:manage'],
  'taxonomies:manage': ['taxonomies:manage'],
  'menus:manage': ['menus:manage'],
  'settings:read': ['settings:read'],
  'settings:manage': ['settings:read', 'settings:manage'],
  'transfer:export': ['transfer:export'],
  'transfer:analyze': ['transfer:import'],
  'transfer:execute': ['transfer:import'],
  'mcp:tools': [],
  admin: 'all',
} as const satisfies Record<string, readonly Permission[] | 'all'>;

export type Scope = keyof typeof SCOPES;

/** Plugin tool scopes: `mcp:tools:<pluginId>`. */
export const PLUGIN_SCOPE = /^mcp:tools:[a-z0-9][a-z0-9_-]*$/;

export const ALL_SCOPES = Object.keys(SCOPES) as Scope[];

export function isScope(value: string): boolean {
  return Object.hasOwn(SCOPES, value) || PLUGIN_SCOPE.test(value);
}

/** True when one of the token's scopes names the required scope (the `admin` scope names every core one). */
export function scopesInclude(granted: readonly string[], required: string): boolean {
  if (granted.includes(required)) return true;
  // Plugin tools are never covered by `admin`: they need mcp:tools or their own scope.
  if (required.startsWith('mcp:tools:')) return granted.includes('mcp:tools');
  if (required === 'mcp:tools') return false;
  if (granted.includes('admin')) return true;
  if ((required === 'taxonomies:manage' || required === 'menus:manage') && granted.includes('content:write'))
    return true;
  if (required === 'schema:read' && granted.includes('schema:write')) return true;
  if (required === 'settings:read' && granted.includes('settings:manage')) return true;
  return false;
}

/** True when one of the token's scopes unlocks the permission. */
export function scopesAllow(granted: readonly string[], permission: Permission): boolean {
  for (const scope of granted) {
    const perms = (SCOPES as Record<string, readonly string[] | 'all'>)[scope];
    if (perms === 'all') return true;
    if (perms?.includes(permission)) return true;
  }
  return false;
}

/** Lowest role that can make any use of a scope; tokens are never issued beyond the user's role. */
export const SCOPE_MIN_ROLE: Record<Scope, number> = {
  'content:read': 10,
  'content:write': 20,
  'media:read': 10,
  'media:write': 20,
  'schema:read': 40,
  'schema:write': 50,
  'taxonomies:manage': 40,
  'menus:manage': 40,
  'settings:read': 40,
  'settings:manage': 50,
  'transfer:export': 50,
  'transfer:analyze': 50,
  'transfer:execute': 50,
  'mcp:tools': 50,
  admin: 50,
};

/** Minimum role for a scope string, plugin scopes included. */
export function scopeMinRole(scope: string): number {
  if (PLUGIN_SCOPE.test(scope)) return 50;
  return SCOPE_MIN_ROLE[scope as Scope] ?? Number.POSITIVE_INFINITY;
}

/** Scopes a new token gets when none are asked for: everything the role can use. */
export function defaultScopesFor(role: number): string[] {
  if (role >= 50) return ['admin'];
  return ALL_SCOPES.filter((s) => s !== 'admin' && s !== 'mcp:tools' && SCOPE_MIN_ROLE[s] <= role);
}
