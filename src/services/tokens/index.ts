import { type Actor, requirePermission, tokenActor } from '../../auth/actor.js';
import { defaultScopesFor, isScope, scopeMinRole, scopesInclude } from '../../auth/scopes.js';
import { generatePat, hashToken } from '../../auth/tokens.js';
import { isoNow } from '../../core/clock.js';
import { CmsError, notFound, validationError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import type { ApiTokensTable } from '../../db/tables.js';
import type { ServiceContext } from '../context.js';
import { oauthAccessActor } from '../oauth/access.js';
import { ACCESS_TOKEN_PREFIX } from '../oauth/settings.js';

export interface ApiToken {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

function toApiToken(row: ApiTokensTable): ApiToken {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    prefix: row.prefix,
    scopes: JSON.parse(row.scopes) as string[],
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

/**
 * Token → actor lookups are cached briefly so the published-read path costs no
 * extra SQL in steady state. Revocations and user changes clear it in every
 * process through the invalidation bus; TOKEN_CACHE_TTL_MS is the safety net.
 */
export const TOKEN_CACHE_TTL_MS = 2_000;
const LAST_USED_GRANULARITY_MS = 60_000;

export interface CreateTokenInput {
  userId: string;
  name: string;
  scopes?: string[];
  expiresAt?: string | null;
}

export function createTokensService(ctx: ServiceContext) {
  const cache = new Map<string, { actor: Actor | null; until: number }>();
  const inFlight = new Map<string, { promise: Promise<Actor | null>; generation: number }>();
  /** Bumped by every invalidation; lookups begun under an older generation are not cached. */
  let generation = 0;

  function checkScopes(scopes: string[], role: number): void {
    for (const s of scopes) {
      if (!isScope(s)) throw validationError(`Unknown scope "${s}"`, { scope: s });
      if (scopeMinRole(s) > role) {
        throw new CmsError('INSUFFICIENT_PERMISSIONS', `The user's role cannot use the "${s}" scope`, { scope: s });
      }
    }
  }

  /** Create a PAT. The secret is returned once; only its SHA-256 is stored. */
  async function create(
    actor: Actor | null,
    input: CreateTokenInput,
    db: Kdb = ctx.db,
  ): Promise<{ token: string; record: ApiToken }> {
    if (actor && actor.userId !== input.userId) requirePermission(actor, 'users:manage');
    const name = input.name.trim();
    if (!name || name.length > 100) throw validationError('Token name must be 1 to 100 characters');
    const user = await db.selectFrom('_cms_users').selectAll().where('id', '=', input.userId).executeTakeFirst();
    if (!user) throw notFound('User');
    const scopes = [...new Set(input.scopes?.length ? input.scopes : defaultScopesFor(user.role))];
    checkScopes(scopes, user.role);
    // A token can only make tokens within its own scopes (no escalation through a narrow token).
    if (actor && actor.scopes !== null) {
      for (const s of scopes) {
        if (!scopesInclude(actor.scopes, s)) {
          throw new CmsError('INSUFFICIENT_SCOPE', `Your token cannot grant the "${s}" scope`, { scope: s });
        }
      }
    }
    if (input.expiresAt && new Date(input.expiresAt).getTime() <= ctx.clock.now().getTime()) {
      throw validationError('expiresAt must be in the future');
    }
    const { token, hash, prefix } = generatePat();
    const row: ApiTokensTable = {
      id: newId(),
      user_id: user.id,
      name,
      token_hash: hash,
      prefix,
      scopes: JSON.stringify(scopes),
      created_at: isoNow(ctx.clock),
      last_used_at: null,
      expires_at: input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
      revoked_at: null,
    };
    await db.insertInto('_cms_api_tokens').values(row).execute();
    return { token, record: toApiToken(row) };
  }

  async function list(actor: Actor, userId: string): Promise<ApiToken[]> {
    if (actor.userId !== userId) requirePermission(actor, 'users:manage');
    const rows = await ctx.db
      .selectFrom('_cms_api_tokens')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .limit(200)
      .execute();
    return rows.map(toApiToken);
  }

  async function revoke(actor: Actor, tokenId: string): Promise<void> {
    const row = await ctx.db.selectFrom('_cms_api_tokens').selectAll().where('id', '=', tokenId).executeTakeFirst();
    if (!row || row.revoked_at) throw notFound('Token');
    if (actor.userId !== row.user_id) requirePermission(actor, 'users:manage');
    await ctx.db
      .updateTable('_cms_api_tokens')
      .set({ revoked_at: isoNow(ctx.clock) })
      .where('id', '=', tokenId)
      .execute();
    await invalidate();
  }

  /**
   * Resolve a bearer token — a PAT, or an OAuth access token (`cms_oat_…`) —
   * to an actor, or null when unknown, revoked, expired or the user is disabled.
   *
   * Concurrent lookups of one token share one query, so requests that arrive
   * together are judged on the same state (before, two requests with one token
   * could be authenticated on either side of a role change made by the first
   * of them, depending on which got a pool connection first). A lookup that
   * started before an invalidation is never cached after it.
   */
  async function authenticate(token: string): Promise<Actor | null> {
    const hash = hashToken(token);
    const nowMs = ctx.clock.now().getTime();
    const hit = cache.get(hash);
    if (hit && hit.until > nowMs) return hit.actor;
    const pending = inFlight.get(hash);
    if (pending && pending.generation === generation) return pending.promise;
    const started = generation;
    const lookup = async () => {
      const actor = token.startsWith(ACCESS_TOKEN_PREFIX)
        ? await oauthAccessActor(ctx.db, hash, nowMs)
        : await personalTokenActor(hash, nowMs);
      if (started === generation) {
        if (cache.size > 10_000) cache.clear();
        cache.set(hash, { actor, until: nowMs + TOKEN_CACHE_TTL_MS });
      }
      return actor;
    };
    const promise: Promise<Actor | null> = lookup().finally(() => {
      if (inFlight.get(hash)?.promise === promise) inFlight.delete(hash);
    });
    inFlight.set(hash, { promise, generation: started });
    return promise;
  }

  async function personalTokenActor(hash: string, nowMs: number): Promise<Actor | null> {
    const row = await ctx.db
      .selectFrom('_cms_api_tokens as t')
      .innerJoin('_cms_users as u', 'u.id', 't.user_id')
      .select([
        't.id as token_id',
        't.scopes',
        't.expires_at',
        't.revoked_at',
        't.last_used_at',
        'u.id as user_id',
        'u.name',
        'u.email',
        'u.role',
        'u.disabled',
      ])
      .where('t.token_hash', '=', hash)
      .executeTakeFirst();
    let actor: Actor | null = null;
    if (row && !row.revoked_at && !row.disabled && (!row.expires_at || new Date(row.expires_at).getTime() > nowMs)) {
      actor = tokenActor(row, 'token');
      if (!row.last_used_at || nowMs - new Date(row.last_used_at).getTime() > LAST_USED_GRANULARITY_MS) {
        await ctx.db
          .updateTable('_cms_api_tokens')
          .set({ last_used_at: new Date(nowMs).toISOString() })
          .where('id', '=', row.token_id)
          .execute();
      }
    }
    return actor;
  }

  function forget(): void {
    generation++;
    cache.clear();
  }
  ctx.bus.subscribe('tokens', forget);

  /** Forget cached lookups here and in every other process (after a revoke, a role change or a disable). */
  function invalidate(): Promise<void> {
    return ctx.bus.publish('tokens');
  }

  return { create, list, revoke, authenticate, invalidate };
}

export type TokensService = ReturnType<typeof createTokensService>;
