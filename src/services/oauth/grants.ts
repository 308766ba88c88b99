import { SCOPE_DESCRIPTIONS } from '../../auth/scope-descriptions.js';
import { ALL_SCOPES, isScope, type Scope, scopeMinRole } from '../../auth/scopes.js';
import { CmsError } from '../../core/errors.js';

/**
 * Scope arithmetic of the authorization server. The grant is the
 * intersection of what the client asks for, what it registered and what the
 * user's role can use (SCOPE_MIN_ROLE); an empty grant is refused. Unknown
 * scope names fall out of the intersection.
 */

/** Space-separated scope string → unique list, order kept. */
export function parseScope(value: string | null | undefined): string[] {
  if (!value) return [];
  return [...new Set(value.split(/\s+/).filter(Boolean))];
}

export const formatScope = (scopes: readonly string[]) => scopes.join(' ');

/** The known (core or plugin) scopes of a list. */
export function knownScopes(scopes: readonly string[]): string[] {
  return scopes.filter((s) => isScope(s));
}

/** Requested ∩ registered; the request defaults to everything registered. */
export function requestedWithinClient(requested: readonly string[], registered: readonly string[]): string[] {
  if (requested.length === 0) return [...registered];
  return requested.filter((s) => registered.includes(s));
}

export const roleCanUse = (scope: string, role: number) => scopeMinRole(scope) <= role;

export interface ScopeChoice {
  scope: string;
  description: string;
  /** false when the user's role cannot use it: it is left out of the grant. */
  allowed: boolean;
}

/** What the consent and device pages show: every scope on the table, with whether this user can grant it. */
export function scopeChoices(scopes: readonly string[], role: number): ScopeChoice[] {
  return scopes.map((scope) => ({
    scope,
    description:
      SCOPE_DESCRIPTIONS[scope as Scope] ?? (scope.startsWith('mcp:tools:') ? 'Call the tools of one plugin' : scope),
    allowed: roleCanUse(scope, role),
  }));
}

export const DEFAULT_CLIENT_SCOPES: readonly string[] = ALL_SCOPES;

/**
 * The grant a user gives: by default every scope on the table their role can
 * use; a narrower choice (scopes unticked on the consent page) must stay
 * within it. Nothing left is refused.
 */
export function decideGrant(onTable: readonly string[], role: number, chosen?: readonly string[]): string[] {
  const allowed = onTable.filter((s) => roleCanUse(s, role));
  const grant = chosen === undefined ? allowed : [...new Set(chosen)];
  for (const scope of grant) {
    if (!onTable.includes(scope)) {
      throw new CmsError('VALIDATION_ERROR', `The application did not ask for the "${scope}" scope`, { scope });
    }
    if (!roleCanUse(scope, role)) {
      throw new CmsError('INSUFFICIENT_PERMISSIONS', `Your role cannot grant the "${scope}" scope`, { scope });
    }
  }
  if (grant.length === 0) {
    throw allowed.length === 0
      ? new CmsError('INSUFFICIENT_PERMISSIONS', 'Your role can grant none of the scopes this application asks for')
      : new CmsError('VALIDATION_ERROR', 'Choose at least one scope, or deny the request');
  }
  return grant;
}
