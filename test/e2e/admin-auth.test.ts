/**
 * End to end in headless Chromium: the real service on a temp SQLite database,
 * the built admin app, passkeys from the DevTools virtual authenticator.
 * Walks setup wizard → dashboard → sign out → passkey sign-in → invite →
 * second person accepts in another browser, and saves screenshots of each
 * step in test/e2e/screenshots/.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/http/server.js';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import {
  type Authenticator,
  addAuthenticator,
  CHROMIUM,
  hasChromium,
  launchChromium,
  startSite,
  watchPage,
} from '../helpers/browser.js';

const SHOTS = resolve(import.meta.dirname, 'screenshots');

if (!hasChromium && !process.env.CI) {
  console.warn(
    `\n⚠  Skipping the admin end-to-end test: ${CHROMIUM} is missing.` +
      '\n   Install it with: apt-get install -y --no-install-recommends chromium\n',
  );
}

async function credentials(auth: Authenticator) {
  const { credentials } = await auth.cdp.send('WebAuthn.getCredentials', { authenticatorId: auth.authenticatorId });
  return credentials;
}

async function shot(page: Page, name: string): Promise<void> {
  // From the top, so the sticky top bar sits where a person sees it.
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

if (!hasChromium && process.env.CI) {
  describe('admin app end to end', () => {
    it('needs Debian chromium at /usr/bin/chromium (.ci/run installs it)', () => {
      throw new Error(`${CHROMIUM} is missing: install it with apt-get install -y --no-install-recommends chromium`);
    });
  });
}

describe.skipIf(!hasChromium)('admin app end to end (Chromium, passkeys)', () => {
  let server: RunningServer;
  let browser: Browser;
  let origin: string;
  let dataDir: string;
  const contexts: BrowserContext[] = [];
  /** Script errors, CSP violations and React warnings from every page (failed HTTP statuses are expected). */
  const problems: string[] = [];

  async function newPage(viewport = { width: 1280, height: 860 }): Promise<Page> {
    const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'UTC' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    contexts.push(context);
    const page = await context.newPage();
    watchPage(page, problems);
    return page;
  }

  beforeAll(async () => {
    await ensureAdminBuilt();
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    ({ origin, server, dataDir } = await startSite('e2e'));
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('sets up the site, signs out and in with a passkey, and onboards an invited editor', async () => {
    // ---- First start: the admin opens the setup wizard. ----
    const admin = await newPage();
    const adminKey = await addAuthenticator(admin);
    await admin.goto(`${origin}/_cms/admin/`);
    await admin.waitForURL('**/_cms/admin/setup');
    await expect.poll(() => admin.getByRole('heading', { level: 1 }).textContent()).toBe('Set up your site');
    await shot(admin, '01-setup-site');

    // Required field: an empty title is refused next to its input.
    await admin.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => admin.getByText('Enter a title for your site.').isVisible()).toBe(true);
    expect(await admin.getByLabel('Site title').getAttribute('aria-invalid')).toBe('true');
    await shot(admin, '02-setup-site-error');

    await admin.getByLabel('Site title').fill('Field Notes');
    await admin.getByLabel('Tagline (optional)').fill('Stories from the garden');
    await admin.getByRole('button', { name: 'Continue' }).click();
    await admin.getByLabel('Email').fill('ada@example.test');
    await admin.getByLabel('Name (optional)').fill('Ada Lovelace');
    await shot(admin, '03-setup-account');
    await admin.getByRole('button', { name: 'Continue' }).click();
    await admin.getByRole('heading', { name: 'Step 3 of 3: create a passkey' }).waitFor();
    await shot(admin, '04-setup-passkey');
    await admin.getByRole('button', { name: 'Create passkey and finish' }).click();

    await admin.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(new URL(admin.url()).pathname).toBe('/_cms/admin/');
    expect(await admin.locator('.topbar__title').textContent()).toBe('Field Notes');
    const created = await credentials(adminKey);
    expect(created).toHaveLength(1);
    expect(created[0].isResidentCredential).toBe(true);
    expect(created[0].rpId).toBe('localhost');
    await shot(admin, '05-dashboard');

    // The setup wizard is closed for good once a user exists.
    const status = await admin.evaluate(
      "fetch('/_cms/api/setup/status').then((r) => r.json()).then((b) => b.data.needsSetup)",
    );
    expect(status).toBe(false);

    // ---- Sign out, then back in with the discoverable passkey. ----
    await admin.getByRole('button', { name: /^Account menu/ }).click();
    await shot(admin, '06-user-menu');
    await admin.getByRole('button', { name: 'Sign out' }).click();
    await admin.waitForURL('**/_cms/admin/login');
    await admin.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    const me = await admin.evaluate("fetch('/_cms/api/auth/me').then((r) => r.status)");
    expect(me).toBe(401);
    await shot(admin, '07-login');

    // A deep link while signed out goes to login and comes back after sign-in.
    await admin.goto(`${origin}/_cms/admin/account`);
    await admin.waitForURL(/\/_cms\/admin\/login\?next=/);
    await admin.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
    expect(new URL(admin.url()).pathname).toBe('/_cms/admin/account');
    await admin.getByText('Device-bound passkey').or(admin.getByText('Synced passkey')).first().waitFor();
    await shot(admin, '08-account');

    // ---- Invite a second person; email is not configured, so the link is shown to copy. ----
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await admin.getByRole('cell', { name: /ada@example\.test/ }).waitFor();
    await shot(admin, '09-users');
    const inviteForm = admin.locator('#invite');
    await inviteForm.getByLabel('Email').fill('bea@example.test');
    await inviteForm.getByLabel('Role').selectOption('40');
    await inviteForm.getByRole('button', { name: 'Send invitation' }).click();
    const result = admin.getByTestId('invite-result');
    await result.waitFor();
    const link = await result.getByTestId('copy-value').inputValue();
    expect(link).toMatch(new RegExp(`^${origin}/_cms/admin/invite\\?token=`));
    await result.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => admin.evaluate('navigator.clipboard.readText()')).toBe(link);
    await shot(admin, '10-invite-link');

    // ---- The invitee opens the link in another browser with its own authenticator. ----
    const bea = await newPage();
    const beaKey = await addAuthenticator(bea);
    await bea.goto(link);
    await bea.getByRole('heading', { level: 1, name: 'Join Field Notes' }).waitFor();
    expect(await bea.getByTestId('join-email').textContent()).toBe('bea@example.test');
    await expect.poll(() => bea.getByText('Editor', { exact: true }).isVisible()).toBe(true);
    await bea.getByLabel('Your name (optional)').fill('Bea Editor');
    await shot(bea, '11-invite-accept');
    await bea.getByRole('button', { name: 'Create passkey and join' }).click();
    await bea.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(await bea.locator('.usermenu__name').textContent()).toBe('Bea Editor');
    expect(await credentials(beaKey)).toHaveLength(1);
    // An Editor sees no admin-only navigation.
    const nav = bea.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Users' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Dashboard' }).count()).toBe(1);
    await shot(bea, '12-invitee-dashboard');

    // The invitation is spent.
    const again = await newPage();
    await again.goto(link);
    await again.getByRole('heading', { level: 1, name: 'This link no longer works' }).waitFor();
    await shot(again, '13-invite-used');

    // The admin now lists the new editor.
    await admin.reload();
    await admin.getByRole('cell', { name: /bea@example\.test/ }).waitFor();
    await shot(admin, '14-users-after-invite');

    // ---- Small screens (360 px): the invitee's dashboard and its menu. ----
    await bea.setViewportSize({ width: 360, height: 740 });
    await shot(bea, '15-mobile-dashboard');
    await bea.getByRole('button', { name: 'Menu', exact: true }).click();
    await nav.getByRole('link', { name: 'Account' }).waitFor();
    await shot(bea, '16-mobile-menu');

    // ---- A magic-link page does nothing until Continue; a bad token shows the server's message. ----
    const visitor = await newPage({ width: 360, height: 740 });
    await visitor.goto(`${origin}/_cms/admin/magic-link?token=not-a-real-token`);
    await visitor.getByRole('button', { name: 'Continue' }).waitFor();
    await shot(visitor, '17-magic-link');
    await visitor.getByRole('button', { name: 'Continue' }).click();
    await visitor.getByRole('alert').filter({ hasText: /./ }).first().waitFor();
    await shot(visitor, '18-magic-link-error');

    expect(problems).toEqual([]);
  }, 180_000);
});
