/**
 * The editor's preview of the example site (examples/blog): with no site address the Preview
 * card has no button and says how to configure it; with one, Preview links to the entry's
 * page on the blog with a token, and the live preview frames that page and shows an
 * autosaved change, the blog having re-rendered in place on the `cms:preview:refresh`
 * message (it answered the ack, so the frame was not reloaded).
 */
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningBlog, startBlog } from '../../examples/blog/server.js';
import { ROLES } from '../../src/auth/roles.js';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { type ContentSite, callSite, startContentSite } from '../helpers/content-site.js';
import { describeEachDialect } from '../helpers/db.js';

describeEachDialect('admin editor: Preview and live preview', (dialect) => {
  if (!hasChromium) {
    it.skipIf(!process.env.CI)('needs Debian chromium at /usr/bin/chromium', () => {
      throw new Error('/usr/bin/chromium is missing');
    });
    return;
  }
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let site: ContentSite;
  let front: RunningBlog;
  let page: Page;
  let token = '';
  let entryId = '';
  const problems: string[] = [];

  const api = <T = any>(method: string, path: string, body?: unknown) =>
    callSite<T>(site.origin, token, method, path, body);
  const card = () => page.locator('section.preview-card');

  beforeAll(async () => {
    await ensureAdminBuilt();
    browser = await launchChromium();
    site = await startContentSite(dialect, browser, problems);
    // Preview reads need no token of the blog's own.
    front = await startBlog({ cmsUrl: site.origin });
    page = await site.personPage(ROLES.ADMIN, 'Ada Admin');
    ({ token } = await site.cms.services.tokens.create(null, { userId: site.users['Ada Admin'], name: 'e2e' }));
    await api('POST', '/schema/collections', {
      slug: 'posts',
      label: 'Posts',
      labelSingular: 'Post',
      supports: ['drafts'],
      urlPattern: '/posts/{slug}',
      fields: [{ slug: 'title', label: 'Title', type: 'string', required: true }],
    });
    ({
      item: { id: entryId },
    } = await api<any>('POST', '/content/posts', { slug: 'first-light', data: { title: 'First light' } }));
  }, 180_000);

  afterAll(async () => {
    await site?.close();
    await front?.close();
    await browser?.close();
  });

  it('without a site address there is no Preview button, and the editor says where to set one', async () => {
    await page.goto(`${site.origin}/_cms/admin/content/posts/${entryId}`);
    await card().getByText('No site front end is configured').waitFor();
    await expect(card().getByRole('link', { name: 'site address' }).getAttribute('href')).resolves.toMatch(
      /\/settings$/,
    );
    expect(
      await card()
        .getByRole('link', { name: /^Preview/ })
        .count(),
    ).toBe(0);
    expect(await card().getByRole('button', { name: 'Live preview' }).count()).toBe(0);
  });

  it('Preview links to the page with a token; the live preview shows an autosaved change in the frame', async () => {
    await api('PUT', '/settings', { siteUrl: front.url });
    // The shell's CSP frames the site's origin, so the page is loaded after the setting.
    await page.goto(`${site.origin}/_cms/admin/content/posts/${entryId}`);
    const preview = card().getByRole('link', { name: /^Preview/ });
    await preview.waitFor();
    const href = new URL((await preview.getAttribute('href')) as string);
    expect(`${href.origin}${href.pathname}`).toBe(`${front.url}/posts/first-light`);
    expect(href.searchParams.get('preview')).toMatch(/^pv1\./);
    expect(await preview.getAttribute('target')).toBe('_blank');

    await card().getByRole('button', { name: 'Live preview' }).click();
    const heading = page.frameLocator('iframe.editor__preview-frame').locator('#post h1');
    await expect.poll(() => heading.textContent(), { timeout: 10_000 }).toBe('First light');
    // A mark on this page load: a reload of the frame would lose it.
    const blogPage = () => page.frames().find((f) => f.url().startsWith(`${front.url}/posts/first-light?`));
    await (blogPage() as Frame).evaluate(() => {
      (globalThis as unknown as { loadMark: string }).loadMark = 'first load';
    });

    await page.getByLabel('Title').fill('First light over the estuary');
    await expect.poll(() => page.locator('.save-state').textContent(), { timeout: 10_000 }).toMatch(/^Saved/);
    await expect.poll(() => heading.textContent(), { timeout: 10_000 }).toBe('First light over the estuary');
    // Re-rendered in place after the blog's ack: the same page load, and the editor says so.
    expect(await (blogPage() as Frame).evaluate(() => (globalThis as unknown as { loadMark?: string }).loadMark)).toBe(
      'first load',
    );
    await page
      .locator('.editor__preview')
      .getByText(/^Updated after the save/)
      .waitFor();
    expect(problems).toEqual([]);
  });

  it('an Admin rotates the preview secret from Settings, after confirming, and earlier links stop working', async () => {
    const { token: old } = await api<{ token: string }>('GET', `/content/posts/${entryId}/preview-url`);
    const read = async (): Promise<{ success: boolean; error?: unknown }> => {
      const res = await fetch(`${site.origin}/_cms/api/content/posts/first-light?preview=${encodeURIComponent(old)}`);
      return (await res.json()) as { success: boolean; error?: unknown };
    };
    expect((await read()).success).toBe(true);
    await page.goto(`${site.origin}/_cms/admin/settings`);
    await page.getByRole('button', { name: 'Rotate preview secret' }).click();
    await page.getByText('Every preview link handed out so far stops working').waitFor();
    // Asked, not yet done.
    expect((await read()).success).toBe(true);
    await page.getByRole('button', { name: 'Rotate: end every preview link' }).click();
    await page.getByText('Preview secret rotated').waitFor();
    expect((await read()).error).toMatchObject({ code: 'PREVIEW_TOKEN_INVALID', details: { reason: 'forged' } });
    expect(problems).toEqual([]);
  });
});
