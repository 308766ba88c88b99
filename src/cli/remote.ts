import { CliError } from './context.js';
import { type Credentials, readCredentials, withCredentialsLock, writeCredentials } from './credentials.js';
import { OAuthReply, refreshTokens, type TokenSet } from './oauth-client.js';

/** Refresh this long before the access token expires. */
const EARLY_MS = 60_000;

export function credentialsFrom(previous: Pick<Credentials, 'url' | 'clientId'>, tokens: TokenSet): Credentials {
  return {
    version: 1,
    url: previous.url,
    clientId: previous.clientId,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    expiresAt: new Date(Date.now() + tokens.expires_in * 1000).toISOString(),
    scope: tokens.scope,
  };
}

export function requireCredentials(): Credentials {
  const creds = readCredentials();
  if (!creds) throw new CliError('Not signed in; run: cms login --url <site URL>');
  return creds;
}

/**
 * Exchange the refresh token for a new pair, under the credentials lock. If
 * another command refreshed meanwhile, its result is used instead (a refresh
 * token works once).
 */
async function refreshed(stale: Credentials): Promise<Credentials> {
  return withCredentialsLock(async () => {
    const current = readCredentials();
    if (!current) throw new CliError('Not signed in; run: cms login --url <site URL>');
    if (current.refreshToken !== stale.refreshToken) return current;
    try {
      const next = credentialsFrom(current, await refreshTokens(current.url, current.clientId, current.refreshToken));
      writeCredentials(next);
      return next;
    } catch (err) {
      if (err instanceof OAuthReply && err.error === 'invalid_grant') {
        throw new CliError(
          `Your sign-in to ${current.url} has ended (${err.message}); run: cms login --url ${current.url}`,
        );
      }
      if (err instanceof OAuthReply) throw new CliError(`Refreshing the sign-in failed: ${err.message}`);
      throw err;
    }
  });
}

/**
 * A REST call to the signed-in site with the stored access token, refreshed
 * first when it is (about to be) expired and once more after a 401.
 */
export async function remoteFetch(
  path: string,
  init: RequestInit = {},
): Promise<{ creds: Credentials; res: Response }> {
  let creds = requireCredentials();
  if (Date.parse(creds.expiresAt) - EARLY_MS <= Date.now()) creds = await refreshed(creds);
  const go = (c: Credentials) => {
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${c.accessToken}`);
    headers.set('accept', 'application/json');
    return fetch(`${c.url}/_cms/api${path}`, { ...init, headers, signal: AbortSignal.timeout(30_000) }).catch((err) => {
      throw new CliError(`Cannot reach ${c.url}: ${(err as Error).message}`);
    });
  };
  let res = await go(creds);
  if (res.status === 401) {
    creds = await refreshed(creds);
    res = await go(creds);
  }
  return { creds, res };
}
