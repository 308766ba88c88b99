import { type Actor, requirePermission, requireScope } from '../../auth/actor.js';
import { ROLES } from '../../auth/roles.js';
import { scopesInclude } from '../../auth/scopes.js';
import { CmsError } from '../../core/errors.js';

/**
 * Who may transfer: administrators only (`transfer:export` and
 * `transfer:import` are Admin permissions), and a token only with the
 * scope the operation names (`admin` includes the three). An operation an
 * MCP client started through an approval stays open to that user and token
 * without the scope: the operation's door checks that first.
 */
export type TransferScope = 'transfer:export' | 'transfer:analyze' | 'transfer:execute';

export const TRANSFER_SCOPES: readonly TransferScope[] = ['transfer:export', 'transfer:analyze', 'transfer:execute'];

const PERMISSION = {
  'transfer:export': 'transfer:export',
  'transfer:analyze': 'transfer:import',
  'transfer:execute': 'transfer:import',
} as const;

/** The role check every transfer door makes first (no approval is asked for a non-admin). */
export function requireAdmin(actor: Actor): void {
  if (actor.kind === 'anonymous') throw new CmsError('UNAUTHORIZED', 'Authentication required');
  if (actor.role < ROLES.ADMIN) {
    throw new CmsError('INSUFFICIENT_PERMISSIONS', 'Only administrators may export or import the site', {
      permission: 'transfer',
    });
  }
}

/** Whether the caller's token (if any) carries the scope. */
export function hasScope(actor: Actor, scope: TransferScope): boolean {
  return actor.scopes === null || scopesInclude(actor.scopes, scope);
}

/** Refuse unless the caller is an administrator whose token (if any) carries the scope. */
export function requireTransfer(actor: Actor, scope: TransferScope): void {
  requireAdmin(actor);
  requirePermission(actor, PERMISSION[scope]);
  requireScope(actor, scope);
}

/** Any one transfer scope (capabilities, import status and receipt). */
export function requireAnyTransfer(actor: Actor): void {
  requireAdmin(actor);
  if (TRANSFER_SCOPES.some((s) => hasScope(actor, s))) return;
  throw new CmsError('INSUFFICIENT_SCOPE', 'This token lacks a transfer scope', { scopes: TRANSFER_SCOPES });
}
