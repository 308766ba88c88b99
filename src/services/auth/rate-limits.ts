import { CmsError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { lockKey } from '../../db/locks.js';
import type { ServiceContext } from '../context.js';
import { MINUTE_MS } from './secrets.js';

/**
 * Rate limits (spec: "Authentication rate limits"), per endpoint and per
 * trusted client IP, counted in the database so they hold across processes.
 * The OAuth endpoints use the same rules when they arrive.
 */
export const RATE_LIMITS = {
  passkeyOptions: { endpoint: 'POST /auth/passkey/options', limit: 10, windowMs: MINUTE_MS },
  /** Starting a login-provider sign-in: the passkey options' limit (each start writes a sign-in in flight). */
  providerStart: { endpoint: 'POST /auth/oauth/{provider}/start', limit: 10, windowMs: MINUTE_MS },
  magicLinkSend: { endpoint: 'POST /auth/magic-link/send', limit: 3, windowMs: 5 * MINUTE_MS },
  signupRequest: { endpoint: 'POST /auth/signup/request', limit: 3, windowMs: 5 * MINUTE_MS },
  oauthDeviceCode: { endpoint: 'POST /oauth/device/code', limit: 10, windowMs: MINUTE_MS },
  oauthDeviceToken: { endpoint: 'POST /oauth/device/token', limit: 12, windowMs: MINUTE_MS },
  oauthRegister: { endpoint: 'POST /oauth/register', limit: 10, windowMs: MINUTE_MS },
  /** Public comment submissions (spec: "Comment submission rate limit"; its value is ours). */
  commentSubmit: { endpoint: 'POST /comments/{collection}/{contentId}', limit: 5, windowMs: MINUTE_MS },
} as const;

export type RateLimitRule = keyof typeof RATE_LIMITS;

const SWEEP_EVERY_MS = MINUTE_MS;

/**
 * Sliding log: one row per accepted request, so "10 per minute" holds for
 * every 60-second span, not just per clock minute (fixed windows let twice
 * the limit through across a boundary). A hit is accepted when fewer than
 * `limit` accepted hits of its key lie in the last `windowMs`. Refused
 * requests are not logged, so hammering does not extend the wait.
 *
 * Hits of one key are serialised in a transaction: on PostgreSQL by a
 * transaction-scoped advisory lock on the key, on SQLite because the first
 * statement writes (so the transaction holds the write lock from its start).
 * That makes the limit exact across processes. Rows of idle keys are swept at
 * most once a minute per process.
 */
export function rateLimiter(ctx: ServiceContext) {
  let lastSweep = 0;

  /** Count one request; throws RATE_LIMITED (429, Retry-After) past the limit. No IP, no check. */
  async function hit(rule: RateLimitRule, ip: string | null): Promise<void> {
    if (!ip) return;
    const { limit, windowMs } = RATE_LIMITS[rule];
    const key = `${rule}|${ip}`;
    const nowMs = ctx.clock.now().getTime();
    const now = new Date(nowMs).toISOString();
    const waitMs = await ctx.db.transaction().execute(async (trx) => {
      await lockKey(trx, ctx.dialect, `rate-limit:${key}`);
      await trx
        .deleteFrom('_cms_rate_hits')
        .where('key', '=', key)
        .where('at', '<=', new Date(nowMs - windowMs).toISOString())
        .execute();
      const recent = await trx
        .selectFrom('_cms_rate_hits')
        .select('at')
        .where('key', '=', key)
        .orderBy('at', 'desc')
        .limit(limit)
        .execute();
      // A slot frees when the limit-th newest hit leaves the window.
      if (recent.length >= limit) return Date.parse(recent[limit - 1].at) + windowMs - nowMs;
      await trx
        .insertInto('_cms_rate_hits')
        .values({ id: newId(), key, at: now, expires_at: new Date(nowMs + windowMs).toISOString() })
        .execute();
      return 0;
    });
    if (nowMs - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = nowMs;
      await ctx.db.deleteFrom('_cms_rate_hits').where('expires_at', '<=', now).execute();
    }
    if (waitMs > 0) {
      const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
      throw new CmsError('RATE_LIMITED', `Too many requests; try again in ${retryAfter} seconds`, {
        retryAfter,
        limit,
        windowSeconds: windowMs / 1000,
      });
    }
  }

  return { hit };
}

export type RateLimiter = ReturnType<typeof rateLimiter>;
