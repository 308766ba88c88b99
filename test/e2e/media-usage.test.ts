/**
 * The media usage operator page in headless Chromium against the real service
 * (temporary SQLite database): a fresh installation reads `active`, a repair of
 * every collection answers `complete` with its per-collection counts, the
 * page fits a phone, an upgraded site (`expanded`) is activated from it, and
 * a failed step is retried once after the confirmation (a failed work item is
 * run again first). Screenshots land in test/e2e/screenshots/media-usage/.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemActor } from '../../src/auth/actor.js';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import {
  describeWithChromium,
  launchChromium,
  type Site,
  screenshotFromTop,
  signedInPage,
  startSite,
  stopSite,
} from '../helpers/browser.js';

const SHOTS = resolve(import.meta.dirname, 'screenshots/media-usage');

describeWithChromium('media usage page end to end', () => {
  let site: Site;
  let browser: Browser;
  let cookie: string;
  const problems: string[] = [];

  async function open(viewport: { width: number; height: number }): Promise<Page> {
    const page = await signedInPage(browser, { origin: site.origin, session: cookie, problems }, { viewport });
    await page.goto(`${site.origin}/_cms/admin/media-usage`);
    await page.getByRole('heading', { level: 1, name: 'Media usage' }).waitFor();
    return page;
  }

  const shot = (page: Page, name: string) => screenshotFromTop(page, join(SHOTS, `${name}.png`));

  beforeAll(async () => {
    await ensureAdminBuilt();
    mkdirSync(SHOTS, { recursive: true });
    site = await startSite('media-usage');
    const { cms } = site;
    // The first user is the Admin; the collection is arranged without the UI.
    const { user } = await cms.services.users.create(null, { email: 'ada@example.test', name: 'Ada' });
    cookie = (await cms.services.auth.sessions.create(cms.ctx.db, user.id, 'passkey')).id;
    await cms.services.schema.collections.create(systemActor, {
      slug: 'posts',
      label: 'Posts',
      fields: [
        { slug: 'title', label: 'Title', type: 'string' },
        { slug: 'cover', label: 'Cover', type: 'image' },
      ],
    });
    for (const title of ['First', 'Second']) {
      await cms.services.content.create(systemActor, 'posts', { data: { title } });
    }
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stopSite(site);
  });

  it('shows a fresh installation as active and repairs every collection to complete', async () => {
    const page = await open({ width: 1280, height: 900 });
    // Under Administration, for Admins.
    await page.getByRole('link', { name: 'Media usage' }).first().waitFor();
    await page.getByText('Usage tracking is on').waitFor();
    await expect.poll(() => page.getByTestId('usage-state').textContent()).toContain('on');
    await page.getByText('Complete: every collection is indexed').waitFor();
    // Nothing to activate on a new installation.
    expect(await page.getByRole('button', { name: 'Activate usage tracking' }).count()).toBe(0);
    expect(await page.getByRole('list', { name: 'Indexing work items' }).isHidden()).toBe(true);

    await page.getByLabel('Scope').selectOption({ label: 'All collections' });
    await page.getByRole('button', { name: 'Run repair' }).click();
    await expect.poll(() => page.getByTestId('repair-status').textContent(), { timeout: 15_000 }).toBe('complete');
    const row = page.getByRole('table', { name: 'Repair per collection' }).getByRole('row', { name: /posts/ });
    expect(await row.getByRole('cell').allTextContents()).toEqual(['posts', 'complete', '2', '0', '0', '0', '—']);
    await shot(page, 'desktop');

    const phone = await open({ width: 390, height: 844 });
    await phone.getByText('Usage tracking is on').waitFor();
    await phone.getByRole('button', { name: 'Run repair' }).click();
    await expect.poll(() => phone.getByTestId('repair-status').textContent(), { timeout: 15_000 }).toBe('complete');
    // Nothing wider than the screen but the tables, which scroll in their own box.
    const overflow = await phone.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(phone, 'mobile');
    expect(problems).toEqual([]);
  }, 60_000);

  it('activates an upgraded site after the drained-writers confirmation and drives indexing to the end', async () => {
    // As a site written before tracking existed has it: tracking off, the index empty.
    const { db } = site.cms.ctx;
    await db.deleteFrom('_cms_media_usage').execute();
    await db.deleteFrom('_cms_media_usage_collections').execute();
    await db.deleteFrom('_cms_media_usage_work').execute();
    await db.updateTable('_cms_media_usage_state').set({ state: 'expanded', activated_at: null }).execute();
    site.cms.services.mediaUsage.forgetState();

    const page = await open({ width: 1280, height: 900 });
    await page.getByText('Usage tracking is off').waitFor();
    await page.getByText('None yet: tracking is off').waitFor();
    await page.getByText('No collection is indexed yet').waitFor();
    const activate = page.getByRole('button', { name: 'Activate usage tracking' });
    expect(await activate.isDisabled()).toBe(true);
    await shot(page, 'expanded');
    await page.getByLabel('Direct database writers are stopped').check();
    await activate.click();
    await page.getByText('Historical indexing is finished.').waitFor({ timeout: 30_000 });
    await page.getByText('Usage tracking is on').waitFor();
    await page.getByText('Complete: every collection is indexed').waitFor();
    expect(await page.getByRole('progressbar', { name: 'Collections indexed' }).getAttribute('value')).toBe('1');
    await page.getByRole('list', { name: 'Indexing work items' }).getByText('done').waitFor();
    await shot(page, 'activated');
    expect(problems).toEqual([]);
  }, 60_000);

  it('shows a failed step with its code, runs a failed work item again and sends the one confirmed retry', async () => {
    // A step that failed, as the service records it: the code on the state and on the work item.
    const { db } = site.cms.ctx;
    await db.updateTable('_cms_media_usage_state').set({ last_error_code: 'INTERNAL' }).execute();
    await db
      .updateTable('_cms_media_usage_work')
      .set({ status: 'failed', last_error_code: 'INTERNAL', cursor: null })
      .where('collection_slug', '=', 'posts')
      .execute();
    site.cms.services.mediaUsage.forgetState();

    const page = await open({ width: 1280, height: 900 });
    const alert = page.getByRole('alert').filter({ hasText: 'A step stopped on' });
    await alert.getByText('INTERNAL').waitFor();
    const work = page.getByRole('list', { name: 'Indexing work items' });
    await work.getByText('failed').waitFor();
    await shot(page, 'failed');
    await work.getByRole('button', { name: 'Run again' }).click();
    await work.getByText('done').waitFor();
    expect(await work.getByRole('button', { name: 'Run again' }).count()).toBe(0);

    const retry = page.getByRole('button', { name: 'Retry and continue' });
    expect(await retry.isDisabled()).toBe(true);
    await page.getByLabel('Direct database writers are stopped').check();
    await retry.click();
    await page.getByText('Historical indexing is finished.').waitFor({ timeout: 30_000 });
    expect(await alert.count()).toBe(0);
    await page.getByText('Complete: every collection is indexed').waitFor();
    expect(problems).toEqual([]);
  }, 60_000);
});
