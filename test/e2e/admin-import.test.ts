/**
 * The WordPress import page in Chromium, against the real service on a
 * temporary SQLite database: an Admin uploads a small export, analyzes it,
 * prepares the schema (the posts collection is new), imports with progress and
 * reads the report; the entries exist afterwards. A second export's
 * attachments are copied from a local stand-in of the old site (one missing),
 * the entries are pointed at the copies and the featured image that was
 * copied is set (the other is listed as not set). The theme unit test export,
 * whose posts collection has comments turned off, shows how many comments
 * would be skipped; enabling comments there brings them in. Screenshots at
 * desktop and mobile widths land in test/e2e/screenshots/import/.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import { CHROMIUM, hasChromium, launchChromium, type Site, startSite, watchPage } from '../helpers/browser.js';
import { png } from '../helpers/media.js';

const SHOTS = resolve(import.meta.dirname, 'screenshots', 'import');
const EXPORT = '/work/shared/testdata/wxr/theme-preview.xml';
const THEME_UNIT = '/work/shared/testdata/wxr/themeunittestdata.wordpress.xml';

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
  let oldSite: Server;
  let oldBase = '';
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
    // The old site's uploads: red.png exists, missing.png answers 404.
    const red = await png(40, 30);
    oldSite = createServer((req, res) => {
      if (req.url === '/wp-content/uploads/red.png') res.writeHead(200, { 'content-type': 'image/png' }).end(red);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => oldSite.listen(0, '127.0.0.1', r));
    oldBase = `http://127.0.0.1:${(oldSite.address() as AddressInfo).port}`;
    // The stand-in listens on loopback, which the media copy refuses unless allowed.
    site = await startSite('import', { importAllowPrivateHosts: true });
    browser = await launchChromium();
    const { cms } = site;
    const { user } = await cms.services.users.create(null, { email: 'ada@example.test', name: 'Ada Admin', role: 50 });
    session = (await cms.services.auth.sessions.create(cms.database.db, user.id, 'setup')).id;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await site?.server.stop();
    await new Promise<void>((r) => (oldSite ? oldSite.close(() => r()) : r()));
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

  it('copies the attachments into the library, points the entries at the copies and sets featured images', async () => {
    const up = (name: string) => `${oldBase}/wp-content/uploads/${name}`;
    const thumb = (id: string) =>
      `<wp:postmeta><wp:meta_key><![CDATA[_thumbnail_id]]></wp:meta_key><wp:meta_value><![CDATA[${id}]]></wp:meta_value></wp:postmeta>`;
    const item = (id: string, type: string, title: string, extra: string) => `<item>
  <title><![CDATA[${title}]]></title><dc:creator><![CDATA[cook]]></dc:creator>
  <content:encoded><![CDATA[${type === 'recipe' ? `<p>Slice it.</p><p><img src="${up('red.png')}" alt="Red"/></p>` : ''}]]></content:encoded>
  <excerpt:encoded><![CDATA[]]></excerpt:encoded><wp:post_id>${id}</wp:post_id>
  <wp:post_date_gmt><![CDATA[2021-03-04 05:06:07]]></wp:post_date_gmt><wp:post_name><![CDATA[${title.toLowerCase()}]]></wp:post_name>
  <wp:status><![CDATA[${type === 'recipe' ? 'publish' : 'inherit'}]]></wp:status><wp:post_parent>0</wp:post_parent>
  <wp:menu_order>0</wp:menu_order><wp:post_type><![CDATA[${type}]]></wp:post_type>${extra}
</item>`;
    const file = join(site.dataDir, 'recipes.xml');
    writeFileSync(
      file,
      `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Kitchen</title><link>${oldBase}</link><description>d</description><language>en</language>
<wp:wxr_version>1.2</wp:wxr_version>
<wp:author><wp:author_id>1</wp:author_id><wp:author_login>cook</wp:author_login><wp:author_display_name><![CDATA[The Cook]]></wp:author_display_name></wp:author>
${item('1', 'recipe', 'Tomato', thumb('2'))}
${item('4', 'recipe', 'Basil', thumb('3'))}
${item('2', 'attachment', 'Red', `<wp:attachment_url>${up('red.png')}</wp:attachment_url>`)}
${item('3', 'attachment', 'Gone', `<wp:attachment_url>${up('missing.png')}</wp:attachment_url>`)}
</channel></rss>`,
    );

    const p = await page({ width: 1280, height: 900 });
    await p.goto(`${site.origin}/_cms/admin/import/blogplatform`);
    await p.getByLabel('WordPress export (.xml or .xml.gz)').setInputFiles(file);
    await p.getByRole('button', { name: 'Analyze' }).click();
    await p.getByTestId('import-type-recipe').waitFor();
    await p.getByRole('button', { name: 'Prepare' }).click();
    await p.getByTestId('prepare-result').waitFor();
    await p.getByRole('button', { name: 'Import', exact: true }).click();
    await p.getByTestId('import-report').waitFor({ timeout: 60_000 });
    expect(await p.getByTestId('import-imported').textContent()).toBe('2');
    // Attachments are the media step's work, counted as skipped with that reason.
    expect(await p.getByTestId('import-skipped').textContent()).toBe('2');
    expect(await p.getByTestId('import-row-attachment').textContent()).toContain('copied by the media step');

    await p.getByRole('button', { name: 'Copy media' }).click();
    await p.getByTestId('media-result').waitFor({ timeout: 60_000 });
    const summary = await p.getByTestId('media-result').textContent();
    expect(summary).toContain('Files copied: 1, already in the library: 0, failed: 1.');
    expect(summary).toContain('Addresses replaced: 2 in 2 entries.');
    // Tomato's thumbnail was copied; Basil's is the missing file: listed, the entry left without one.
    expect(summary).toContain('Featured images set: 1, already set: 0, failed: 1.');
    const unset = p.getByRole('table', { name: 'Featured images not set' });
    expect(await unset.textContent()).toContain('missing.png');
    expect(await unset.textContent()).toContain('MEDIA_NOT_COPIED');
    const failed = p.getByRole('table', { name: 'Files not copied' });
    expect(await failed.textContent()).toContain('missing.png');
    expect(await failed.textContent()).toContain('HTTP_STATUS');
    await shot(p, 'media-desktop');

    // The entry's image now points at the library copy, not at the old site.
    const res = await fetch(`${site.origin}/_cms/api/content/recipe?limit=5`, {
      headers: { cookie: `cms_session=${session}` },
    });
    const list = (await res.json()) as {
      data: { items: Array<{ slug: string; data: { body: unknown; featured_image?: { id: string; src: string } } }> };
    };
    expect(list.data.items).toHaveLength(2);
    const tomato = list.data.items.find((e) => e.slug === 'tomato');
    const body = JSON.stringify(tomato?.data.body);
    expect(body).not.toContain(`"src":"${up('red.png')}"`);
    expect(body).toContain(`"src":"${site.origin}/_cms/api/media/file/`);
    expect(tomato?.data.featured_image?.src).toBe(
      `${site.origin}/_cms/api/media/file/${tomato?.data.featured_image?.id}`,
    );
    expect(list.data.items.find((e) => e.slug === 'basil')?.data.featured_image ?? null).toBeNull();
    expect(problems).toEqual([]);
  }, 180_000);
  it('warns that a collection without comments would skip them, and enables comments when asked', async () => {
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${site.origin}/_cms/api${path}`, {
        method,
        headers: { cookie: `cms_session=${session}`, 'x-cms-request': '1', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const db = site.cms.database.db as any;
    const postComments = async () =>
      Number(
        (
          await db
            .selectFrom('_cms_comments')
            .select((eb: any) => eb.fn.countAll().as('n'))
            .where('collection', '=', 'posts')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await postComments();
    // The posts collection (made by the first test) with comments turned off in its settings.
    const col = await api('GET', '/schema/collections/posts');
    const supports: string[] = col.body.data.item?.supports ?? col.body.data.supports;
    const off = await api('PUT', '/schema/collections/posts', { supports: supports.filter((x) => x !== 'comments') });
    expect(off.status).toBe(200);

    const p = await page({ width: 1280, height: 900 });
    await p.goto(`${site.origin}/_cms/admin/import/blogplatform`);
    await p.getByLabel('WordPress export (.xml or .xml.gz)').setInputFiles(THEME_UNIT);
    await p.getByRole('button', { name: 'Analyze' }).click();
    const warning = p.getByTestId('import-comments-post');
    await warning.waitFor();
    const text = (await warning.textContent()) ?? '';
    expect(text).toContain('posts does not accept comments');
    const skipped = Number(/(\d+) comments? would be skipped/.exec(text)?.[1]);
    expect(skipped).toBeGreaterThan(0);
    await p.getByLabel('Skip entries that exist').check();
    await p.getByLabel('Enable comments on posts').check();
    await warning.scrollIntoViewIfNeeded();
    await shot(p, 'comments-warning-desktop');

    await p.getByRole('button', { name: 'Prepare' }).click();
    await p.getByTestId('prepare-result').waitFor();
    expect(await p.getByTestId('prepare-result').textContent()).toContain('Comments turned on for posts');
    await p.getByRole('button', { name: 'Import', exact: true }).click();
    await p.getByTestId('import-report').waitFor({ timeout: 120_000 });
    const reasons = (await p.getByTestId('import-comment-reasons').textContent()) ?? '';
    expect(reasons).not.toContain('does not accept comments');
    await shot(p, 'comments-report-desktop');

    // Every comment the review counted is now on the posts.
    expect((await postComments()) - before).toBe(skipped);
    expect(problems).toEqual([]);
  }, 240_000);
});
