/**
 * The usage panel of one media item in the media library, in headless
 * Chromium against the real service (temporary SQLite database): an image
 * chosen by an image field of one entry, placed as a Portable Text image
 * block in another, and set as the site logo is listed with both entries
 * (linked to their editors), the `logo` setting, the count and the coverage
 * text of a complete index. The screenshot goes to the system temp folder.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import {
  describeWithChromium,
  launchChromium,
  type Site,
  signedInPage,
  startSite,
  stopSite,
} from '../helpers/browser.js';
import { callOk } from '../helpers/cms.js';
import { uploaded } from '../helpers/media.js';

const PANEL_SHOT = join(tmpdir(), 'cms-media-usage-panel.png');

describeWithChromium('media usage panel end to end', () => {
  let site: Site;
  let browser: Browser;
  let cookie: string;
  let token: string;
  const problems: string[] = [];
  const ok = (method: string, path: string, body: unknown) => callOk(site.cms, token, method, path, body);

  beforeAll(async () => {
    await ensureAdminBuilt();
    site = await startSite('media-usage-panel');
    const { cms } = site;
    // Arranged through the API, not the UI: the editors have their own tests.
    const { user } = await cms.services.users.create(null, { email: 'ada@example.test', name: 'Ada' });
    cookie = (await cms.services.auth.sessions.create(cms.ctx.db, user.id, 'passkey')).id;
    token = (await cms.services.tokens.create(null, { userId: user.id, name: 'seed' })).token;
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stopSite(site);
  });

  it('lists the entries using an image (field and rich text) and the logo setting, with complete coverage', async () => {
    const { cms, origin } = site;
    await ok('POST', '/schema/collections', {
      slug: 'posts',
      label: 'Posts',
      fields: [
        { slug: 'title', label: 'Title', type: 'string' },
        { slug: 'cover', label: 'Cover', type: 'image' },
        { slug: 'story', label: 'Story', type: 'portableText' },
      ],
    });
    const bytes = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#2e86c1' } })
      .png()
      .toBuffer();
    const item = await uploaded(cms, bytes, { name: 'harbour.png', token });
    const cover = { id: item.id, provider: 'local', src: item.url, alt: '', width: 320, height: 200 };
    const byField = await ok('POST', '/content/posts', { data: { title: 'Harbour at dawn', cover } });
    const byBlock = await ok('POST', '/content/posts', {
      data: {
        title: 'Notes from the quay',
        story: [
          {
            _type: 'block',
            _key: 'p1',
            style: 'normal',
            children: [{ _type: 'span', _key: 's1', text: 'Morning light.', marks: [] }],
            markDefs: [],
          },
          { _type: 'image', _key: 'img1', asset: { _ref: item.id } },
        ],
      },
    });
    await ok('POST', '/content/posts', { data: { title: 'Unrelated' } });
    await ok('PUT', '/settings', { logo: item.id });

    const page = await signedInPage(
      browser,
      { origin, session: cookie, problems },
      { viewport: { width: 1280, height: 900 } },
    );
    await page.goto(`${origin}/_cms/admin/media`);
    await page.getByRole('heading', { level: 1, name: 'Media' }).waitFor();
    await page
      .getByRole('list', { name: 'Media files' })
      .getByRole('button')
      .filter({ hasText: 'harbour.png' })
      .click();
    const details = page.getByRole('complementary', { name: 'Details of harbour.png' });
    const panel = details.getByRole('region', { name: 'Usage' });
    await panel.getByText('Used 3 times.').waitFor();
    await panel.getByText('Every collection is indexed.').waitFor();
    await panel.getByText('Site settings: logo').waitFor();

    const links = panel.getByRole('link');
    await expect.poll(() => links.count()).toBe(2);
    const listed = [];
    for (const link of await links.all()) {
      listed.push({ text: await link.textContent(), href: await link.getAttribute('href') });
    }
    listed.sort((x, y) => String(x.text).localeCompare(String(y.text)));
    expect(listed).toEqual([
      { text: 'Harbour at dawn', href: `/_cms/admin/content/posts/${byField.item.id}` },
      { text: 'Notes from the quay', href: `/_cms/admin/content/posts/${byBlock.item.id}` },
    ]);
    expect(await panel.textContent()).not.toContain('Unrelated');
    // Each entry names its collection, locale and status next to the link.
    expect(await panel.getByRole('listitem').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('posts · en · draft')]),
    );

    // The whole page clipped to the details, so the sticky top bar does not cover the panel's heading.
    await page.evaluate('window.scrollTo(0, 0)');
    const box = await details.boundingBox();
    expect(box).not.toBeNull();
    await page.screenshot({ path: PANEL_SHOT, fullPage: true, clip: box! });
    // The link leads to the entry's editor.
    await links.filter({ hasText: 'Harbour at dawn' }).click();
    await page.waitForURL(`**/content/posts/${byField.item.id}`);
    await page.context().close();
    expect(problems).toEqual([]);
  }, 60_000);
  it('sets the focal point by a click on the image, shows its marker and resets it to the centre', async () => {
    const { cms, origin } = site;
    const bytes = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#884422' } })
      .png()
      .toBuffer();
    const item = await uploaded(cms, bytes, { name: 'focus.png', token });
    const page = await signedInPage(
      browser,
      { origin, session: cookie, problems },
      { viewport: { width: 1280, height: 900 } },
    );
    await page.goto(`${origin}/_cms/admin/media`);
    await page.getByRole('list', { name: 'Media files' }).getByRole('button').filter({ hasText: 'focus.png' }).click();
    const details = page.getByRole('complementary', { name: 'Details of focus.png' });
    const picker = details.getByTestId('focal-point-picker');
    const box = (await picker.boundingBox())!;
    await picker.click({ position: { x: box.width * 0.25, y: box.height * 0.75 } });
    await details
      .getByText(/Focal point at 2[45] % across, 7[45] % down/)
      .first()
      .waitFor();
    const marker = details.getByTestId('focal-point-marker');
    expect(await marker.evaluate((el) => (el as unknown as { style: { left: string } }).style.left)).toMatch(
      /^2[45](\.\d+)?%$/,
    );
    await details.getByRole('button', { name: 'Save' }).click();
    await details.getByText('Saved.').waitFor();
    const saved = await callOk(cms, token, 'GET', `/media/${item.id}`);
    expect(saved.item.focalPoint.x).toBeCloseTo(0.25, 1);
    expect(saved.item.focalPoint.y).toBeCloseTo(0.75, 1);

    await details.getByRole('button', { name: 'Reset to centre' }).click();
    expect(await marker.evaluate((el) => (el as unknown as { style: { left: string } }).style.left)).toBe('50%');
    await details.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await callOk(cms, token, 'GET', `/media/${item.id}`)).item.focalPoint).toBeNull();
    await page.context().close();
    expect(problems).toEqual([]);
  }, 60_000);
});
