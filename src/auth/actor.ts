import { CmsError } from '../core/errors.js';
import { type Permission, roleHas } from './permissions.js';
import { ROLE_NAMES, type RoleLevel } from './roles.js';
import { scopesAllow, scopesInclude } from './scopes.js';

/** Who is calling, as every service sees it, whichever door they came through. */
export interface Actor {
  kind: 'user' | 'anonymous';
  userId: string | null;
  name: string | null;
  email: string | null;
  /** Role level; 0 for anonymous callers. */
  role: RoleLevel | 0;
  /** Token scopes; null when the caller is limited by role only (session, local CLI). */
  scopes: readonly string[] | null;
  /** ID of the token used (PAT or OAuth access token), when there is one. */
  tokenId: string | null;
  via: 'session' | 'token' | 'oauth' | 'cli' | 'anonymous' | 'system';
}

export const anonymousActor: Actor = {
  kind: 'anonymous',
  userId: null,
  name: null,
  email: null,
  role: 0,
  scopes: null,
  tokenId: null,
  via: 'anonymous',
};

/** The process itself (scheduled publishing, migrations, CLI bootstrap). */
export const systemActor: Actor = {
  kind: 'user',
  userId: null,
  name: 'system',
  email: null,
  role: 50,
  scopes: null,
  tokenId: null,
  via: 'system',
};

/** A signed-in person as an actor, limited by their role alone (a session, the gateway, the local CLI). */
export function personActor(
  user: { id: string; name: string | null; email: string; role: number },
  via: 'session' | 'cli',
): Actor {
  return {
    kind: 'user',
    userId: user.id,
    name: user.name,
    email: user.email,
    role: user.role as RoleLevel,
    scopes: null,
    tokenId: null,
    via,
  };
}

export function can(actor: Actor, permission: Permission): boolean {
  if (actor.kind === 'anonymous') return false;
  if (!roleHas(actor.role, permission)) return false;
  return actor.scopes === null || scopesAllow(actor.scopes, permission);
}

/** Throws the right error when the actor may not: 401 anonymous, 403 role, 403 scope. */
export function requirePermission(actor: Actor, permission: Permission): void {
  if (actor.kind === 'anonymous') throw new CmsError('UNAUTHORIZED', 'Authentication required');
  if (!roleHas(actor.role, permission)) {
    throw new CmsError('INSUFFICIENT_PERMISSIONS', `Your role (${roleName(actor.role)}) may not do this`, {
      permission,
    });
  }
  if (actor.scopes !== null && !scopesAllow(actor.scopes, permission)) {
    throw new CmsError('INSUFFICIENT_SCOPE', 'This token lacks the scope for this operation', { permission });
  }
}

/** Tool-level scope gate (MCP): the token must carry the named scope. */
export function requireScope(actor: Actor, scope: string): void {
  if (actor.kind === 'anonymous') throw new CmsError('UNAUTHORIZED', 'Authentication required');
  if (actor.scopes !== null && !scopesInclude(actor.scopes, scope)) {
    throw new CmsError('INSUFFICIENT_SCOPE', `This token lacks the "${scope}" scope`, { scope });
  }
}

export function roleName(role: number): string {
  return ROLE_NAMES[role as RoleLevel] ?? 'none';
}

/** The columns a bearer-token lookup joins from the token and its user. */
export interface TokenUserRow {
  token_id: string;
  scopes: string;
  user_id: string;
  name: string | null;
  email: string;
  role: number;
}

/** The actor behind a bearer token: the user's role, limited by the token's scopes. */
export function tokenActor(row: TokenUserRow, via: 'token' | 'oauth'): Actor {
  return {
    kind: 'user',
    userId: row.user_id,
    name: row.name,
    email: row.email,
    role: row.role as RoleLevel,
    scopes: JSON.parse(row.scopes) as string[],
    tokenId: row.token_id,
    via,
  };
}
