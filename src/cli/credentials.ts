import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError } from './errors.js';

/**
 * What `cms login` keeps for later commands: the site, the OAuth client the
 * CLI registered there, and the current token pair. One file, readable only
 * by its owner (0600), in the user's configuration folder:
 * `$CMS_CREDENTIALS_FILE`, else `$XDG_CONFIG_HOME/cms/credentials.json`,
 * else `~/.config/cms/credentials.json`.
 */
export interface Credentials {
  version: 1;
  /** The site's public URL, e.g. https://cms.example.com. */
  url: string;
  clientId: string;
  accessToken: string;
  refreshToken: string;
  /** When the access token expires (ISO 8601). */
  expiresAt: string;
  scope: string;
}

export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CMS_CREDENTIALS_FILE) return env.CMS_CREDENTIALS_FILE;
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'cms', 'credentials.json');
}

export function readCredentials(path = credentialsPath()): Credentials | null {
  if (!existsSync(path)) return null;
  let parsed: Partial<Credentials>;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Credentials>;
  } catch {
    throw new CliError(`${path} is not valid JSON; delete it and run "cms login" again`);
  }
  if (parsed.version !== 1 || !parsed.url || !parsed.clientId || !parsed.accessToken || !parsed.refreshToken) {
    throw new CliError(`${path} is not a credentials file of this version; run "cms login" again`);
  }
  return parsed as Credentials;
}

/** Write atomically (temp file + rename), owner-only. */
export function writeCredentials(creds: Credentials, path = credentialsPath()): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
}

export function deleteCredentials(path = credentialsPath()): void {
  rmSync(path, { force: true });
}

const LOCK_WAIT_MS = 15_000;
const STALE_LOCK_MS = 30_000;

/**
 * Run `fn` while holding `<file>.lock`, so two `cms` commands never refresh
 * at once: a refresh token works once, and the second use would revoke the
 * whole sign-in.
 */
export async function withCredentialsLock<T>(fn: () => Promise<T>, path = credentialsPath()): Promise<T> {
  const lock = `${path}.lock`;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const started = Date.now();
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { force: true });
      } catch {
        // Removed by its holder meanwhile.
      }
      if (Date.now() - started > LOCK_WAIT_MS) throw new CliError(`Another cms command holds ${lock}; try again`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}
