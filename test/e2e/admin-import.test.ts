/**
 * The WordPress import page in Chromium, against the real service on a
 * temporary SQLite database: an Admin uploads a small export, analyzes it,
 * prepares the schema (the posts collection is new), imports with progress and
 * reads the report; the entries exist afterwards. Screenshots at desktop and
 * mobile widths land in test/e2e/screenshots/import/.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import { CHROMIUM, hasChromium, launchChromium, type Site, startSite, watchPage } from '../helpers/browser.js';

const SHOTS = resolve(import.meta.dirname, 'screenshots', 'import');
const EXPORT = '/work/shared/testdata/wxr/theme-preview.xml';

if (!hasChromium && process.env.CI) {
  describe('import page', () => {
    it('needs Debian chromium at /usr/bin/chromium (.ci/run installs it)', () => {
      throw new Error(`${CHROMIUM} is missing`);
    });
  });
}

describe.skipIf(!hasChromium)('WordPress import page (Chromium)', () => {
  let site: Site;
  let browser: Browser;
  let session: string;
  const problems: string[] = [];

  async function page(viewport: { width: number; height: number }): Promise<Page> {
    const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'UTC' });
    await context.addCookies([{ name: 'cms_session', value: session, url: site.origin }]);
    const p = await context.newPage();
    watchPage(p, problems);
    return p;
  }
  const shot = (p: Page, name: string) => p.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    await ensureAdminBuilt();
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    site = await startSite('import');
    browser = await launchChromium();
    const { cms } = site;
    const { user } = await cms.services.users.create(null, { email: 'ada@example.test', name: 'Ada Admin', role: 50 });
    session = (await cms.services.auth.sessions.create(cms.database.db, user.id, 'setup')).id;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await site?.server.stop();
    if (site) rmSync(site.dataDir, { recursive: true, force: true });
  });

  it('analyzes, prepares and imports an export, then reports what it did', async () => {
    const p = await page({ width: 1280, height: 900 });
    await p.goto(`${site.origin}/_cms/admin/`);
    await p.getByRole('link', { name: 'Import', exact: true }).click();
    await p.getByRole('heading', { name: 'Import from WordPress' }).waitFor();

    // Analyze without a file: an inline error, nothing sent.
    await p.getByRole('button', { name: 'Analyze' }).click();
    await p.getByText('Choose an export file').waitFor();

    await p.getByLabel('WordPress export (.xml or .xml.gz)').setInputFiles(EXPORT);
    await p.getByRole('button', { name: 'Analyze' }).click();
    await p.getByTestId('import-items').waitFor();
    expect(await p.getByTestId('import-items').textContent()).toBe('7');
    const postType = p.getByTestId('import-type-post');
    expect(await postType.textContent()).toContain('New collection');
    expect(await postType.getByLabel('Target collection').inputValue()).toBe('posts');

    // A bad target slug is caught inline and blocks prepare; the suggested one is put back.
    await postType.getByLabel('Target collection').fill('Posts!');
    await p.getByText('Use a lowercase letter first').waitFor();
    expect(await p.getByRole('button', { name: 'Prepare' }).isDisabled()).toBe(true);
    await postType.getByLabel('Target collection').fill('posts');
    await shot(p, 'review-desktop');

    expect(await p.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
    await p.getByRole('button', { name: 'Prepare' }).click();
    await p.getByTestId('prepare-result').waitFor();
    expect(await p.getByTestId('prepare-result').textContent()).toContain('Created posts');

    await p.getByRole('button', { name: 'Import', exact: true }).click();
    await p.getByTestId('import-report').waitFor({ timeout: 60_000 });
    expect(await p.getByTestId('import-imported').textContent()).toBe('7');
    expect(await p.getByTestId('import-failed').textContent()).toBe('0');
    const row = p.getByTestId('import-row-posts').first();
    expect(await row.textContent()).toContain('posts');
    await p.getByText('The import finished without failures.').waitFor();
    await shot(p, 'report-desktop');

    // The entries exist, published.
    const res = await fetch(`${site.origin}/_cms/api/content/posts?limit=50`, {
      headers: { cookie: `cms_session=${session}` },
    });
    const list = (await res.json()) as { data: { items: Array<{ status: string }> } };
    expect(list.data.items).toHaveLength(7);
    expect(list.data.items.every((e) => e.status === 'published')).toBe(true);

    // A second run over the same file: every post exists, so it is skipped, not duplicated.
    const m = await page({ width: 390, height: 844 });
    await m.goto(`${site.origin}/_cms/admin/import/blogplatform`);
    await m.getByLabel('WordPress export (.xml or .xml.gz)').setInputFiles(EXPORT);
    await m.getByRole('button', { name: 'Analyze' }).click();
    await m.getByTestId('import-type-post').waitFor();
    expect(await m.getByTestId('import-type-post').textContent()).toContain('Ready');
    await m.getByLabel('Skip entries that exist').check();
    await m.getByRole('button', { name: 'Import', exact: true }).click();
    await m.getByTestId('import-report').waitFor({ timeout: 60_000 });
    expect(await m.getByTestId('import-imported').textContent()).toBe('0');
    expect(await m.getByTestId('import-skipped').textContent()).toBe('7');
    expect(await m.getByTestId('import-row-posts').first().textContent()).toContain('already imported');
    await shot(m, 'rerun-mobile');
    // Nothing overflows the phone's width.
    expect(await m.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);

    expect(problems).toEqual([]);
  }, 180_000);
});
