/**
 * The admin's search page in headless Chromium: search-as-you-type with title
 * suggestions (keyboard), highlighted results and paging, the index panel for
 * Editors, and what a Subscriber sees. Sessions are opened through the
 * service (passkey sign-in has its own end-to-end test). Screenshots land in
 * test/e2e/screenshots/search-*.png.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../../src/auth/actor.js';
import { ROLES } from '../../src/auth/roles.js';
import { createLogger } from '../../src/core/log.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { type Cms, createCms, resolveConfig } from '../../src/index.js';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import { CHROMIUM, hasChromium, launchChromium, watchPage } from '../helpers/browser.js';

const SHOTS = resolve(import.meta.dirname, 'screenshots');

if (!hasChromium && process.env.CI) {
  describe('admin search end to end', () => {
    it('needs Debian chromium at /usr/bin/chromium', () => {
      throw new Error(`${CHROMIUM} is missing: install it with apt-get install -y --no-install-recommends chromium`);
    });
  });
}

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

describe.skipIf(!hasChromium)('admin search end to end (Chromium)', () => {
  let cms: Cms;
  let server: RunningServer;
  let browser: Browser;
  let origin: string;
  let dataDir: string;
  const problems: string[] = [];

  async function pageAs(role: number, viewport = { width: 1280, height: 900 }): Promise<Page> {
    const { user } = await cms.services.users.create(null, { email: `u${role}-${Date.now()}@example.test`, role });
    const session = await cms.services.auth.sessions.create(cms.database.db, user.id, 'passkey');
    const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'UTC' });
    await context.addCookies([
      { name: 'cms_session', value: session.id, url: origin, httpOnly: true, sameSite: 'Lax' },
    ]);
    const page = await context.newPage();
    watchPage(page, problems);
    return page;
  }

  async function shot(page: Page, name: string) {
    // From the top, so the sticky top bar sits where a person sees it.
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(SHOTS, `search-${name}.png`), fullPage: true });
  }

  beforeAll(async () => {
    await ensureAdminBuilt();
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'cms-e2e-search-'));
    const port = await freePort();
    origin = `http://localhost:${port}`;
    const config = resolveConfig({
      dataDir,
      databaseUrl: `sqlite:${join(dataDir, 'cms.db')}`,
      publicUrl: origin,
      logLevel: 'silent',
    });
    cms = await createCms({ config, logger: createLogger('silent'), scheduler: false });
    server = await listen(cms, port, '127.0.0.1');
    await cms.services.users.create(null, { email: 'owner@example.test', name: 'Owner' });
    await cms.services.schema.collections.create(systemActor, {
      slug: 'articles',
      label: 'Articles',
      supports: ['drafts', 'revisions', 'search'],
      fields: [
        { slug: 'title', label: 'Title', type: 'string', searchable: true },
        { slug: 'body', label: 'Body', type: 'text', searchable: true },
      ],
    });
    const add = async (title: string, body: string, live = true) => {
      const { item } = await cms.services.content.create(systemActor, 'articles', { data: { title, body } });
      if (live) await cms.services.content.publish(systemActor, 'articles', item.id);
    };
    await add(
      'Lighthouse keepers of the north',
      'Keepers trimmed the lamp of the lighthouse every night <b>by hand</b>.',
    );
    await add('Lightning safety', 'Stay away from tall trees; a lighthouse is a poor shelter.');
    await add('Secret lighthouse plan', 'Draft notes nobody outside should read.', false);
    for (let i = 0; i < 24; i++) await add(`Harbour log ${i + 1}`, `Ships, tides and a harbour day number ${i + 1}.`);
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('searches as you type, completes titles from the keyboard and marks matches', async () => {
    const page = await pageAs(ROLES.EDITOR);
    await page.goto(`${origin}/_cms/admin/search`);
    await page.getByRole('heading', { name: 'Search', level: 1 }).waitFor();
    const box = page.getByRole('combobox', { name: 'Search' });
    await shot(page, '1-empty');

    await box.pressSequentially('ligh', { delay: 40 });
    const options = page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option');
    await expect.poll(() => options.count()).toBe(3);
    await shot(page, '2-suggestions');
    expect(await options.count()).toBe(3);
    await box.press('ArrowDown');
    await expect.poll(() => box.getAttribute('aria-activedescendant')).toBeTruthy();
    await box.press('Enter');
    await expect.poll(() => box.inputValue()).toBe('Lightning safety');
    await expect.poll(() => page.locator('.result').count()).toBe(1);

    await box.fill('lighthouse');
    await expect.poll(() => page.locator('.result').count()).toBe(3);
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('lighthouse');
    const marks = await page.locator('.result mark').allTextContents();
    expect(marks.map((m) => m.toLowerCase())).toContain('lighthouse');
    // Text that looks like markup is shown as text, never run as HTML.
    expect(await page.locator('.result__snippet b').count()).toBe(0);
    await shot(page, '3-results');

    await box.fill('harbour');
    await expect.poll(() => page.locator('.result').count()).toBe(20);
    await page.getByRole('button', { name: 'Show more results' }).click();
    await expect.poll(() => page.locator('.result').count()).toBe(24);
    await box.press('Escape');
    await box.press('Escape');
    await expect.poll(() => box.inputValue()).toBe('');
    expect(problems).toEqual([]);
  });

  it('lets Editors rebuild and tune indexes, and shows Subscribers only published entries', async () => {
    const editor = await pageAs(ROLES.EDITOR);
    await editor.goto(`${origin}/_cms/admin/search?q=lighthouse`);
    const panel = editor.getByRole('region', { name: 'Search indexes' });
    await panel.getByText('Searchable', { exact: true }).waitFor();
    await panel.getByRole('spinbutton').first().fill('5');
    await panel.getByRole('button', { name: 'Save weights' }).click();
    await panel.getByText('Weights saved.').waitFor();
    await panel.getByRole('button', { name: 'Rebuild index' }).click();
    await panel.getByText('Index rebuilt.').waitFor();
    await shot(editor, '4-indexes');

    const subscriber = await pageAs(ROLES.SUBSCRIBER, { width: 390, height: 844 });
    await subscriber.goto(`${origin}/_cms/admin/search?q=lighthouse`);
    await expect.poll(() => subscriber.locator('.result').count()).toBe(2);
    expect(await subscriber.getByText('Secret lighthouse plan').count()).toBe(0);
    expect(await subscriber.getByRole('region', { name: 'Search indexes' }).count()).toBe(0);
    await shot(subscriber, '5-mobile-subscriber');
    expect(problems).toEqual([]);
  });
});
