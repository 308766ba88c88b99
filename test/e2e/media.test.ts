/**
 * The media library screen and the picker in headless Chromium, against the
 * real service (temporary SQLite database, file-system storage): uploads with
 * progress (chosen and dropped), the deduplication notice, grid and list
 * views, folders, alt text, replace, delete, filters, a small screen, and the
 * MediaPicker component as an editor page embeds it. Screenshots land in
 * test/e2e/screenshots/media-*.png.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import { CHROMIUM, hasChromium, launchChromium, type Site, startSite, watchPage } from '../helpers/browser.js';

const ROOT = resolve(import.meta.dirname, '../..');
const SHOTS = resolve(import.meta.dirname, 'screenshots');

const image = (w: number, h: number, background: string) =>
  sharp({ create: { width: w, height: h, channels: 3, background } })
    .png()
    .toBuffer();

async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: join(SHOTS, `media-${name}.png`), fullPage: true });
}

/** Build the picker test page once (a few seconds); served by request interception, not by the product. */
function buildHarness(): string {
  const out = mkdtempSync(join(tmpdir(), 'cms-picker-'));
  const run = spawnSync(
    process.execPath,
    [
      resolve(ROOT, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'test/e2e/picker-harness/vite.config.ts',
      '--outDir',
      out,
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (run.status !== 0) throw new Error(`picker harness build failed:\n${run.stdout}\n${run.stderr}`);
  return out;
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

if (!hasChromium && process.env.CI) {
  describe('media screen end to end', () => {
    it('needs Debian chromium at /usr/bin/chromium (.ci/run installs it)', () => {
      throw new Error(`${CHROMIUM} is missing`);
    });
  });
}

describe.skipIf(!hasChromium)('media screen end to end (Chromium)', () => {
  let site: Site;
  let browser: Browser;
  let harness: string;
  let cookie: string;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  async function newPage(viewport = { width: 1280, height: 900 }): Promise<Page> {
    const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'UTC' });
    await context.addCookies([{ name: 'cms_session', value: cookie, url: site.origin }]);
    await context.route(`${site.origin}/_cms/picker-harness/**`, (route) => {
      const path = new URL(route.request().url()).pathname.replace('/_cms/picker-harness/', '') || 'index.html';
      const file = join(harness, path);
      if (!existsSync(file)) return route.fulfill({ status: 404, body: 'missing' });
      return route.fulfill({
        status: 200,
        contentType: TYPES[extname(file)] ?? 'application/octet-stream',
        body: readFileSync(file),
      });
    });
    contexts.push(context);
    const page = await context.newPage();
    watchPage(page, problems);
    return page;
  }

  beforeAll(async () => {
    await ensureAdminBuilt();
    harness = buildHarness();
    mkdirSync(SHOTS, { recursive: true });
    site = await startSite('media');
    const { cms } = site;
    // Arranged without the UI: the setup wizard has its own test.
    await cms.ctx.db
      .insertInto('_cms_settings')
      .values({ key: 'title', value: JSON.stringify('Field Notes'), updated_at: new Date().toISOString() })
      .execute();
    const { user } = await cms.services.users.create(null, { email: 'ada@example.test', name: 'Ada' });
    cookie = (await cms.services.auth.sessions.create(cms.ctx.db, user.id, 'passkey')).id;
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await site?.server.stop();
    if (site?.dataDir) rmSync(site.dataDir, { recursive: true, force: true });
    if (harness) rmSync(harness, { recursive: true, force: true });
  });

  it('uploads, deduplicates, organises, edits, replaces and deletes files', async () => {
    const page = await newPage();
    await page.goto(`${site.origin}/_cms/admin/media`);
    await page.getByRole('heading', { level: 1, name: 'Media' }).waitFor();
    await page.getByText('No files here yet. Drop images').waitFor();
    await shot(page, '01-empty');

    // Choose three files: each gets its own progress row.
    const red = await image(320, 200, '#c0392b');
    await page.getByLabel('choose files').setInputFiles([
      { name: 'red.png', mimeType: 'image/png', buffer: red },
      { name: 'teal.png', mimeType: 'image/png', buffer: await image(200, 320, '#16a085') },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Meeting notes\n') },
    ]);
    const uploads = page.getByRole('list', { name: 'Uploads' });
    await expect.poll(() => uploads.getByText('Uploaded').count()).toBe(3);
    expect(await uploads.locator('progress').count()).toBe(3);
    const tiles = page.getByRole('list', { name: 'Media files' }).getByRole('button');
    await expect.poll(() => tiles.count()).toBe(3);

    // The same bytes dropped again: no new item, and the row says so.
    const dropped = await page.evaluateHandle(`(() => {
      const bytes = Uint8Array.from(atob('${red.toString('base64')}'), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'red-again.png', { type: 'image/png' }));
      return dt;
    })()`);
    await page.dispatchEvent('[data-testid=dropzone]', 'drop', { dataTransfer: dropped });
    await uploads.getByText('Already in the library as “red.png”').waitFor();
    expect(await tiles.count()).toBe(3);
    await shot(page, '02-uploaded');

    // A folder, and an image moved into it with alt text.
    await page.getByLabel('New folder').fill('Campaign');
    await page.getByRole('button', { name: 'Create folder' }).click();
    await page.getByRole('button', { name: 'Campaign' }).waitFor();
    await page.getByRole('button', { name: 'All media' }).click();
    await tiles.filter({ hasText: 'red.png' }).click();
    const details = page.getByRole('complementary', { name: 'Details of red.png' });
    await details.getByLabel('Alternative text').fill('A red card');
    await details.getByLabel('Folder').selectOption({ label: 'Campaign' });
    await details.getByRole('button', { name: 'Save' }).click();
    await details.getByText('Saved.').waitFor();
    await shot(page, '03-details');
    const stored = await site.cms.ctx.db
      .selectFrom('_cms_media')
      .select(['alt', 'folder_id'])
      .where('filename', '=', 'red.png')
      .executeTakeFirstOrThrow();
    expect(stored.alt).toBe('A red card');
    expect(stored.folder_id).not.toBeNull();

    await page.getByRole('button', { name: /^Campaign/ }).click();
    await expect.poll(() => tiles.count()).toBe(1);
    await page.getByRole('button', { name: /^Main library/ }).click();
    await expect.poll(() => tiles.count()).toBe(2);

    // Replace the teal image: same item, new dimensions.
    await tiles.filter({ hasText: 'teal.png' }).click();
    const teal = page.getByRole('complementary', { name: 'Details of teal.png' });
    await teal.locator('input[type=file]').setInputFiles({
      name: 'teal-wide.png',
      mimeType: 'image/png',
      buffer: await image(640, 120, '#16a085'),
    });
    await page.getByText('File replaced: same address, new content.').waitFor();
    await teal.getByText('640 × 120 px').waitFor();
    expect(await teal.getByLabel('File name').inputValue()).toBe('teal.png');

    // Filters and the list view.
    await page.getByRole('button', { name: 'All media' }).click();
    await page.getByLabel('Type').selectOption({ label: 'Documents' });
    await expect.poll(() => tiles.count()).toBe(1);
    await page.getByLabel('Type').selectOption({ label: 'All types' });
    await page.getByRole('button', { name: 'List' }).click();
    const table = page.getByRole('table', { name: 'Media files' });
    await expect.poll(() => table.getByRole('row').count()).toBe(4);
    await shot(page, '04-list');
    await page.getByLabel('Search file names').fill('notes');
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    await page.getByLabel('Search file names').fill('');

    // Delete, with confirmation.
    await table.getByRole('button', { name: 'notes.txt' }).click();
    const notes = page.getByRole('complementary', { name: 'Details of notes.txt' });
    await notes.getByRole('button', { name: 'Delete' }).click();
    await notes.getByText('Content that uses this file will show nothing in its place.').waitFor();
    await notes.getByRole('button', { name: 'Delete for good' }).click();
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    expect(problems).toEqual([]);
  });

  it('works at mobile width', async () => {
    const page = await newPage({ width: 390, height: 844 });
    await page.goto(`${site.origin}/_cms/admin/media`);
    await page.getByRole('heading', { level: 1, name: 'Media' }).waitFor();
    await expect.poll(() => page.getByRole('list', { name: 'Media files' }).getByRole('button').count()).toBe(2);
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(390);
    await shot(page, '05-mobile');
    expect(problems).toEqual([]);
  });

  it('the picker lists only accepted types, uploads into the selection and returns the chosen items', async () => {
    const page = await newPage();
    await page.goto(`${site.origin}/_cms/picker-harness/index.html?multiple=1&accept=image/*`);
    await page.getByRole('button', { name: 'Open picker' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose images' });
    await dialog.waitFor();
    const choices = dialog.getByRole('list', { name: 'Media to choose from' }).getByRole('button');
    await expect.poll(() => choices.count()).toBe(2);
    await dialog.getByLabel('choose files').setInputFiles({
      name: 'blue.png',
      mimeType: 'image/png',
      buffer: await image(100, 100, '#2457a6'),
    });
    await dialog
      .getByText('2 selected')
      .waitFor({ state: 'detached' })
      .catch(() => {});
    await dialog.getByText('1 selected').waitFor();
    await choices.filter({ hasText: 'red.png' }).click();
    await dialog.getByText('2 selected').waitFor();
    await shot(page, '06-picker');
    await dialog.getByRole('button', { name: 'Use selected' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const chosen = JSON.parse((await page.locator('#chosen').textContent()) ?? '[]');
    expect(chosen.map((c: { filename: string }) => c.filename)).toEqual(['blue.png', 'red.png']);
    // Escape closes without choosing.
    await page.getByRole('button', { name: 'Open picker' }).click();
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(problems).toEqual([]);
  });
});
