import type { Actor } from '../../auth/actor.js';
import { SCOPE_DESCRIPTIONS } from '../../auth/scope-descriptions.js';
import { ALL_SCOPES, SCOPE_MIN_ROLE, scopesInclude } from '../../auth/scopes.js';
import type { ApiToken } from '../tokens/index.js';
import type { AuthDeps } from './deps.js';
import { requireUser } from './present.js';

/** A token as its owner sees it (the owner and revocation are implied). */
export type TokenRecord = Omit<ApiToken, 'userId' | 'revokedAt'>;

const toRecord = ({ userId: _owner, revokedAt: _revoked, ...record }: ApiToken): TokenRecord => record;

/**
 * Personal access tokens of the signed-in user (an Admin may list and revoke
 * anyone's). The tokens service enforces that scopes never exceed the user's
 * role, nor the scopes of the token the request came with.
 */
export function tokenRouteOps(deps: AuthDeps) {
  async function list(actor: Actor, userId?: string): Promise<TokenRecord[]> {
    const self = requireUser(actor);
    return (await deps.tokens.list(actor, userId ?? self)).map(toRecord);
  }

  async function create(
    actor: Actor,
    input: { name: string; scopes: string[]; expiresAt?: string | null },
  ): Promise<{ token: string; record: TokenRecord }> {
    const userId = requireUser(actor);
    const made = await deps.tokens.create(actor, {
      userId,
      name: input.name,
      scopes: input.scopes,
      expiresAt: input.expiresAt,
    });
    return { token: made.token, record: toRecord(made.record) };
  }

  async function revoke(actor: Actor, id: string): Promise<void> {
    requireUser(actor);
    await deps.tokens.revoke(actor, id);
  }

  /** Every scope with whether the caller may put it on a new token. */
  function scopes(actor: Actor): Array<{ scope: string; description: string; allowed: boolean }> {
    requireUser(actor);
    return ALL_SCOPES.map((scope) => ({
      scope,
      description: SCOPE_DESCRIPTIONS[scope],
      allowed: SCOPE_MIN_ROLE[scope] <= actor.role && (actor.scopes === null || scopesInclude(actor.scopes, scope)),
    }));
  }

  return { list, create, revoke, scopes };
}
