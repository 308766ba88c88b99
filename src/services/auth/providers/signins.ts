import { randomToken } from '../../../core/ids.js';
import type { ProviderSigninsTable } from '../../../db/tables-identity.js';
import type { ServiceContext } from '../../context.js';
import { hashSecret, isoAfter, MINUTE_MS } from '../secrets.js';

/** Between the start route and the callback: enough for a person at the provider's sign-in page. */
export const SIGNIN_TTL_MS = 10 * MINUTE_MS;

export type SigninIntent = 'login' | 'setup' | 'invite' | 'link';

export interface NewSignin {
  provider: string;
  intent: SigninIntent;
  inviteHash: string | null;
  /** The signed-in user a `link` adds the identity to. */
  userId: string | null;
  /** Setup input, form input, and what the provider keeps (JSON). */
  data: SigninData;
}

export interface SigninData {
  /** `email`: the address typed in the wizard (for a first user whose provider gives none). */
  setup?: { siteTitle: string; tagline: string | null; name: string | null; email?: string | null };
  input?: string | null;
  kept?: Record<string, unknown>;
}

export interface Signin {
  provider: string;
  intent: SigninIntent;
  inviteHash: string | null;
  userId: string | null;
  data: SigninData;
  codeVerifier: string;
  nonce: string;
  browserHash: string;
}

const random = () => randomToken(32);

/**
 * Provider sign-ins in flight. `state` is 32 random bytes; the table holds its
 * SHA-256. The browser that started the sign-in holds a second secret in a
 * cookie, so a callback URL carried to another browser (login CSRF) does not
 * sign that browser in. Single use: the callback deletes the row as it reads it.
 */
export function signinStore(ctx: ServiceContext) {
  /** Make the secrets of a sign-in; `browser` is the cookie the browser already holds, if any. */
  function secrets(browser: string | null) {
    return {
      state: random(),
      codeVerifier: random(),
      nonce: random(),
      browser: browser && /^[A-Za-z0-9_-]{43}$/.test(browser) ? browser : random(),
    };
  }

  async function save(
    signin: NewSignin,
    made: { state: string; codeVerifier: string; nonce: string; browser: string },
  ): Promise<void> {
    const now = ctx.clock.now();
    const row: ProviderSigninsTable = {
      state_hash: hashSecret(made.state),
      browser_hash: hashSecret(made.browser),
      provider: signin.provider,
      pkce_verifier: made.codeVerifier,
      nonce: made.nonce,
      intent: signin.intent,
      invite_hash: signin.inviteHash,
      data: JSON.stringify(signin.data),
      user_id: signin.userId,
      created_at: now.toISOString(),
      expires_at: isoAfter(now, SIGNIN_TTL_MS),
    };
    await ctx.db.deleteFrom('_cms_provider_signins').where('expires_at', '<=', now.toISOString()).execute();
    await ctx.db.insertInto('_cms_provider_signins').values(row).execute();
  }

  /** Take the sign-in a `state` names (deleted whatever follows); null when unknown, used or expired. */
  async function take(state: string): Promise<Signin | null> {
    if (!state || state.length > 200) return null;
    const row = await ctx.db
      .deleteFrom('_cms_provider_signins')
      .where('state_hash', '=', hashSecret(state))
      .returningAll()
      .executeTakeFirst();
    if (!row || Date.parse(row.expires_at) <= ctx.clock.now().getTime()) return null;
    return {
      provider: row.provider,
      intent: row.intent as SigninIntent,
      inviteHash: row.invite_hash,
      userId: row.user_id,
      data: row.data ? (JSON.parse(row.data) as SigninData) : {},
      codeVerifier: row.pkce_verifier,
      nonce: row.nonce,
      browserHash: row.browser_hash,
    };
  }

  return { secrets, save, take };
}

export type SigninStore = ReturnType<typeof signinStore>;
