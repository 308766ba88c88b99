import { hostname } from 'node:os';
import type { Command } from 'commander';
import { type CliContext, examples } from '../context.js';
import { credentialsPath, deleteCredentials, readCredentials, writeCredentials } from '../credentials.js';
import { CliError, UsageError } from '../errors.js';
import {
  type DeviceStart,
  discover,
  OAuthReply,
  pollDevice,
  registerCli,
  revokeToken,
  siteUrl,
  startDevice,
  type TokenSet,
} from '../oauth-client.js';
import { credentialsFrom, remoteFetch, staticToken, storedSignIn, type TokenSource } from '../remote.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface MeData {
  user: { id: string; email: string; name: string | null; role: number; roleName: string };
  site: { title: string } | null;
}

/** `cms login`, `cms logout`, `cms whoami`: sign the command line in to a running site with the device grant. */
export function loginCommands(program: Command, ctx: CliContext): void {
  const err = (line: string) => ctx.io.stderr.write(`${line}\n`);
  const file = () => credentialsPath(ctx.io.env as NodeJS.ProcessEnv);

  examples(
    program
      .command('login')
      .description('Sign in to a running site (OAuth device grant, needs --url); later commands use it with --remote')
      .option(
        '--scope <scopes>',
        'space-separated scopes to ask for (default: every scope; your role limits the grant)',
      )
      .action(async (opts: { scope?: string }, cmd: Command) => {
        const url = ctx.globals(cmd).url ?? ctx.io.env.CMS_URL;
        if (!url) throw new UsageError("cms login needs the site's address: cms login --url https://cms.example.com");
        const site = siteUrl(url);
        const meta = await discover(site);
        const previous = readCredentials(file());
        // Keep the client registered at this site before; register one otherwise.
        const clientId =
          previous?.url === site ? previous.clientId : await registerCli(meta, `CMS command line on ${hostname()}`);
        const scope = opts.scope ?? meta.scopes_supported.join(' ');
        const device = await startDevice(meta, clientId, scope).catch(explain);
        err(`To sign in, open ${device.verification_uri_complete ?? device.verification_uri}`);
        err(`or open ${device.verification_uri} and enter the code ${device.user_code}`);
        err('Waiting for approval…');
        const tokens = await waitForApproval(site, clientId, device);
        writeCredentials(credentialsFrom({ url: site, clientId }, tokens), file());
        const who = await me(storedSignIn(file()));
        err(`Signed in to ${site} as ${describe(who)}; scopes: ${tokens.scope}`);
        err(`Credentials saved in ${file()}`);
      }),
    [
      'cms login --url https://cms.example.com',
      'cms login --url https://cms.example.com --scope "content:read content:write"',
    ],
  );

  examples(
    program
      .command('logout')
      .description('Revoke the stored sign-in and delete the credentials')
      .action(async () => {
        const creds = readCredentials(file());
        if (!creds) {
          err('Not signed in.');
          return;
        }
        try {
          await revokeToken(creds.url, creds.clientId, creds.refreshToken);
        } catch (e) {
          err(
            `Warning: could not revoke the tokens at ${creds.url} (${(e as Error).message}); deleting them here anyway`,
          );
        }
        deleteCredentials(file());
        err(`Signed out of ${creds.url}`);
      }),
    ['cms logout'],
  );

  examples(
    program
      .command('whoami')
      .description('Show who you are on a site: the stored sign-in, or --url with --token')
      .option('--json', 'print the user as JSON')
      .action(async (opts: { json?: boolean }, cmd: Command) => {
        const g = ctx.globals(cmd);
        const url = g.url ?? ctx.io.env.CMS_URL;
        const token = g.token ?? ctx.io.env.CMS_TOKEN;
        const source = url && token ? staticToken(siteUrl(url), token) : storedSignIn(file());
        const who = await me(source);
        if (opts.json) ctx.io.stdout.write(`${JSON.stringify({ url: source.url, ...who.user })}\n`);
        else ctx.io.stdout.write(`${describe(who)} on ${source.url}\n`);
      }),
    ['cms whoami', 'cms --url https://cms.example.com --token "$TOKEN" whoami --json'],
  );
}

function describe(who: MeData): string {
  const name = who.user.name ? `${who.user.name} <${who.user.email}>` : who.user.email;
  return `${name} (${who.user.roleName})`;
}

async function me(source: TokenSource): Promise<MeData> {
  const res = await remoteFetch(source, '/auth/me');
  const body = (await res.json().catch(() => null)) as { data?: MeData; error?: { message?: string } } | null;
  if (!res.ok || !body?.data) {
    throw new CliError(
      `The site refused the stored sign-in (HTTP ${res.status}${body?.error?.message ? `: ${body.error.message}` : ''}); run cms login again`,
    );
  }
  return body.data;
}

function explain(e: unknown): never {
  if (e instanceof OAuthReply)
    throw new CliError(`Sign-in refused: ${e.error}${e.message !== e.error ? ` (${e.message})` : ''}`);
  throw e;
}

/** Poll at the server's pace (RFC 8628 §3.5) until tokens, a denial or expiry. */
async function waitForApproval(site: string, clientId: string, device: DeviceStart): Promise<TokenSet> {
  let interval = (device.interval ?? 5) * 1000;
  const deadline = Date.now() + device.expires_in * 1000;
  while (Date.now() < deadline) {
    await sleep(interval);
    try {
      return await pollDevice(site, clientId, device.device_code);
    } catch (e) {
      if (!(e instanceof OAuthReply)) throw e;
      if (e.error === 'authorization_pending') continue;
      if (e.error === 'slow_down') {
        interval += 5000;
        continue;
      }
      if (e.status === 429) {
        interval = Math.max(interval, (e.retryAfter ?? 60) * 1000);
        continue;
      }
      if (e.error === 'access_denied') throw new CliError('The sign-in was denied');
      if (e.error === 'expired_token')
        throw new CliError('The code expired before it was approved; run cms login again');
      explain(e);
    }
  }
  throw new CliError('The code expired before it was approved; run cms login again');
}
