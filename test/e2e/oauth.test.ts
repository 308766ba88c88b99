/**
 * OAuth end to end, as third-party clients meet it: the real service on a temp
 * SQLite database, the built admin in headless Chromium (signed in with a
 * passkey from the DevTools virtual authenticator), a real OAuth client
 * library (openid-client) and the MCP SDK's own client.
 *
 * 1. Discovery (RFC 9728 → RFC 8414) → dynamic registration → authorization
 *    code with PKCE, the consent answered in the browser (one scope unticked)
 *    → tools/list over MCP with the access token → refresh → revocation.
 * 2. A signed-out browser goes through the login page and comes back to consent.
 * 3. The device grant with openid-client, approved on the admin's device page.
 * 4. `cms login` / `whoami` / `logout` against the listening server.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as oidc from 'openid-client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/http/server.js';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import { addAuthenticator, CHROMIUM, hasChromium, launchChromium, startSite, watchPage } from '../helpers/browser.js';
import { mcpClient } from '../helpers/mcp.js';
import { ROOT, runTs } from '../helpers/process.js';

// Inside the ignored screenshots folder; Playwright recreates it should the admin test clear it meanwhile.
const SHOTS = resolve(import.meta.dirname, 'screenshots', 'oauth');
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** A native app's loopback redirect listener: records each callback URL it receives. */
async function callbackServer(): Promise<{ server: Server; url: string; next(): Promise<URL> }> {
  const waiting: Array<(u: URL) => void> = [];
  const received: URL[] = [];
  const server = createHttpServer((req, res) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Signed in</title><h1>You can close this window.</h1>');
    if (url.pathname !== '/callback') return; // favicon and the like
    const w = waiting.shift();
    if (w) w(url);
    else received.push(url);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  return {
    server,
    url: `http://127.0.0.1:${port}/callback`,
    next: () => {
      const got = received.shift();
      return got ? Promise.resolve(got) : new Promise((r) => waiting.push(r));
    },
  };
}

if (!hasChromium && process.env.CI) {
  describe('OAuth end to end', () => {
    it('needs Debian chromium at /usr/bin/chromium (.ci/run installs it)', () => {
      throw new Error(`${CHROMIUM} is missing`);
    });
  });
}

describe.skipIf(!hasChromium)('OAuth end to end (openid-client, MCP SDK, Chromium consent, CLI)', () => {
  let server: RunningServer;
  let browser: Browser;
  let origin: string;
  let dataDir: string;
  let callback: Awaited<ReturnType<typeof callbackServer>>;
  let page: Page;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];
  const insecure = { algorithm: 'oauth2' as const, execute: [oidc.allowInsecureRequests] };

  async function shot(name: string): Promise<void> {
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }

  beforeAll(async () => {
    await ensureAdminBuilt();
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    ({ origin, server, dataDir } = await startSite('oauth-e2e'));
    callback = await callbackServer();
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1024, height: 820 }, locale: 'en-GB' });
    contexts.push(context);
    page = await context.newPage();
    watchPage(page, problems);
    await addAuthenticator(page);
    // First start: the Admin sets up the site with a passkey.
    await page.goto(`${origin}/_cms/admin/`);
    await page.waitForURL('**/_cms/admin/setup');
    await page.getByLabel('Site title').fill('Field Notes');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Email').fill('ada@example.test');
    await page.getByLabel('Name (optional)').fill('Ada');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Create passkey and finish' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  }, 180_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await new Promise<void>((r) => (callback?.server ? callback.server.close(() => r()) : r()));
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('discovers, registers, gets consent in the browser and calls MCP tools with the token', async () => {
    // RFC 9728 first, as an MCP client does after a 401: which server issues tokens for the MCP endpoint?
    const unauth = await fetch(`${origin}/_cms/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(unauth.status).toBe(401);
    const resourceMetadataUrl = /resource_metadata="([^"]+)"/.exec(unauth.headers.get('www-authenticate') ?? '')?.[1];
    const prm = (await (await fetch(resourceMetadataUrl!)).json()) as {
      resource: string;
      authorization_servers: string[];
    };
    expect(prm.resource).toBe(`${origin}/_cms/api/mcp`);
    const issuer = new URL(prm.authorization_servers[0]);

    // RFC 8414 discovery + RFC 7591 registration through the client library.
    const config = await oidc.dynamicClientRegistration(
      issuer,
      {
        client_name: 'E2E Writing Agent',
        redirect_uris: [callback.url],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        scope: 'content:read content:write schema:read',
      },
      oidc.None(),
      insecure,
    );
    const meta = config.serverMetadata();
    expect(meta.issuer).toBe(`${origin}/_cms`);
    expect(meta.code_challenge_methods_supported).toEqual(['S256']);

    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: callback.url,
      scope: 'content:read content:write schema:read',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      resource: prm.resource,
    });

    // The signed-in Admin sees the consent page, unticks one scope and approves.
    await page.goto(authUrl.href);
    await page.waitForURL('**/_cms/admin/oauth/consent?request=*');
    await page.getByRole('heading', { level: 1, name: 'Authorize an application' }).waitFor();
    expect(await page.getByTestId('client-name').textContent()).toBe('E2E Writing Agent');
    expect(await page.getByTestId('redirect-host').textContent()).toBe(new URL(callback.url).host);
    const permissions = page.getByRole('group', { name: 'Permissions' });
    expect(await permissions.getByRole('checkbox').count()).toBe(3);
    await shot('01-consent');
    await permissions.getByRole('checkbox', { name: /content:write/ }).uncheck();
    await page.getByRole('button', { name: 'Approve' }).click();
    const returned = await callback.next();
    await page.waitForURL(`${callback.url}?**`);
    expect(returned.searchParams.get('state')).toBe(state);

    const tokens = await oidc.authorizationCodeGrant(config, returned, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.token_type?.toLowerCase()).toBe('bearer');
    expect(tokens.scope).toBe('content:read schema:read');
    expect(tokens.access_token).toMatch(/^cms_oat_/);

    // The MCP SDK client with the OAuth access token.
    const mcp = await mcpClient(origin, tokens.access_token);
    const listed = await mcp.client.listTools();
    const names = listed.tools.map((t) => t.name);
    expect(names).toContain('content_list');
    expect(names).toContain('schema_list_collections');
    const collections = await mcp.call('schema_list_collections', {});
    expect(collections.isError ?? false).toBe(false);
    await mcp.close();

    // Refresh rotates; revocation ends the new pair.
    const renewed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(renewed.refresh_token).not.toBe(tokens.refresh_token);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // The reuse revoked the family, renewed tokens included.
    const me = await fetch(`${origin}/_cms/api/auth/me`, {
      headers: { authorization: `Bearer ${renewed.access_token}` },
    });
    expect(me.status).toBe(401);
  }, 120_000);

  it('sends a signed-out visitor through the login page and back to the consent page', async () => {
    const config = await oidc.dynamicClientRegistration(
      new URL(`${origin}/_cms`),
      { client_name: 'Second Agent', redirect_uris: [callback.url], token_endpoint_auth_method: 'none' },
      oidc.None(),
      insecure,
    );
    const verifier = oidc.randomPKCECodeVerifier();
    const authUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: callback.url,
      scope: 'content:read',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    // Sign out first.
    await page.goto(`${origin}/_cms/admin/`);
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/_cms/admin/login');

    await page.goto(authUrl.href);
    await page.waitForURL(/\/_cms\/admin\/login\?next=/);
    await shot('02-login-first');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL('**/_cms/admin/oauth/consent?request=*');
    expect(await page.getByTestId('client-name').textContent()).toBe('Second Agent');
    await page.getByRole('button', { name: 'Deny' }).click();
    const denied = await callback.next();
    // Let the browser finish landing on the callback before the next test navigates the same page.
    await page.waitForURL(`${callback.url}?**`);
    expect(denied.searchParams.get('error')).toBe('access_denied');
    await expect(
      oidc.authorizationCodeGrant(config, denied, { pkceCodeVerifier: verifier, expectedState: oidc.skipStateCheck }),
    ).rejects.toMatchObject({ error: 'access_denied' });
  }, 120_000);

  it('runs the device grant with openid-client, approved on the device page', async () => {
    const config = await oidc.dynamicClientRegistration(
      new URL(`${origin}/_cms`),
      { client_name: 'E2E Device', grant_types: [DEVICE_GRANT, 'refresh_token'], token_endpoint_auth_method: 'none' },
      oidc.None(),
      insecure,
    );
    const device = await oidc.initiateDeviceAuthorization(config, { scope: 'content:read schema:write' });
    expect(device.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    await page.goto(device.verification_uri_complete!);
    await page.getByRole('heading', { level: 1, name: 'Connect a device' }).waitFor();
    expect(await page.getByTestId('user-code').textContent()).toBe(device.user_code);
    expect(await page.getByTestId('client-name').textContent()).toBe('E2E Device');
    await shot('03-device');
    const polling = oidc.pollDeviceAuthorizationGrant(config, device);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText('is connected').waitFor();
    await shot('04-device-approved');
    const tokens = await polling;
    expect(tokens.scope).toBe('content:read schema:write');
    const mcp = await mcpClient(origin, tokens.access_token);
    expect((await mcp.client.listTools()).tools.length).toBeGreaterThan(0);
    await mcp.close();

    // The account page lists the connection; disconnecting ends its tokens.
    await page.goto(`${origin}/_cms/admin/account`);
    const connections = page.getByRole('list', { name: 'Connected applications' });
    const row = connections.getByRole('listitem').filter({ hasText: 'E2E Device' });
    await row.waitFor();
    await shot('05-connections');
    await row.getByRole('button', { name: 'Disconnect' }).click();
    await row.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText('Disconnected “E2E Device”').waitFor();
    const me = await fetch(`${origin}/_cms/api/auth/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.status).toBe(401);
  }, 120_000);

  it('signs the command line in with cms login, then whoami and logout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-e2e-cli-'));
    const env = { CMS_CREDENTIALS_FILE: join(dir, 'credentials.json') };
    try {
      const child = spawn(
        resolve(ROOT, 'node_modules/.bin/tsx'),
        [resolve(ROOT, 'src/cli/index.ts'), 'login', '--url', origin],
        {
          cwd: ROOT,
          env: { ...process.env, ...env },
        },
      );
      let stderr = '';
      const code = await new Promise<string>((done, fail) => {
        child.stderr.on('data', (d) => {
          stderr += d;
          const m = /enter the code ([A-Z]{4}-[A-Z]{4})/.exec(stderr);
          if (m) done(m[1]);
        });
        child.on('close', () => fail(new Error(stderr)));
      });
      const exit = new Promise<number | null>((r) => child.on('close', r));
      // The person types the code on the device page.
      await page.goto(`${origin}/_cms/admin/oauth/device`);
      await page.getByLabel('Code').fill(code.toLowerCase().replace('-', ''));
      await shot('06-device-enter-code');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('is connected').waitFor();
      expect(await exit, stderr).toBe(0);
      expect(stderr).toContain(`Signed in to ${origin} as Ada <ada@example.test> (admin)`);

      const who = await runTs('src/cli/index.ts', ['whoami'], env);
      expect(who.stdout).toBe(`Ada <ada@example.test> (admin) on ${origin}\n`);
      const out = await runTs('src/cli/index.ts', ['logout'], env);
      expect(out.code, out.stderr).toBe(0);
      expect(existsSync(env.CMS_CREDENTIALS_FILE)).toBe(false);
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
