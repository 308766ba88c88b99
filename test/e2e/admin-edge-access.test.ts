/**
 * The admin behind an edge access gateway, in Chromium: the real service on a temporary SQLite
 * database, a stand-in gateway on loopback publishing its keys, and browser contexts that send
 * the gateway's header on every request (as the gateway adds it). With the header the admin
 * opens signed in (the first person an Admin); without it, or with another application's token,
 * the login page says why instead of offering a passkey form.
 * Screenshots land in test/e2e/screenshots/edge-access/.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import { describeWithChromium, launchChromium, type Site, startSite, stopSite, watchPage } from '../helpers/browser.js';
import { type StandInGateway, startGateway } from '../helpers/edge-access.js';

const SHOTS = resolve(import.meta.dirname, 'screenshots', 'edge-access');

describeWithChromium('admin behind an edge access gateway', () => {
  let gateway: StandInGateway;
  let site: Site;
  let browser: Browser;
  const problems: string[] = [];

  async function pageWith(headers: Record<string, string>): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 860 },
      locale: 'en-GB',
      timezoneId: 'UTC',
      extraHTTPHeaders: headers,
    });
    const page = await context.newPage();
    watchPage(page, problems);
    return page;
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    await ensureAdminBuilt();
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    gateway = await startGateway();
    site = await startSite('edge-access', {
      auth: gateway.auth({ roleMapping: { 'cms-editors': ROLES.EDITOR } }),
    });
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stopSite(site);
  });

  it('opens the admin signed in when the gateway header is present; the first person is an Admin', async () => {
    const token = await gateway.sign({ email: 'grace@example.test', name: 'Grace Hopper', groups: ['cms-editors'] });
    const page = await pageWith({ 'Edge-Access-Jwt-Assertion': token });
    await page.goto(`${site.origin}/_cms/admin/`);
    const menu = page.getByRole('button', { name: 'Account menu (Grace Hopper)' });
    await expect.poll(() => menu.isVisible()).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/_cms/admin/');
    // An Admin sees the administration screens: the users page lists the provisioned account.
    await page.goto(`${site.origin}/_cms/admin/users`);
    const row = page.getByRole('row').filter({ hasText: 'grace@example.test' });
    await expect.poll(() => row.isVisible()).toBe(true);
    expect(await row.getByRole('combobox').inputValue()).toBe(String(ROLES.ADMIN));
    // Nobody is invited or sent a sign-in link behind the gateway: those controls are not offered.
    expect(await page.getByRole('heading', { name: 'Invite someone' }).count()).toBe(0);
    expect(await row.getByRole('button', { name: /Recovery link/ }).count()).toBe(0);
    await shot(page, 'signed-in-users');

    await menu.click();
    await expect
      .poll(() => page.getByText("Signed in through your organisation's access gateway").isVisible())
      .toBe(true);
    await shot(page, 'user-menu');

    // The account page keeps tokens but offers no passkeys.
    await page.getByRole('link', { name: 'Your account' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Account' }).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Passkeys' }).count()).toBe(0);
    await shot(page, 'account');

    // The login page has nothing to offer a signed-in person: it goes on to the dashboard.
    await page.goto(`${site.origin}/_cms/admin/login`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/_cms/admin/');
    await page.context().close();
  });

  it('explains a missing or refused gateway token on the login page, without a passkey form', async () => {
    const bare = await pageWith({});
    await bare.goto(`${site.origin}/_cms/admin/`);
    await expect.poll(() => new URL(bare.url()).pathname).toBe('/_cms/admin/login');
    await expect.poll(() => bare.getByText(/carries no gateway token/).isVisible()).toBe(true);
    await expect
      .poll(() =>
        bare
          .getByText("This site signs you in through your organisation's access gateway", { exact: false })
          .isVisible(),
      )
      .toBe(true);
    expect(await bare.getByRole('button', { name: 'Sign in with a passkey' }).count()).toBe(0);
    await shot(bare, 'login-no-token');
    await bare.context().close();

    const other = await pageWith({ 'Edge-Access-Jwt-Assertion': await gateway.sign({ audience: 'another-app' }) });
    await other.goto(`${site.origin}/_cms/admin/`);
    await expect.poll(() => other.getByText(/issued for another application/).isVisible()).toBe(true);
    await shot(other, 'login-other-audience');
    await other.context().close();

    expect(problems).toEqual([]);
  });
});
