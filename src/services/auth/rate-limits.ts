import { sql } from 'kysely';
import { CmsError } from '../../core/errors.js';
import type { ServiceContext } from '../context.js';
import { MINUTE_MS } from './secrets.js';

/**
 * Rate limits (spec: "Authentication rate limits"), per endpoint and per
 * trusted client IP, counted in the database so they hold across processes.
 * The OAuth endpoints use the same rules when they arrive.
 */
export const RATE_LIMITS = {
  passkeyOptions: { endpoint: 'POST /auth/passkey/options', limit: 10, windowMs: MINUTE_MS },
  magicLinkSend: { endpoint: 'POST /auth/magic-link/send', limit: 3, windowMs: 5 * MINUTE_MS },
  signupRequest: { endpoint: 'POST /auth/signup/request', limit: 3, windowMs: 5 * MINUTE_MS },
  oauthDeviceCode: { endpoint: 'POST /oauth/device/code', limit: 10, windowMs: MINUTE_MS },
  oauthDeviceToken: { endpoint: 'POST /oauth/device/token', limit: 12, windowMs: MINUTE_MS },
  oauthRegister: { endpoint: 'POST /oauth/register', limit: 10, windowMs: MINUTE_MS },
} as const;

export type RateLimitRule = keyof typeof RATE_LIMITS;

const CLEANUP_EVERY_MS = MINUTE_MS;

/**
 * Fixed windows aligned to multiples of the window length: one row per
 * rule and IP, bumped by a single upsert (atomic on both databases). The row
 * restarts at 1 when a new window begins. Expired rows are swept at most once
 * a minute per process.
 */
export function rateLimiter(ctx: ServiceContext) {
  let lastCleanup = 0;

  /** Count one request; throws RATE_LIMITED (429, Retry-After) past the limit. No IP, no check. */
  async function hit(rule: RateLimitRule, ip: string | null): Promise<void> {
    if (!ip) return;
    const { limit, windowMs } = RATE_LIMITS[rule];
    const nowMs = ctx.clock.now().getTime();
    const startMs = Math.floor(nowMs / windowMs) * windowMs;
    const windowStart = new Date(startMs).toISOString();
    const expiresAt = new Date(startMs + windowMs).toISOString();
    const row = await ctx.db
      .insertInto('_cms_rate_limits')
      .values({ key: `${rule}|${ip}`, window_start: windowStart, count: 1, expires_at: expiresAt })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`case when _cms_rate_limits.window_start = excluded.window_start then _cms_rate_limits.count + 1 else 1 end`,
          window_start: sql<string>`excluded.window_start`,
          expires_at: sql<string>`excluded.expires_at`,
        }),
      )
      .returning('count')
      .executeTakeFirstOrThrow();
    if (nowMs - lastCleanup > CLEANUP_EVERY_MS) {
      lastCleanup = nowMs;
      await ctx.db.deleteFrom('_cms_rate_limits').where('expires_at', '<=', new Date(nowMs).toISOString()).execute();
    }
    if (Number(row.count) > limit) {
      const retryAfter = Math.max(1, Math.ceil((startMs + windowMs - nowMs) / 1000));
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
