/**
 * The public side's admin screens in Chromium, against the real service on a
 * temporary SQLite database: the comment queue (keyboard approve, bulk spam),
 * the 404 log turned into a redirect in one step, and "test a path".
 * Screenshots at desktop and mobile widths land in test/e2e/screenshots/public/.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/log.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { type Cms, createCms, resolveConfig } from '../../src/index.js';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import { CHROMIUM, hasChromium, launchChromium, watchPage } from '../helpers/browser.js';

const SHOTS = resolve(import.meta.dirname, 'screenshots', 'public');

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

if (!hasChromium && process.env.CI) {
  describe('public side admin', () => {
    it('needs Debian chromium at /usr/bin/chromium (.ci/run installs it)', () => {
      throw new Error(`${CHROMIUM} is missing`);
    });
  });
}

describe.skipIf(!hasChromium)('public side admin (Chromium)', () => {
  let cms: Cms;
  let server: RunningServer;
  let browser: Browser;
  let dataDir: string;
  let origin: string;
  let session: string;
  let entryId: string;
  const problems: string[] = [];

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${origin}/_cms/api${path}`, {
      method,
      headers: { cookie: `cms_session=${session}`, 'x-cms-request': '1', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { data: any } };
  };

  async function page(viewport = { width: 1280, height: 900 }): Promise<Page> {
    const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'UTC' });
    await context.addCookies([{ name: 'cms_session', value: session, url: origin }]);
    const p = await context.newPage();
    watchPage(p, problems);
    return p;
  }
  const shot = (p: Page, name: string) => p.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    await ensureAdminBuilt();
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'cms-public-'));
    const port = await freePort();
    origin = `http://localhost:${port}`;
    cms = await createCms({
      config: resolveConfig({
        dataDir,
        databaseUrl: `sqlite:${join(dataDir, 'cms.db')}`,
        publicUrl: origin,
        logLevel: 'silent',
      }),
      logger: createLogger('silent'),
    });
    server = await listen(cms, port, '127.0.0.1');
    browser = await launchChromium();

    // An Editor's session, a commentable collection with one published entry.
    const s = cms.services;
    const { user } = await s.users.create(null, { email: 'ed@example.test', name: 'Eddie Editor', role: 50 });
    await s.settings.writeIdentity({ title: 'Field Notes', tagline: null }, cms.database.db);
    session = (await s.auth.sessions.create(cms.database.db, user.id, 'setup')).id;
    await api('POST', '/schema/collections', {
      slug: 'posts',
      label: 'Posts',
      supports: ['drafts', 'comments', 'seo'],
      urlPattern: '/blog/{slug}',
      fields: [{ slug: 'title', label: 'Title', type: 'string' }],
    });
    const entry = await api('POST', '/content/posts', { data: { title: 'Planting tomatoes' }, slug: 'tomatoes' });
    entryId = entry.body.data.item.id;
    await api('POST', `/content/posts/${entryId}/publish`, {});
    const visitor = (i: number, body: Record<string, unknown>) =>
      fetch(`${origin}/_cms/api/comments/posts/${entryId}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin, 'user-agent': `visitor-${i}` },
        body: JSON.stringify(body),
      });
    await visitor(1, {
      authorName: 'Ann Gardener',
      body: 'Thanks! Mine are finally <b>red</b>.\nAny tips for blight?',
    });
    await visitor(2, { authorName: 'Bo', authorUrl: 'https://bo.example', body: 'Great post, bookmarked.' });
    await visitor(3, {
      authorName: 'Cheap Pills',
      body: 'buy http://a.example http://b.example http://c.example http://d.example',
    });
    // Visitors hit missing pages.
    for (let i = 0; i < 3; i++)
      await fetch(`${origin}/old-tomato-guide`, { headers: { referer: `${origin}/blog/tomatoes` } });
    await fetch(`${origin}/wp-login.php`);
    await cms.services.redirects.flush();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('moderates the queue with the keyboard and in bulk', async () => {
    const p = await page();
    await p.goto(`${origin}/_cms/admin/comments`);
    await p.getByRole('heading', { level: 1, name: 'Comments' }).waitFor();
    await p.getByRole('listitem', { name: /Comment by Ann Gardener/ }).waitFor();
    // Escaped on the way in, shown as typed.
    expect(await p.getByText('Mine are finally <b>red</b>.', { exact: false }).count()).toBe(1);
    expect(await p.locator('.tab--active .tab__count').textContent()).toBe('2');
    await shot(p, '01-queue');

    // Keyboard: focus the first card, move down, approve with "a".
    await p.getByRole('listitem', { name: /Comment by Bo/ }).focus();
    await p.keyboard.press('j');
    expect(await p.evaluate('document.activeElement?.getAttribute("aria-label")')).toMatch(/Ann Gardener/);
    await p.keyboard.press('a');
    await p.getByText('1 comment approved.').waitFor();
    await expect.poll(async () => (await api('GET', '/admin/comments/counts')).body.data.approved).toBe(1);

    // Bulk: select what is left and mark it as spam.
    await p.getByLabel('Select all on this page').check();
    await p
      .getByRole('toolbar', { name: 'Selected comments' })
      .getByRole('button', { name: 'Spam', exact: true })
      .click();
    await p.getByText('1 comment marked as spam.').waitFor();
    await p.getByText('Nothing waits for moderation.', { exact: false }).waitFor();
    await shot(p, '02-queue-empty');

    await p.getByRole('link', { name: /^Spam/ }).click();
    await p.getByText('Flagged as spam: many links').waitFor();
    await shot(p, '03-spam');
    const counts = (await api('GET', '/admin/comments/counts')).body.data;
    expect(counts).toMatchObject({ pending: 0, approved: 1, spam: 2 });
    // The approved comment is public now.
    const publicList = (await (await fetch(`${origin}/_cms/api/comments/posts/${entryId}`)).json()) as {
      data: { items: Array<{ authorName: string }> };
    };
    expect(publicList.data.items.map((c: { authorName: string }) => c.authorName)).toEqual(['Ann Gardener']);
    await p.context().close();
  });

  it('turns a 404 into a redirect in one step and tests a path', async () => {
    const p = await page();
    await p.goto(`${origin}/_cms/admin/not-found`);
    await p.getByRole('heading', { level: 1, name: '404 log' }).waitFor();
    const row = p.getByRole('row', { name: /old-tomato-guide/ });
    await row.waitFor();
    expect(await row.getByRole('cell').nth(1).textContent()).toBe('3');
    await shot(p, '04-not-found-log');
    await row.getByRole('link', { name: /Create a redirect/ }).click();
    await p.getByRole('heading', { name: 'Redirect /old-tomato-guide' }).waitFor();
    expect(await p.getByLabel('From (path on this site)').inputValue()).toBe('/old-tomato-guide');
    await p.getByLabel('To', { exact: true }).fill('/blog/tomatoes');
    await shot(p, '05-redirect-from-404');
    await p.getByRole('button', { name: 'Add redirect' }).click();
    await p.getByText('Visitors of /old-tomato-guide now go to /blog/tomatoes.', { exact: false }).waitFor();
    await p.getByRole('cell', { name: /old-tomato-guide → \/blog\/tomatoes/ }).waitFor();

    // The site answers the old address with the rule now, and its log entries are gone.
    const res = await fetch(`${origin}/old-tomato-guide`, { redirect: 'manual' });
    expect([res.status, res.headers.get('location')]).toEqual([301, '/blog/tomatoes']);
    const summary = (await api('GET', '/redirects/404s/summary')).body.data;
    expect(summary.items.map((g: { path: string }) => g.path)).toEqual(['/wp-login.php']);

    // A field error shows next to its input.
    await p.getByLabel('From (path on this site)').fill('/a');
    await p.getByLabel('To', { exact: true }).fill('/a/');
    await p.getByRole('button', { name: 'Add redirect' }).click();
    await p.getByText(/loops: \/a → \/a/).waitFor();
    expect(await p.getByLabel('To', { exact: true }).getAttribute('aria-invalid')).toBe('true');

    await p.getByLabel('Path', { exact: true }).fill('/old-tomato-guide?utm=mail');
    await p.getByRole('button', { name: 'Test', exact: true }).click();
    await p.getByText('/old-tomato-guide → /blog/tomatoes?utm=mail', { exact: false }).waitFor();
    await shot(p, '06-redirects');
    await p.context().close();
  });

  it('works at mobile width', async () => {
    const p = await page({ width: 390, height: 844 });
    await p.goto(`${origin}/_cms/admin/comments?status=all`);
    await p.getByRole('listitem', { name: /Comment by Ann Gardener/ }).waitFor();
    await shot(p, '07-mobile-comments');
    await p.goto(`${origin}/_cms/admin/redirects`);
    await p.getByRole('cell', { name: /old-tomato-guide → / }).waitFor();
    await shot(p, '08-mobile-redirects');
    await p.context().close();
    expect(problems).toEqual([]);
  });
});
