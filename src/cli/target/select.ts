import { credentialsPath, readCredentials } from '../credentials.js';
import { CliError, UsageError } from '../errors.js';
import type { Io } from '../io.js';
import { siteUrl } from '../oauth-client.js';
import { staticToken, storedSignIn } from '../remote.js';
import type { Target } from './types.js';

/** The options every command shares (declared on the program, usable before or after the command). */
export interface GlobalOptions {
  url?: string;
  token?: string;
  remote?: boolean;
  as?: string;
  quiet?: boolean;
}

/**
 * Who a command acts as on the local database: `user` commands need `--as`
 * (content and tokens belong to someone); `system` commands (schema, seed,
 * users: bootstrap and recovery) act as the system unless `--as` is given.
 */
export type LocalActor = 'user' | 'system';

/** http:// to anything but this machine exposes the bearer token on the network. */
function plainHttpElsewhere(site: string): boolean {
  const { protocol, hostname } = new URL(site);
  return (
    protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(hostname) && !hostname.startsWith('127.')
  );
}

export function wantsRemote(io: Io, g: GlobalOptions): boolean {
  return Boolean(g.url ?? io.env.CMS_URL) || Boolean(g.remote);
}

/**
 * Pick the target: a site (`--url`/`CMS_URL` with `--token`/`CMS_TOKEN`, or
 * the stored `cms login`; `--remote` for the stored site) or, by default,
 * the local database of the server's configuration.
 */
export async function openTarget(io: Io, g: GlobalOptions, local: LocalActor): Promise<Target> {
  const url = g.url ?? io.env.CMS_URL;
  if (url && plainHttpElsewhere(siteUrl(url))) {
    io.stderr.write(`Warning: ${siteUrl(url)} is plain http: the token travels unencrypted\n`);
  }
  if (url || g.remote) {
    if (g.as) throw new UsageError("--as picks a user of the local database; on a site you act as the token's user");
    const token = g.token ?? io.env.CMS_TOKEN;
    if (token) {
      if (!url) throw new UsageError('--token needs --url (or CMS_URL): which site is it for?');
      const { openRemoteTarget } = await import('./remote.js');
      return openRemoteTarget(staticToken(siteUrl(url), token));
    }
    const path = credentialsPath(io.env as NodeJS.ProcessEnv);
    const creds = readCredentials(path);
    if (!creds) {
      throw new CliError(
        `Not signed in${url ? ` to ${siteUrl(url)}` : ''}: run cms login --url <site URL>, or pass --token`,
      );
    }
    if (url && siteUrl(url) !== creds.url) {
      throw new CliError(
        `The stored sign-in is for ${creds.url}; pass --token for ${siteUrl(url)}, or run: cms login --url ${siteUrl(url)}`,
      );
    }
    const { openRemoteTarget } = await import('./remote.js');
    return openRemoteTarget(storedSignIn(path));
  }
  if (g.token) throw new UsageError('--token needs --url (or CMS_URL): which site is it for?');
  const as = g.as ?? io.env.CMS_AS;
  if (local === 'user' && !as) {
    throw new UsageError(
      'On the local database this command acts as a user: pass --as EMAIL (or set CMS_AS), or use --url for a site',
    );
  }
  const { openLocalTarget } = await import('./local.js');
  return openLocalTarget({ io, as });
}
