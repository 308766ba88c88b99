/**
 * The site-structure screens in headless Chromium, on the real service with
 * two locales: taxonomies and their term tree (create, nest, reorder by
 * keyboard and by dragging, translate), the menu builder (entry, term and
 * link pickers, nesting, drag and drop, translation) and the settings page
 * (save, inline errors, the top bar's title). Screenshots at desktop and
 * mobile widths land in test/e2e/screenshots/structure/.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/http/server.js';
import type { Cms } from '../../src/index.js';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import {
  addAuthenticator,
  CHROMIUM,
  dragAbove,
  hasChromium,
  launchChromium,
  startSite,
  watchPage,
} from '../helpers/browser.js';
import { png } from '../helpers/media.js';

const SHOTS = resolve(import.meta.dirname, 'screenshots', 'structure');

if (!hasChromium && process.env.CI) {
  describe('admin structure screens', () => {
    it('needs Debian chromium at /usr/bin/chromium (.ci/run installs it)', () => {
      throw new Error(`${CHROMIUM} is missing`);
    });
  });
}

describe.skipIf(!hasChromium)('admin structure screens (Chromium)', () => {
  let server: RunningServer;
  let cms: Cms;
  let browser: Browser;
  let origin: string;
  let dataDir: string;
  let page: Page;
  let token: string;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];
  const admin = (path: string) => `${origin}/_cms/admin${path}`;

  async function api(method: string, path: string, body?: unknown) {
    const res = await fetch(`${origin}/_cms/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { data: any };
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  }

  async function shot(name: string, target: Page = page): Promise<void> {
    await target.evaluate('window.scrollTo(0, 0)');
    await target.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }

  beforeAll(async () => {
    await ensureAdminBuilt();
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    ({ origin, server, dataDir, cms } = await startSite('structure-e2e', {
      i18n: { locales: ['en', 'fr'], defaultLocale: 'en', fallback: { fr: 'en' } },
    }));
    browser = await launchChromium();
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      locale: 'en-GB',
      timezoneId: 'UTC',
    });
    contexts.push(context);
    page = await context.newPage();
    watchPage(page, problems);
    await addAuthenticator(page);
    await page.goto(admin('/'));
    await page.waitForURL('**/_cms/admin/setup');
    await page.getByLabel('Site title').fill('Field Notes');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel('Email').fill('ada@example.test');
    await page.getByLabel('Name (optional)').fill('Ada');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Create passkey and finish' }).click();
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    const user = await cms.database.db.selectFrom('_cms_users').select('id').executeTakeFirstOrThrow();
    token = (await cms.services.tokens.create(null, { userId: user.id, name: 'e2e' })).token;
    await api('POST', '/schema/collections', {
      slug: 'posts',
      label: 'Posts',
      fields: [{ slug: 'title', label: 'Title', type: 'string' }],
    });
    for (const title of ['About us', 'Contact']) {
      const entry = (await api('POST', '/content/posts', { data: { title } })).item;
      await api('POST', `/content/posts/${entry.id}/publish`, {});
    }
  }, 240_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates a nested taxonomy, builds and reorders its term tree, and translates labels and terms', async () => {
    await page.getByRole('link', { name: 'Taxonomies' }).click();
    await page.getByRole('heading', { level: 1, name: 'Taxonomies' }).waitFor();
    await expect(page.getByText('No taxonomies yet.')).toBeTruthy();
    await shot('taxonomies-empty');
    await page.getByLabel('Label', { exact: true }).fill('Topics');
    await page.getByLabel('Singular label (optional)').fill('Topic');
    await page.getByLabel('Nested terms (like categories with sub-categories)').check();
    await page.getByRole('checkbox', { name: 'Posts' }).check();
    await page.getByRole('button', { name: 'Create taxonomy' }).click();
    await page.waitForURL('**/_cms/admin/taxonomies/topics');
    await page.getByRole('heading', { level: 1, name: 'Topics' }).waitFor();

    for (const label of ['News', 'Sport', 'Culture']) {
      await page.getByLabel('New term', { exact: true }).fill(label);
      await page.getByRole('button', { name: 'Add term', exact: true }).click();
      await page.getByText(`Added “${label}”.`).waitFor();
    }
    // A child under News.
    await page.getByRole('button', { name: 'Add child to News' }).click();
    await page.getByLabel('New term under “News”').fill('Local');
    await page.getByRole('button', { name: 'Add term' }).last().click();
    await page.getByText('Added “Local” under “News”.').waitFor();
    await page.getByRole('button', { name: 'Close News' }).waitFor();

    // Keyboard path: move Culture up twice → Culture, News, Sport.
    await page.getByRole('button', { name: 'Move Culture up' }).click();
    await page.getByRole('button', { name: 'Move Culture up' }).click();
    const order = async () =>
      (await api('GET', '/taxonomies/topics/terms?parent=root')).items.map((t: { label: string }) => t.label);
    await expect.poll(order).toEqual(['Culture', 'News', 'Sport']);

    // Pointer path: drag Sport above Culture.
    const handle = (label: string) => page.getByRole('button', { name: `Reorder ${label}` });
    await dragAbove(page, handle('Sport'), handle('Culture'));
    await expect.poll(order).toEqual(['Sport', 'Culture', 'News']);
    await shot('taxonomy-terms');

    // French labels for the taxonomy and a French term.
    const frLabels = page.getByRole('form', { name: 'Labels in French (fr)' });
    await frLabels.getByLabel('Label', { exact: true }).fill('Sujets');
    await frLabels.getByRole('button', { name: 'Add translation' }).click();
    await frLabels.getByText('Saved.').waitFor();
    await page.getByRole('button', { name: 'Edit News' }).click();
    await page.getByLabel('French (fr) label').fill('Actualités');
    await page.getByRole('button', { name: 'Translate' }).click();
    await expect
      .poll(async () =>
        (await api('GET', '/taxonomies/topics/terms?locale=fr')).items.map((t: { label: string }) => t.label),
      )
      .toEqual(['Actualités']);
    expect((await api('GET', '/taxonomies/topics?locale=fr')).label).toBe('Sujets');
    await shot('taxonomy-term-editor');

    const mobile = await (
      await browser.newContext({
        viewport: { width: 390, height: 844 },
        storageState: await page.context().storageState(),
      })
    ).newPage();
    watchPage(mobile, problems);
    await mobile.goto(admin('/taxonomies/topics'));
    await mobile.getByRole('heading', { level: 1, name: 'Topics' }).waitFor();
    await shot('taxonomy-mobile', mobile);
    await mobile.context().close();
  });

  it('builds a nested menu from entry, term and link pickers, reorders it by dragging, and translates it', async () => {
    await page.getByRole('link', { name: 'Menus' }).click();
    await page.getByRole('heading', { level: 1, name: 'Menus' }).waitFor();
    await page.getByLabel('Menu name').fill('Main menu');
    await page.getByRole('button', { name: 'Create menu' }).click();
    await page.waitForURL('**/_cms/admin/menus/main_menu?locale=en');
    await page.getByText('This menu has no items yet.').waitFor();

    // Link.
    await page.getByRole('tab', { name: 'Link' }).click();
    await page.getByLabel('Link label').fill('Home');
    await page.getByLabel('Address').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Add link' }).click();
    await page.getByText(/scheme "javascript:" is not allowed/).waitFor();
    await page.getByLabel('Address').fill('/');
    await page.getByRole('button', { name: 'Add link' }).click();
    await page.getByText('Added “Home” at the end of the menu.').waitFor();
    // Entry.
    await page.getByRole('tab', { name: 'Entry' }).click();
    await page.getByRole('button', { name: 'Add About us' }).click();
    await page.getByText('Added “About us” at the end of the menu.').waitFor();
    // Term.
    await page.getByRole('tab', { name: 'Term' }).click();
    await page.getByLabel('Find a term').fill('new');
    await page.getByRole('button', { name: 'Add News' }).click();
    await page.getByText('Added “News” at the end of the menu.').waitFor();

    // Nest About us under Home with the keyboard-path button.
    await page.getByRole('button', { name: 'Indent About us under the item above' }).click();
    const structure = async () =>
      (await api('GET', '/menus/main_menu')).items.map(
        (i: { label: string; depth: number }) => `${i.depth}:${i.label}`,
      );
    await expect.poll(structure).toEqual(['0:Home', '1:About us', '0:News']);

    // Drag News to the top.
    const handle = (label: string) => page.getByRole('button', { name: `Move ${label}`, exact: true });
    await dragAbove(page, handle('News'), handle('Home'));
    await expect.poll(structure).toEqual(['0:News', '0:Home', '1:About us']);
    await shot('menu-builder');

    // Translate into French: items copied, the term shows its French label.
    await page.getByRole('button', { name: 'Translate into French (fr)' }).click();
    await page.waitForURL('**/_cms/admin/menus/main_menu?locale=fr');
    await page.getByText('Actualités').first().waitFor();
    const fr = await api('GET', '/menus/main_menu?locale=fr');
    expect(fr.items.map((i: { label: string }) => i.label)).toEqual(['Actualités', 'Home', 'About us']);
    await shot('menu-builder-fr');
  });

  it('changes the site settings, with inline errors, and the top bar follows', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await png(32, 32))], { type: 'image/png' }), 'logo.png');
    const res = await fetch(`${origin}/_cms/api/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const logo = ((await res.json()) as { data: { item: { id: string } } }).data.item;
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByLabel('Site title').fill('Field Notes Weekly');
    await page.getByLabel('Time zone').selectOption('Europe/Paris');
    await page.getByLabel('Site address (optional)').fill('https://user:pw@fieldnotes.example');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText(/must be an absolute http\(s\) address/).waitFor();
    await shot('settings-error');
    await page.getByLabel('Site address (optional)').fill('https://fieldnotes.example');
    // The logo comes from the media library, through the picker.
    await page.getByRole('button', { name: 'Choose logo' }).click();
    await page.getByRole('dialog').getByText('logo.png').click();
    await page.getByRole('button', { name: 'Use this file' }).click();
    await page.getByRole('button', { name: 'Replace logo' }).waitFor();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    await page.locator('.topbar__title', { hasText: 'Field Notes Weekly' }).waitFor();
    expect(await api('GET', '/settings')).toMatchObject({
      title: 'Field Notes Weekly',
      timezone: 'Europe/Paris',
      siteUrl: 'https://fieldnotes.example',
      logo: logo.id,
    });
    await shot('settings');
  });

  it('edits a section and fills a widget area', async () => {
    await page.getByRole('link', { name: 'Sections' }).click();
    await page.getByLabel('Title', { exact: true }).fill('Newsletter');
    await page.getByRole('button', { name: 'Create section' }).click();
    await page.waitForURL('**/_cms/admin/sections/newsletter');
    // The entries' rich-text editor: two paragraphs.
    await page.getByRole('textbox', { name: 'Text' }).click();
    await page.keyboard.type('Get the weekly notes.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('No spam, ever.');
    // The editor hands its value over with each change: saving at once keeps every word.
    await page.getByRole('button', { name: 'Save section' }).click();
    await page.getByText('Section saved.').waitFor();
    expect((await api('GET', '/sections/newsletter')).blockCount).toBe(2);
    await shot('section');

    await page.getByRole('link', { name: 'Widget areas' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Sidebar');
    await page.getByRole('button', { name: 'Create area' }).click();
    await page.waitForURL('**/_cms/admin/widgets/sidebar');
    for (const [type, field, value] of [
      ['section', 'Section', 'newsletter'],
      ['menu', 'Menu', 'main_menu'],
    ] as const) {
      await page.getByRole('button', { name: 'Add a widget' }).click();
      await page.getByLabel('Type').selectOption(type);
      await page.getByLabel(field, { exact: true }).selectOption(value);
      await page.getByRole('button', { name: 'Add widget' }).click();
      await page.getByText('Widget added at the end.').waitFor();
    }
    const widgets = page.getByRole('list', { name: 'Widgets' }).getByRole('listitem');
    await expect.poll(() => widgets.count()).toBe(2);
    await page.getByRole('button', { name: 'Move Menu “main_menu” up' }).click();
    await expect
      .poll(async () => (await api('GET', '/widget-areas/sidebar')).widgets.map((w: { type: string }) => w.type))
      .toEqual(['menu', 'section']);
    await shot('widget-area');
    expect(problems).toEqual([]);
  });
});
