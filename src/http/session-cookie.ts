import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { NewSession } from '../services/auth/sessions.js';
import type { AppEnv } from './env.js';

/** The session cookie the browser sent, if any (rotated away at sign-in). */
export function currentSessionId(c: Context<AppEnv>): string | null {
  return getCookie(c, c.get('services').auth.sessions.cookie.name) ?? null;
}

/** Set `cms_session` (HttpOnly, SameSite=Lax, Secure on https, Path=/) and answer with the user. */
export function signedIn<U>(c: Context<AppEnv>, result: { user: U; session: NewSession }): { user: U } {
  setSessionCookie(c, result.session);
  return { user: result.user };
}

/** Hand the browser the cookie of a session just opened. */
export function setSessionCookie(c: Context<AppEnv>, session: NewSession): void {
  const o = c.get('services').auth.sessions.cookie;
  setCookie(c, o.name, session.id, {
    httpOnly: o.httpOnly,
    secure: o.secure,
    sameSite: o.sameSite,
    path: o.path,
    maxAge: session.maxAgeSeconds,
  });
}

export function clearSessionCookie(c: Context<AppEnv>): void {
  const o = c.get('services').auth.sessions.cookie;
  deleteCookie(c, o.name, { httpOnly: o.httpOnly, secure: o.secure, sameSite: o.sameSite, path: o.path });
}
