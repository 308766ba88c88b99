/**
 * Details editors asked for, each checked the way they see it: revision rows name who saved and
 * which fields changed; Translations and Revisions sit open at the top of the side column; the
 * entry list scrolls with the page and says where the reader is; each trashed entry has its own
 * Restore (and, for Admins, Delete); a collection without a singular name makes "New entry".
 * Screenshots go to test/e2e/screenshots/content-details-<dialect>/.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { type ContentSite, startContentSite } from '../helpers/content-site.js';
import { describeEachDialect } from '../helpers/db.js';

describeEachDialect('admin content details', (dialect) => {
  if (!hasChromium) {
    it.skipIf(!process.env.CI)('needs Debian chromium at /usr/bin/chromium', () => {
      throw new Error('/usr/bin/chromium is missing');
    });
    return;
  }
  const SHOTS = resolve(import.meta.dirname, 'screenshots', `content-details-${dialect}`);
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let site: ContentSite;
  let ada: Page;
  const tokens: Record<string, string> = {};
  const problems: string[] = [];

  async function api<T = any>(who: string, method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${site.origin}/_cms/api${path}`, {
      method,
      headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { success: boolean; data: T; error?: unknown };
    if (!json.success) throw new Error(`${method} ${path}: ${JSON.stringify(json.error)}`);
    return json.data;
  }
  const admin = (p: Page, path: string) => p.goto(`${site.origin}/_cms/admin${path}`);
  const shot = (p: Page, name: string) => p.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });

  beforeAll(async () => {
    await ensureAdminBuilt();
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
    site = await startContentSite(dialect, browser, problems, {
      i18n: { locales: ['en', 'fr'], defaultLocale: 'en' },
    });
    ada = await site.personPage(ROLES.ADMIN, 'Ada Admin');
    await site.personPage(ROLES.EDITOR, 'Eve Editor');
    for (const name of ['Ada Admin', 'Eve Editor']) {
      ({ token: tokens[name] } = await site.cms.services.tokens.create(null, { userId: site.users[name], name }));
    }
    await api('Ada Admin', 'POST', '/schema/collections', {
      slug: 'notes',
      label: 'Notes',
      labelSingular: 'Note',
      fields: [
        { slug: 'title', label: 'Title', type: 'string', required: true },
        { slug: 'summary', label: 'Summary', type: 'text' },
      ],
    });
  }, 180_000);

  afterAll(async () => {
    await site?.close();
    await browser?.close();
  });

  it('revision rows name who saved and the fields changed; revisions and translations are open at the top', async () => {
    const { item } = await api('Ada Admin', 'POST', '/content/notes', { data: { title: 'Heron' } });
    await api('Eve Editor', 'PUT', `/content/notes/${item.id}`, { data: { summary: 'Seen at dawn.' } });
    await api('Ada Admin', 'PUT', `/content/notes/${item.id}`, { data: { title: 'Grey heron' }, slug: 'grey-heron' });
    await admin(ada, `/content/notes/${item.id}`);
    const revisions = ada.locator('#revisions');
    const rows = revisions.locator('li');
    await expect.poll(() => rows.count()).toBe(3);
    // Open without a click, names and labels on every row.
    expect(await revisions.getAttribute('open')).not.toBeNull();
    expect(await rows.nth(0).locator('.rev__who').textContent()).toBe('by Ada Admin');
    expect(await rows.nth(0).locator('.rev__changed').textContent()).toBe('Changed Slug and Title.');
    expect(await rows.nth(1).locator('.rev__who').textContent()).toBe('by Eve Editor');
    expect(await rows.nth(1).locator('.rev__changed').textContent()).toBe('Changed Summary.');
    expect(await rows.nth(2).locator('.rev__changed').textContent()).toBe('The earliest revision kept.');
    await rows.nth(2).getByRole('button', { name: 'Show how Slug, Title and Summary differ from now' }).click();
    await rows.nth(2).locator('.rev-diff').getByText('Heron', { exact: true }).waitFor();

    // Right under the status, before the other panels; both open.
    const translations = ada.locator('#translations');
    await translations.getByRole('button', { name: 'Translate into fr' }).waitFor();
    const top = async (selector: string) => (await ada.locator(selector).first().boundingBox())?.y ?? Infinity;
    const status = await top('.side-card');
    expect(status).toBeLessThan(await top('#translations'));
    expect(await top('#translations')).toBeLessThan(await top('#revisions'));
    const others = await ada.locator('.editor__side > .panel:not(#translations):not(#revisions)').all();
    for (const panel of others) expect(await top('#revisions')).toBeLessThan((await panel.boundingBox())?.y ?? 0);
    // A panel still closes and opens from the keyboard.
    await revisions.locator('summary').focus();
    await ada.keyboard.press('Enter');
    expect(await revisions.getAttribute('open')).toBeNull();
    await ada.keyboard.press('Enter');
    expect(await revisions.getAttribute('open')).not.toBeNull();
    await shot(ada, 'editor-side-column');
  });

  it('the entry list scrolls with the page and shows the position in view', async () => {
    for (let start = 0; start < 130; start += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          api('Ada Admin', 'POST', '/content/notes', { data: { title: `Bird ${String(start + i).padStart(3, '0')}` } }),
        ),
      );
    }
    await ada.setViewportSize({ width: 1280, height: 900 });
    await admin(ada, '/content/notes?orderBy=createdAt&order=asc');
    const list = ada.getByTestId('entry-list');
    await list.locator('tbody tr[data-index]').first().waitFor();
    const total = (await api('Ada Admin', 'GET', '/admin/content/model')).collections[0].counts.all as number;
    const position = ada.getByTestId('list-position');
    await expect.poll(() => position.textContent()).toMatch(new RegExp(`^1–\\d+ of ${total} · $`));
    // No box of its own: the list is as tall as its rows, and the window scrolls.
    expect(await list.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
    expect(await ada.evaluate('document.documentElement.scrollHeight')).toBeGreaterThan(100 * 50);
    await shot(ada, 'list-top');
    // At the end of the page the next page is loaded and the position reaches the last entry.
    await expect
      .poll(
        async () => {
          await ada.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
          return position.textContent();
        },
        { timeout: 15_000 },
      )
      .toMatch(new RegExp(`–${total} of ${total} · $`));
    await shot(ada, 'list-end');
  });

  it('each trashed entry has its own Restore, and Admins their own Delete', async () => {
    const kept = (await api('Ada Admin', 'POST', '/content/notes', { data: { title: 'Kestrel' } })).item;
    const gone = (await api('Ada Admin', 'POST', '/content/notes', { data: { title: 'Kite' } })).item;
    for (const e of [kept, gone]) await api('Ada Admin', 'DELETE', `/content/notes/${e.id}`);

    // An Editor restores but does not delete for good.
    const eve = await site.personPage(ROLES.EDITOR, 'Eve Again');
    await admin(eve, '/content/notes?view=trash');
    const eveKite = eve.getByRole('group', { name: 'Actions for Kite' });
    await eveKite.getByRole('button', { name: 'Restore Kite' }).waitFor();
    expect(await eveKite.getByRole('button', { name: 'Delete permanently' }).count()).toBe(0);

    await admin(ada, '/content/notes?view=trash');
    await ada.getByRole('button', { name: 'Restore Kestrel' }).click();
    await ada.getByText('Restore: 1 of 1 done.').waitFor();
    expect((await api('Ada Admin', 'GET', `/content/notes/${kept.id}`)).item.status).toBe('draft');
    const kite = ada.getByRole('group', { name: 'Actions for Kite' });
    await kite.getByRole('button', { name: 'Delete permanently' }).click();
    await shot(ada, 'trash-row-confirm');
    await kite.getByRole('button', { name: 'Delete', exact: true }).click();
    await ada.getByText('Delete permanently: 1 of 1 done.').waitFor();
    const res = await fetch(`${site.origin}/_cms/api/content/notes/${gone.id}`, {
      headers: { authorization: `Bearer ${tokens['Ada Admin']}` },
    });
    expect(res.status).toBe(404);
    await expect.poll(() => ada.getByRole('group', { name: /^Actions for / }).count()).toBe(0);
  });

  it('a collection without a singular name makes "New entry"', async () => {
    await api('Ada Admin', 'POST', '/schema/collections', {
      slug: 'recipes',
      label: 'Recipes',
      fields: [{ slug: 'title', label: 'Title', type: 'string' }],
    });
    await admin(ada, '/content/recipes');
    await ada.getByText('No entry yet.', { exact: false }).waitFor();
    await ada.getByRole('link', { name: 'New entry' }).click();
    await ada.getByRole('heading', { level: 1, name: 'New entry' }).waitFor();
    expect(await ada.getByText(/New recipes/i).count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
