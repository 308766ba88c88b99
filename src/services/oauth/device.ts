import type { Actor } from '../../auth/actor.js';
import { CmsError, constraintConflict } from '../../core/errors.js';
import { newId, randomToken, sha256Hex } from '../../core/ids.js';
import { inTransaction, type ServiceContext } from '../context.js';
import { scopesOnTable } from './authorize.js';
import type { OAuthClient } from './clients.js';
import { OAuthError } from './errors.js';
import { decideGrant, type ScopeChoice, scopeChoices } from './grants.js';
import type { TokenIssuer, TokenResponse } from './issue.js';
import { requireSessionUser } from './session-only.js';
import {
  DEVICE_CODE_TTL_MS,
  DEVICE_PAGE,
  DEVICE_POLL_INTERVAL_S,
  GRANT_DEVICE_CODE,
  SLOW_DOWN_STEP_S,
} from './settings.js';
import { displayUserCode, newUserCode, normalizeUserCode } from './user-codes.js';

/** The device authorization response (RFC 8628 §3.2). */
export interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

export interface DeviceView {
  userCode: string;
  client: { id: string; name: string; uri: string | null };
  scopes: ScopeChoice[];
  expiresAt: string;
}

/**
 * Device authorization grant (RFC 8628): the device gets a device code and
 * shows a user code; a signed-in person approves it on the admin's device
 * page; the device polls until it gets tokens, is denied, or the code expires.
 */
