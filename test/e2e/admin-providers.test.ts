/**
 * The admin's login provider screens in Chromium: the real service on a temporary SQLite database
 * with three providers listed — GitHub (the local stand-in), the AT Protocol provider (a form: it
 * asks for a handle; the loopback stand-in network) and Google (a real OpenID Connect provider,
 * oidc-provider, on loopback) — in the order github, atproto, google, so the pages must show the
 * two buttons first and the handle form after them.
 *
 * Walks: the setup wizard refused by Google (an unverified address) and then making the first Admin
 * through it; the Admin's view of the providers (callback URLs); the account page refusing to unlink
 * the last way in, then linking (GitHub, an AT Protocol handle) and unlinking with a passkey present
 * (DevTools virtual authenticator); the login page's order; a Google sign-in; a refused one with its
 * message; the handle form (an unknown handle at its field, then a sign-in); an invitation accepted
 * through Google. Screenshots land in test/e2e/screenshots/providers/.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/core/log.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { type Cms, createCms, resolveConfig } from '../../src/index.js';
import '../../src/providers-atproto.js';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import { type AtprotoStandin, startAtprotoStandin } from '../helpers/atproto-standin.js';
import { addAuthenticator, describeWithChromium, launchChromium, watchPage } from '../helpers/browser.js';
import { type GithubStandin, startGithubStandin } from '../helpers/github-standin.js';
import { type OidcStandin, startOidcStandin } from '../helpers/oidc-standin.js';

const SHOTS = resolve(import.meta.dirname, 'screenshots', 'providers');
const DESKTOP = { width: 1280, height: 860 };
const MOBILE = { width: 390, height: 844 };

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

describeWithChromium('admin login provider screens', () => {
  let browser: Browser;
  let server: RunningServer | undefined;
  let cms: Cms | undefined;
  let dataDir: string | undefined;
  let origin: string;
  let google: OidcStandin;
  let github: GithubStandin;
  let atproto: AtprotoStandin;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  async function newPage(viewport = DESKTOP): Promise<Page> {
    const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'UTC' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    contexts.push(context);
    const page = await context.newPage();
    watchPage(page, problems);
    // The stand-in's interaction page (oidc-provider's own) asks for a web font: the network is closed here.
    await page.route('https://fonts.googleapis.com/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/css', body: '' }),
    );
    // The GitHub stand-in signs in the user its authorization URL names (as_user): the person "chooses" 101.
    await page.route(`${github.url}/login/oauth/authorize?**`, (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('as_user', '101');
      return route.continue({ url: url.toString() });
    });
    return page;
  }

  const shot = async (page: Page, name: string) => {
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };

  /**
   * Choose a Google button on `page`: the browser goes to the stand-in, whose interaction page
   * shows; the person signs in there as `sub` (its login step; consent comes with it).
   */
  async function viaGoogle(page: Page, button: string, sub: string): Promise<void> {
    await page.getByRole('button', { name: button }).click();
    await page.waitForURL((u) => u.origin === google.origin && /^\/google\/interaction\/[^/]+$/.test(u.pathname));
    const here = new URL(page.url());
    await page.goto(`${here.origin}${here.pathname}/login?sub=${encodeURIComponent(sub)}`);
  }

  async function signOut(page: Page): Promise<void> {
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  }

  /** The providers of a page in the order they are shown (buttons and forms carry their id). */
  const shownOrder = (page: Page) =>
    page.locator('.providers [data-provider]').evaluateAll((els) => els.map((e) => e.getAttribute('data-provider')));

  beforeAll(async () => {
    await ensureAdminBuilt();
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    const port = await freePort();
    origin = `http://localhost:${port}`;
    const callback = (id: string) => `${origin}/_cms/api/auth/oauth/${id}/callback`;
    google = await startOidcStandin({
      path: '/google',
      redirectUri: callback('google'),
      accounts: [
        { sub: 'g-ada', email: 'ada@example.test', email_verified: true, name: 'Ada Lovelace' },
        { sub: 'g-eve', email: 'eve@example.test', email_verified: false, name: 'Eve' },
        { sub: 'g-bea', email: 'bea@example.test', email_verified: true, name: 'Bea Editor' },
      ],
    });
    github = await startGithubStandin({
      redirectUri: callback('github'),
      users: [{ id: 101, login: 'ada-gh', emails: [{ email: 'ada@example.test', primary: true, verified: true }] }],
    });
    atproto = await startAtprotoStandin();
    atproto.account('alice.test');
    dataDir = mkdtempSync(join(tmpdir(), 'cms-e2e-providers-'));
    // Credentials come from the environment, as an operator sets them.
    const env = {
      ...process.env,
      CMS_OAUTH_GOOGLE_CLIENT_ID: google.clientId,
      CMS_OAUTH_GOOGLE_CLIENT_SECRET: google.clientSecret,
      CMS_OAUTH_GOOGLE_ISSUER: google.issuer,
      CMS_OAUTH_GITHUB_CLIENT_ID: github.clientId,
      CMS_OAUTH_GITHUB_CLIENT_SECRET: github.clientSecret,
      CMS_OAUTH_GITHUB_URL: github.url,
      CMS_OAUTH_GITHUB_API_URL: github.apiUrl,
      CMS_OAUTH_ATPROTO_PLC_URL: atproto.plcUrl,
      CMS_OAUTH_ATPROTO_HANDLE_RESOLVER: atproto.handleResolverUrl,
    };
    const config = resolveConfig(
      {
        dataDir,
        databaseUrl: `sqlite:${join(dataDir, 'cms.db')}`,
        publicUrl: origin,
        logLevel: 'silent',
        providers: [{ id: 'github' }, { id: 'atproto' }, { id: 'google' }],
      },
      undefined,
      env,
    );
    cms = await createCms({ config, logger: createLogger('silent') });
    server = await listen(cms, port, '127.0.0.1');
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('sets up, signs in, refuses, links and unlinks, and accepts an invitation through providers', async () => {
    const page = await newPage();
    const key = await addAuthenticator(page);

    // ---- Setup: after the site and account steps, a passkey or each provider (buttons, then the form). ----
    await page.goto(`${origin}/_cms/admin/`);
    await page.waitForURL('**/_cms/admin/setup');
    await page.getByLabel('Site title').fill('Field Notes');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Email').fill('ada@example.test');
    await page.getByLabel('Name (optional)').fill('Ada');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Step 3 of 3: choose how you sign in' }).waitFor();
    expect(await shownOrder(page)).toEqual(['github', 'google', 'atproto']);
    expect(await page.getByRole('button', { name: 'Create passkey and finish' }).isVisible()).toBe(true);
    await shot(page, '01-setup-choice');
    // Eve's address is not verified by Google: refused, and the wizard comes back as it was left, saying why.
    await viaGoogle(page, 'Continue with Google', 'g-eve');
    await page.waitForURL('**/_cms/admin/setup?error=PROVIDER_EMAIL_UNVERIFIED');
    const setupRefusal = page.getByRole('alert').filter({ hasText: 'did not confirm an email address' });
    await setupRefusal.waitFor();
    expect(await setupRefusal.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    await page.getByRole('heading', { name: 'Step 3 of 3: choose how you sign in' }).waitFor();
    expect(await page.locator('.summary').textContent()).toBe('SiteField NotesAdministratorAda · ada@example.test');
    await shot(page, '01b-setup-refused');
    // Signed out at the stand-in, so the next choice shows its page again.
    await page.context().clearCookies({ domain: '127.0.0.1' });
    await viaGoogle(page, 'Continue with Google', 'g-ada');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/_cms/admin/');
    expect(await page.locator('.topbar__title').textContent()).toBe('Field Notes');
    // The first account is an Admin with the wizard's name and Google's verified address; no passkey was made.
    const me = await page.evaluate("fetch('/_cms/api/auth/me').then((r) => r.json()).then((b) => b.data.user)");
    expect(me).toMatchObject({ email: 'ada@example.test', name: 'Ada', roleName: 'admin' });
    expect(
      (await key.cdp.send('WebAuthn.getCredentials', { authenticatorId: key.authenticatorId })).credentials,
    ).toEqual([]);

    // ---- The Admin's view: each provider, its callback URL to register, its credentials. ----
    await page.goto(`${origin}/_cms/admin/users`);
    const section = page.locator('#sign-in-providers');
    await section.getByRole('heading', { name: 'Sign-in providers' }).waitFor();
    const rows = section.getByRole('listitem');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.locator('.row__title').allTextContents()).toEqual([
      'GitHub github',
      'Google google',
      'AT Protocol atproto',
    ]);
    expect(await section.getByLabel('Callback URL for Google').inputValue()).toBe(
      `${origin}/_cms/api/auth/oauth/google/callback`,
    );
    expect(await section.getByLabel('Callback URL for GitHub').inputValue()).toBe(
      `${origin}/_cms/api/auth/oauth/github/callback`,
    );
    expect(await section.getByText('Credentials set').count()).toBe(2);
    // The AT Protocol provider is a public client: nothing to register.
    expect(await rows.nth(2).getByText('Nothing to register').count()).toBe(1);
    expect(await rows.nth(2).getByText('No client secret needed').count()).toBe(1);
    expect(await rows.nth(0).getByText('Nothing to register').count()).toBe(0);
    await section.getByRole('button', { name: 'Copy' }).first().click();
    await section.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(`${origin}/_cms/api/auth/oauth/github/callback`);
    await shot(page, '02-users-providers');

    // ---- Account: the Google identity is the only way in, so it cannot be unlinked. ----
    await page.getByRole('button', { name: /^Account menu/ }).click();
    await page.getByRole('link', { name: 'Your account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
    const methods = page.locator('#sign-in-methods');
    const linkedRows = methods.getByRole('list', { name: 'Your linked accounts' }).getByRole('listitem');
    await expect.poll(() => linkedRows.count()).toBe(1);
    expect(await linkedRows.first().textContent()).toMatch(
      /^Google ada@example\.testLinked .+Last used .+Unlink Google$/,
    );
    await methods.getByRole('button', { name: 'Unlink Google' }).click();
    await methods.getByRole('button', { name: 'Unlink', exact: true }).click();
    const refusal = methods.getByRole('alert').filter({ hasText: 'This is your only way to sign in' });
    await refusal.waitFor();
    expect(await linkedRows.count()).toBe(1);
    await shot(page, '03-account-last-way-in');

    // ---- With a passkey, the identity can go; linking GitHub and the handle adds two. ----
    await page.getByRole('button', { name: 'Add passkey' }).click();
    await page.getByText(/^Added “/).waitFor();
    await methods.getByRole('button', { name: 'Unlink Google' }).click();
    await methods.getByRole('button', { name: 'Unlink', exact: true }).click();
    await methods.getByText('Unlinked Google (ada@example.test).').waitFor();
    await expect.poll(() => linkedRows.count()).toBe(0);
    await methods.getByText('No accounts at other services are linked yet.').waitFor();

    await methods.getByRole('button', { name: 'Link GitHub' }).click();
    await page.locator('#sign-in-methods').getByText('Linked your GitHub account.').waitFor();
    await expect.poll(() => linkedRows.count()).toBe(1);
    expect(await linkedRows.first().locator('.row__title').textContent()).toBe('GitHub ada@example.test');
    // Linked again later: the button says so.
    await methods.getByRole('button', { name: 'Link another GitHub account' }).waitFor();

    const handleForm = methods.getByRole('form', { name: 'Link AT Protocol' });
    await handleForm.getByRole('button', { name: 'Continue with AT Protocol' }).click();
    await handleForm.getByText('Enter your handle, such as alice.bsky.social.').waitFor();
    expect(await handleForm.getByLabel('Handle').getAttribute('placeholder')).toBe('alice.bsky.social');
    expect(await page.evaluate('document.activeElement?.name')).toBe('atproto-handle');
    await handleForm.getByLabel('Handle').fill('alice.test');
    await handleForm.getByRole('button', { name: 'Continue with AT Protocol' }).click();
    await page.locator('#sign-in-methods').getByText('Linked your AT Protocol account.').waitFor();
    await expect.poll(() => linkedRows.count()).toBe(2);
    expect(await linkedRows.locator('.row__title').allTextContents()).toEqual([
      'GitHub ada@example.test',
      'AT Protocol @alice.test',
    ]);
    await shot(page, '04-account-linked');
    await page.setViewportSize(MOBILE);
    await shot(page, '05-account-linked-mobile');
    await page.setViewportSize(DESKTOP);

    await methods.getByRole('button', { name: 'Unlink GitHub' }).click();
    await methods.getByRole('button', { name: 'Unlink', exact: true }).click();
    await methods.getByText('Unlinked GitHub (ada@example.test).').waitFor();
    await expect.poll(() => linkedRows.count()).toBe(1);

    // ---- The login page: passkey first, then the buttons in list order, then the form. ----
    await signOut(page);
    await page.locator('.providers [data-provider]').first().waitFor();
    expect(await shownOrder(page)).toEqual(['github', 'google', 'atproto']);
    expect(await page.getByRole('list', { name: 'Sign-in providers' }).getByRole('button').allTextContents()).toEqual([
      'Sign in with GitHub',
      'Sign in with Google',
    ]);
    await shot(page, '06-login');

    // ---- A Google sign-in: the stand-in's page, then back in the admin, signed in (linked again by address). ----
    // Signed out at Google too (its session from the setup would otherwise sign in without a page).
    await page.context().clearCookies({ domain: '127.0.0.1' });
    await viaGoogle(page, 'Sign in with Google', 'g-ada');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByRole('button', { name: 'Account menu (Ada)' }).waitFor();

    // ---- A refusal (another browser; Eve's address is not verified by Google): the login page's own words. ----
    const eve = await newPage();
    await eve.goto(`${origin}/_cms/admin/login`);
    await viaGoogle(eve, 'Sign in with Google', 'g-eve');
    await eve.waitForURL('**/_cms/admin/login?error=PROVIDER_EMAIL_UNVERIFIED');
    const message = eve.getByRole('alert').filter({ hasText: 'did not confirm an email address' });
    await message.waitFor();
    expect(await message.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true);
    expect(await eve.evaluate("fetch('/_cms/api/auth/me').then((r) => r.status)")).toBe(401);
    await shot(eve, '07-login-refused');
    await eve.setViewportSize(MOBILE);
    await shot(eve, '08-login-refused-mobile');
    await eve.setViewportSize(DESKTOP);
    // An address never makes the page say something else: an unknown code gets the general message.
    await eve.goto(`${origin}/_cms/admin/login?error=CALL_THIS_NUMBER`);
    await eve.getByRole('alert').filter({ hasText: 'The sign-in did not complete.' }).waitFor();
    expect(await eve.getByText('CALL_THIS_NUMBER').count()).toBe(0);

    // ---- The handle form: a handle that resolves to nobody is refused at its field; a linked one signs in. ----
    const handle = eve.getByRole('textbox', { name: 'Handle' });
    const signInForm = eve.getByRole('form', { name: 'Sign in with AT Protocol' });
    await handle.fill('nobody.test');
    await signInForm.getByRole('button').click();
    await signInForm.getByText('That handle could not be found.', { exact: false }).waitFor();
    expect(await handle.getAttribute('aria-invalid')).toBe('true');
    expect(await eve.evaluate('document.activeElement?.name')).toBe('atproto-handle');
    await shot(eve, '08b-login-unknown-handle');
    await handle.fill('alice.test');
    await signInForm.getByRole('button').click();
    await eve.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await eve.getByRole('button', { name: 'Account menu (Ada)' }).waitFor();

    // ---- An invitation accepted through Google: the invited role, the provider's verified address. ----
    const invite = (await page.evaluate(
      `fetch('/_cms/api/admin/invites', { method: 'POST', headers: { 'content-type': 'application/json', 'x-cms-request': '1' },
        body: JSON.stringify({ email: 'bea@example.test', role: 40 }) }).then((r) => r.json()).then((b) => b.data)`,
    )) as { link: string | null };
    expect(invite.link).toMatch(/\/_cms\/admin\/invite\?token=/);
    const bea = await newPage(MOBILE);
    await bea.goto(invite.link!);
    await bea.getByRole('heading', { level: 1, name: 'Join Field Notes' }).waitFor();
    expect(await shownOrder(bea)).toEqual(['github', 'google', 'atproto']);
    await shot(bea, '09-invite-mobile');
    await viaGoogle(bea, 'Join with Google', 'g-bea');
    await bea.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const joined = await bea.evaluate("fetch('/_cms/api/auth/me').then((r) => r.json()).then((b) => b.data.user)");
    expect(joined).toMatchObject({ email: 'bea@example.test', roleName: 'editor' });

    expect(problems).toEqual([]);
  }, 240_000);
});
