/**
 * The Site health page (the consistency checker) in headless Chromium, on SQLite and on
 * PostgreSQL: an Admin finds it in the navigation (an Editor neither sees it nor reaches it),
 * runs one chosen check, then all of them after the term counts were deleted and an orphaned
 * revision inserted behind the service's back, reads both findings, backs out of the repair
 * confirmation with Escape, sees a repair refused while a site import holds the site (its code
 * shown), repairs, and a new check reports every check ok. Screenshots go to
 * test/e2e/screenshots/site-check-<dialect>/.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { type ContentSite, callSite, startContentSite } from '../helpers/content-site.js';
import { describeEachDialect } from '../helpers/db.js';

const ORPHAN_ENTRY = '01NOSUCHENTRY0000000000000';
const REFUSED_503 = /status of 503/;

describeEachDialect('admin site health', (dialect) => {
  if (!hasChromium) {
    it.skipIf(!process.env.CI)('needs Debian chromium at /usr/bin/chromium', () => {
      throw new Error('/usr/bin/chromium is missing: apt-get install -y --no-install-recommends chromium');
    });
    return;
  }
  const SHOTS = resolve(import.meta.dirname, 'screenshots', `site-check-${dialect}`);
  let browser: Browser;
  let site: ContentSite;
  const problems: string[] = [];
  let token = '';
  let page: Page;
  const api = <T = any>(method: string, path: string, body?: unknown) =>
    callSite<T>(site.origin, token, method, path, body);
  const newsCount = async () => (await api('GET', '/taxonomies/tags/terms/news')).count as number;

  async function shot(page: Page, name: string, mobile = false) {
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
    if (!mobile) return;
    // The findings table turns into labelled rows on a phone.
    const size = page.viewportSize() ?? { width: 1280, height: 900 };
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.evaluate('innerWidth')).toBe(390);
    await page.screenshot({ path: join(SHOTS, `${name}-mobile.png`), fullPage: true });
    await page.setViewportSize(size);
  }

  beforeAll(async () => {
    await ensureAdminBuilt();
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
    site = await startContentSite(dialect, browser, problems);
    // First: the site's first user is always an Admin, whatever role is asked for.
    page = await site.personPage(ROLES.ADMIN, 'Ada Admin');
    ({ token } = await site.cms.services.tokens.create(null, { userId: site.users['Ada Admin'], name: 'e2e' }));
  }, 180_000);

  afterAll(async () => {
    await site?.close();
    await browser?.close();
  });

  it('is for Admins only: an Editor has no link and is sent to the dashboard', async () => {
    const editor = await site.personPage(ROLES.EDITOR, 'Eddie Editor');
    await editor.goto(`${site.origin}/_cms/admin/site-health`);
    await editor.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await expect.poll(() => new URL(editor.url()).pathname).toBe('/_cms/admin/');
    await editor.getByRole('navigation').getByRole('link', { name: 'Settings' }).waitFor();
    expect(await editor.getByRole('link', { name: 'Site health' }).count()).toBe(0);
    await editor.context().close();
  }, 60_000);

  it('finds wrong term counts and an orphaned revision, repairs them, and the next check is ok', async () => {
    const posts = await api('POST', '/schema/collections', {
      slug: 'posts',
      label: 'Posts',
      fields: [{ slug: 'title', label: 'Title', type: 'string' }],
    });
    await api('POST', '/taxonomies', { name: 'tags', label: 'Tags', collections: ['posts'] });
    await api('POST', '/taxonomies/tags/terms', { label: 'News' });
    const entry = (await api('POST', '/content/posts', { data: { title: 'Heron' } })).item;
    await api('POST', `/content/posts/${entry.id}/terms/tags`, { terms: ['news'] });
    await api('POST', `/content/posts/${entry.id}/publish`, {});
    expect(await newsCount()).toBe(1);

    // ---------- A healthy site, one check chosen ----------
    await page.goto(`${site.origin}/_cms/admin/`);
    await page.getByRole('navigation').getByRole('link', { name: 'Site health' }).click();
    await page.getByRole('heading', { level: 1, name: 'Site health' }).waitFor();
    const reportCard = page.getByRole('region', { name: 'Report' });
    await reportCard.getByText('No check has run yet.').waitFor();
    for (const label of ['Orphaned rows', 'Term counts', 'Search index', 'Media usage', 'Stored files']) {
      await page.getByRole('checkbox', { name: new RegExp(`^${label}`) }).uncheck();
    }
    await page.getByRole('button', { name: 'Run the chosen checks' }).click();
    const status = page.getByTestId('check-report-status');
    await expect.poll(() => status.textContent()).toBe('OK');
    expect(
      await page
        .getByTestId(/^check-/)
        .and(page.getByRole('listitem'))
        .count(),
    ).toBe(1);
    await page.getByTestId('check-revisions').getByText('No problems.').waitFor();

    // ---------- Broken behind the service's back ----------
    const db = site.cms.ctx.db;
    await sql`delete from _cms_term_counts`.execute(db);
    await sql`insert into _cms_revisions (id, collection_id, entry_id, slug, data, refs, bylines, kind, created_by, created_at)
      values (${'01ORPHANREVISION0000000000'}, ${posts.id}, ${ORPHAN_ENTRY}, null, '{}', null, null, 'save', null, ${new Date().toISOString()})`.execute(
      db,
    );
    expect(await newsCount()).toBe(0);

    await page.getByRole('button', { name: 'Choose all' }).click();
    // Run from the keyboard: the button is focusable and Enter submits.
    await page.getByRole('button', { name: 'Run all checks' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => status.textContent()).toBe('Problems');
    const counts = page.getByTestId('check-term-counts');
    await counts.getByRole('cell', { name: 'TERM_COUNT_WRONG' }).first().waitFor();
    const countRow = counts.getByRole('row').filter({ hasText: 'TERM_COUNT_WRONG' }).first();
    expect(await countRow.textContent()).toMatch(/posts.*is 0; the content implies 1.*Repairable/);
    const orphans = page.getByTestId('check-orphans');
    const orphanRow = orphans.getByRole('row').filter({ hasText: ORPHAN_ENTRY });
    await orphanRow.getByRole('cell', { name: 'ORPHANED_ROWS' }).waitFor();
    expect(await orphanRow.textContent()).toContain('Repairable');
    await page.getByTestId('check-revisions').getByText('No problems.').waitFor();
    // Checking changed nothing.
    expect(await newsCount()).toBe(0);
    await shot(page, 'problems', true);

    // ---------- The confirmation says what a repair does; Escape backs out ----------
    const opener = page.getByRole('button', { name: 'Repair what can be derived…' });
    await opener.click();
    const confirm = page.getByRole('group', { name: 'Repair what can be derived from the content?' });
    const words = await confirm.textContent();
    expect(words).toContain('Rebuilds term counts, search indexes and media usage');
    expect(words).toContain('Deletes orphaned rows');
    expect(words).toContain('Never changes content');
    expect(words).toContain('Cannot restore a missing file');
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Repair now');
    await shot(page, 'confirm');
    await page.keyboard.press('Escape');
    await expect.poll(() => confirm.count()).toBe(0);
    await expect.poll(() => page.evaluate('document.activeElement?.textContent')).toBe('Repair what can be derived…');

    // ---------- Refused while a site import holds the site: the code is shown ----------
    await db.insertInto('_cms_meta').values({ key: 'transfer_import', value: '01IMPORT000000000000000000' }).execute();
    await site.cms.ctx.bus.publish('transfer');
    await opener.click();
    await page.getByRole('button', { name: 'Repair now' }).click();
    await page.getByTestId('error-code').filter({ hasText: 'TRANSFER_IMPORT_IN_PROGRESS' }).waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'TRANSFER_IMPORT_IN_PROGRESS' }).textContent()).toContain(
      'A site import',
    );
    expect(await newsCount()).toBe(0);
    await sql`delete from _cms_meta where key = 'transfer_import'`.execute(db);
    await site.cms.ctx.bus.publish('transfer');

    // ---------- Repair, then check again ----------
    await page.getByRole('button', { name: 'Run all checks' }).click();
    await expect.poll(() => status.textContent()).toBe('Problems');
    await page.getByRole('button', { name: 'Repair what can be derived…' }).click();
    await page.getByRole('button', { name: 'Repair now' }).click();
    await page.getByRole('heading', { name: 'After repair: Repaired' }).waitFor();
    expect(await counts.getByRole('row').filter({ hasText: 'TERM_COUNT_WRONG' }).first().textContent()).toContain(
      'Repaired',
    );
    expect(
      await page.getByTestId('check-orphans').getByRole('row').filter({ hasText: ORPHAN_ENTRY }).textContent(),
    ).toContain('Repaired');
    expect(await page.getByRole('region', { name: 'Repair' }).count()).toBe(0);
    expect(await newsCount()).toBe(1);
    await shot(page, 'repaired');

    await page.getByRole('button', { name: 'Run all checks' }).click();
    await page.getByRole('heading', { name: 'Result: OK' }).waitFor();
    const items = page.getByTestId('check-report').getByRole('listitem');
    await expect
      .poll(async () => (await items.allTextContents()).every((t) => /No problems\.|Did not apply\./.test(t)))
      .toBe(true);
    expect(await page.getByTestId('check-report').getByRole('table').count()).toBe(0);
    await shot(page, 'ok');
    await page.context().close();

    // The one refused repair is the only console complaint.
    expect(problems.filter((p) => REFUSED_503.test(p)).length).toBeLessThanOrEqual(1);
    expect(problems.filter((p) => !REFUSED_503.test(p))).toEqual([]);
  }, 120_000);
});