export function deviceOps(
  ctx: ServiceContext,
  issuer: TokenIssuer,
  findClient: (id: string) => Promise<OAuthClient | null>,
) {
  const verificationUri = `${ctx.config.publicUrl}${DEVICE_PAGE}`;

  async function start(client: OAuthClient, params: { scope?: string }): Promise<DeviceAuthorization> {
    if (!client.grantTypes.includes(GRANT_DEVICE_CODE)) {
      throw new OAuthError('unauthorized_client', 'This client did not register the device_code grant');
    }
    const scopes = scopesOnTable(params.scope, client);
    if (scopes.length === 0) {
      throw new OAuthError('invalid_scope', 'None of the requested scopes is registered for this client or known here');
    }
    const now = ctx.clock.now();
    const nowIso = now.toISOString();
    await ctx.db.deleteFrom('_cms_oauth_device_codes').where('expires_at', '<=', nowIso).execute();
    const deviceCode = randomToken(32);
    for (let attempt = 0; ; attempt++) {
      const userCode = newUserCode();
      try {
        await ctx.db
          .insertInto('_cms_oauth_device_codes')
          .values({
            device_code_hash: sha256Hex(deviceCode),
            user_code: userCode,
            client_id: client.id,
            scopes: JSON.stringify(scopes),
            status: 'pending',
            user_id: null,
            granted_scopes: null,
            interval_seconds: DEVICE_POLL_INTERVAL_S,
            last_polled_at: null,
            created_at: nowIso,
            expires_at: new Date(now.getTime() + DEVICE_CODE_TTL_MS).toISOString(),
          })
          .execute();
        const shown = displayUserCode(userCode);
        return {
          device_code: deviceCode,
          user_code: shown,
          verification_uri: verificationUri,
          verification_uri_complete: `${verificationUri}?user_code=${shown}`,
          expires_in: Math.floor(DEVICE_CODE_TTL_MS / 1000),
          interval: DEVICE_POLL_INTERVAL_S,
        };
      } catch (err) {
        // A user code already pending (1 in 25 billion): draw another.
        if (attempt < 4 && constraintConflict(err)) continue;
        throw err;
      }
    }
  }

  async function pending(userCodeInput: string) {
    const userCode = normalizeUserCode(userCodeInput);
    const row = userCode
      ? await ctx.db
          .selectFrom('_cms_oauth_device_codes')
          .selectAll()
          .where('user_code', '=', userCode)
          .where('status', '=', 'pending')
          .where('expires_at', '>', ctx.clock.now().toISOString())
          .executeTakeFirst()
      : undefined;
    if (!row)
      throw new CmsError(
        'NOT_FOUND',
        'This code is unknown, already used or expired; check it or start again on your device',
      );
    const client = await findClient(row.client_id);
    if (!client) throw new CmsError('NOT_FOUND', 'The application of this code no longer exists');
    return { row, client, scopes: JSON.parse(row.scopes) as string[] };
  }

  /** What the device page shows for a user code. */
  async function view(actor: Actor, userCodeInput: string): Promise<DeviceView> {
    const { role } = requireSessionUser(actor);
    const { row, client, scopes } = await pending(userCodeInput);
    return {
      userCode: displayUserCode(row.user_code),
      client: { id: client.id, name: client.name, uri: client.clientUri },
      scopes: scopeChoices(scopes, role),
      expiresAt: row.expires_at,
    };
  }

  async function answer(
    userCode: string,
    set: { status: 'approved' | 'denied'; user_id?: string; granted_scopes?: string },
  ) {
    const done = await ctx.db
      .updateTable('_cms_oauth_device_codes')
      .set(set)
      .where('user_code', '=', userCode)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) throw new CmsError('NOT_FOUND', 'This code was already answered');
  }

  async function approve(
    actor: Actor,
    userCodeInput: string,
    chosen?: string[],
  ): Promise<{ approved: true; scopes: string[] }> {
    const { userId, role } = requireSessionUser(actor);
    const { row, scopes } = await pending(userCodeInput);
    const grant = decideGrant(scopes, role, chosen);
    await answer(row.user_code, { status: 'approved', user_id: userId, granted_scopes: JSON.stringify(grant) });
    return { approved: true, scopes: grant };
  }

  async function deny(actor: Actor, userCodeInput: string): Promise<{ denied: true }> {
    requireSessionUser(actor);
    const { row } = await pending(userCodeInput);
    await answer(row.user_code, { status: 'denied' });
    return { denied: true };
  }

  /**
   * Token endpoint, device_code grant (RFC 8628 §3.4–3.5). Polling faster
   * than the interval answers `slow_down` and adds 5 seconds to it.
   */
  async function poll(client: OAuthClient, params: { device_code?: string }): Promise<TokenResponse> {
    if (!client.grantTypes.includes(GRANT_DEVICE_CODE)) {
      throw new OAuthError('unauthorized_client', 'This client did not register the device_code grant');
    }
    if (!params.device_code) throw new OAuthError('invalid_request', 'device_code is required');
    const hash = sha256Hex(params.device_code);
    const row = await ctx.db
      .selectFrom('_cms_oauth_device_codes')
      .selectAll()
      .where('device_code_hash', '=', hash)
      .executeTakeFirst();
    if (!row || row.client_id !== client.id) throw new OAuthError('invalid_grant', 'Unknown device code');
    if (row.status === 'consumed')
      throw new OAuthError('invalid_grant', 'This device code was already exchanged for tokens');
    const now = ctx.clock.now();
    if (Date.parse(row.expires_at) <= now.getTime()) {
      throw new OAuthError('expired_token', 'The device code expired; start again');
    }
    if (row.status === 'denied') throw new OAuthError('access_denied', 'The user denied the request');
    if (row.status === 'pending') {
      const tooSoon =
        row.last_polled_at !== null && now.getTime() - Date.parse(row.last_polled_at) < row.interval_seconds * 1000;
      const interval = tooSoon ? row.interval_seconds + SLOW_DOWN_STEP_S : row.interval_seconds;
      await ctx.db
        .updateTable('_cms_oauth_device_codes')
        .set({ last_polled_at: now.toISOString(), interval_seconds: interval })
        .where('device_code_hash', '=', hash)
        .execute();
      if (tooSoon) throw new OAuthError('slow_down', `Polling too fast; wait ${interval} seconds between requests`);
      throw new OAuthError('authorization_pending', 'Waiting for the user to approve the request');
    }
    const tokens = await inTransaction(ctx.db, async (trx) => {
      const claimed = await trx
        .updateTable('_cms_oauth_device_codes')
        .set({ status: 'consumed', last_polled_at: now.toISOString() })
        .where('device_code_hash', '=', hash)
        .where('status', '=', 'approved')
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return null;
      const user = await trx
        .selectFrom('_cms_users')
        .select('disabled')
        .where('id', '=', row.user_id as string)
        .executeTakeFirst();
      if (!user || user.disabled) return 'disabled' as const;
      return issuer.issuePair(trx, {
        familyId: newId(),
        clientId: client.id,
        userId: row.user_id as string,
        scopes: JSON.parse(row.granted_scopes ?? '[]') as string[],
      });
    });
    if (tokens === null) throw new OAuthError('invalid_grant', 'This device code was already exchanged for tokens');
    if (tokens === 'disabled') throw new OAuthError('access_denied', 'The user who approved cannot sign in');
    return tokens;
  }

  return { start, view, approve, deny, poll };
}
