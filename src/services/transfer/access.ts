import { type Actor, requirePermission, requireScope } from '../../auth/actor.js';
import { ROLES } from '../../auth/roles.js';
import { scopesInclude } from '../../auth/scopes.js';
import { CmsError } from '../../core/errors.js';

/**
 * Who may transfer: administrators only (`transfer:export` and
 * `transfer:import` are Admin permissions), and a token only with the
 * scope the operation names (`admin` includes the three). An operation an
 * MCP client started through an approval stays open to that user and token
 * without the scope (`grantedTo`).
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

export interface Grant {
  userId: string | null;
  tokenId: string | null;
  /** The operation was started through an approval (MCP). */
  approved: boolean;
}

function granted(actor: Actor, grant: Grant | undefined): boolean {
  return (
    grant?.approved === true &&
    actor.tokenId !== null &&
    grant.tokenId === actor.tokenId &&
    grant.userId === actor.userId
  );
}

/**
 * Refuse unless the caller is an administrator with the scope, or the
 * operation was started for this very user and token through an approval.
 */
export function requireTransfer(actor: Actor, scope: TransferScope, grant?: Grant): void {
  requireAdmin(actor);
  if (granted(actor, grant)) return;
  requirePermission(actor, PERMISSION[scope]);
  requireScope(actor, scope);
}

/** Any one transfer scope (capabilities, import status and receipt). */
export function requireAnyTransfer(actor: Actor, grant?: Grant): void {
  requireAdmin(actor);
  if (granted(actor, grant) || TRANSFER_SCOPES.some((s) => hasScope(actor, s))) return;
  throw new CmsError('INSUFFICIENT_SCOPE', 'This token lacks a transfer scope', { scopes: TRANSFER_SCOPES });
}
