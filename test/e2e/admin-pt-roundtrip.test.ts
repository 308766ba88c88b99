/**
 * Imported Portable Text survives the admin entry editor: the block test data
 * (64-block-test-data.xml and gutenberg-test-data.xml) is imported into a fresh
 * site, then entries carrying paragraphs, headings, lists, quotes, images,
 * galleries, embeds, audio and video, code, tables, flattened columns and the
 * marked unconverted `html` block are opened in the editor. Each block kind
 * must be shown; a net-zero edit in the body (type, then delete) makes the
 * editor hand over its own value, a title change makes the entry save; the
 * stored body must equal what the import produced, block by block.
 */
import { createReadStream, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../../src/auth/actor.js';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import { hasChromium, launchChromium, type Site, startSite, watchPage } from '../helpers/browser.js';
import { WXR_DIR } from '../helpers/wxr.js';

const SHOTS = resolve(import.meta.dirname, 'screenshots', 'import');

/** Entries (posts by slug) that together carry every kind of block the converter makes. */
const ENTRIES = [
  'footnotes', // h1–h6, bulleted and numbered lists, quote, html (unconverted)
  'list', // nested lists
  'code',
  'table',
  'gallery',
  'media-text', // image beside text, html
  'gutenberg-common-blocks', // audio, video, image, lists, quote
  'gutenberg-formatting-blocks', // code, table, html, quote
  'gutenberg-embed-blocks', // embeds
  'gutenberg-columns', // columns flattened: images, breaks
];

type Block = Record<string, unknown> & { _type: string; _key: string; style?: string; listItem?: string };

/** The selector that shows a block of this kind in the editor, and its label. */
function shownAs(b: Block): { css: string; text?: string } {
  if (b._type === 'block') {
    if (b.listItem) return { css: `.pt-li--${b.listItem}` };
    if (b.style === 'blockquote') return { css: '.pt__editable blockquote' };
    if (b.style && /^h[1-4]$/.test(b.style)) return { css: `.pt-${b.style}` };
    return { css: '.pt-p' };
  }
  return { css: '.pt-object__head strong', text: b._type === 'image' ? 'Image' : `Block "${b._type}"` };
}

describe.skipIf(!hasChromium)('Imported Portable Text through the entry editor (Chromium)', () => {
  let site: Site;
  let browser: Browser;
  let session: string;
  const problems: string[] = [];

  async function api(path: string) {
    const res = await fetch(`${site.origin}/_cms/api${path}`, { headers: { cookie: `cms_session=${session}` } });
    expect(res.status, path).toBe(200);
    return ((await res.json()) as { data: any }).data;
  }

  beforeAll(async () => {
    await ensureAdminBuilt();
    mkdirSync(SHOTS, { recursive: true });
    site = await startSite('pt-roundtrip');
    const { cms } = site;
    for (const name of ['64-block-test-data.xml', 'gutenberg-test-data.xml']) {
      const open = () => createReadStream(join(WXR_DIR, name));
      const analysis = await cms.services.import.analyze(systemActor, open);
      const chosen = analysis.postTypes.map((pt) => ({ name: pt.name, collection: pt.collection, fields: pt.fields }));
      const prepared = await cms.services.import.prepare(systemActor, chosen);
      expect(prepared.success).toBe(true);
      const result = await cms.services.import.execute(systemActor, open, {
        postTypeMappings: Object.fromEntries(chosen.map((c) => [c.name, c.collection])),
        skipExisting: false,
        authorMappings: {},
        importSections: true,
      } as never);
      expect(result.errors).toEqual([]);
    }
    browser = await launchChromium();
    const { user } = await cms.services.users.create(null, { email: 'ada@example.test', name: 'Ada Admin', role: 50 });
    session = (await cms.services.auth.sessions.create(cms.database.db, user.id, 'setup')).id;
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await site?.server.stop();
  });

  it('shows every block kind and stores the imported body unchanged after an edit and a save', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    await context.addCookies([{ name: 'cms_session', value: session, url: site.origin }]);
    const p: Page = await context.newPage();
    watchPage(p, problems);
    const kinds = new Set<string>();
    for (const slug of ENTRIES) {
      const rows = await (site.cms.ctx.db as any)
        .selectFrom('ec_posts')
        .select('id')
        .where('slug', '=', slug)
        .execute();
      expect(rows, slug).toHaveLength(1);
      const id = rows[0].id as string;
      const before = await api(`/content/posts/${id}`);
      const body = before.item.data.body as Block[];
      expect(Array.isArray(body) && body.length > 0, slug).toBe(true);

      await p.goto(`${site.origin}/_cms/admin/content/posts/${id}`);
      const editor = p.getByTestId('pt-body');
      const editable = editor.locator('[contenteditable="true"]').first();
      await editable.waitFor();
      // Each block kind of the body is on screen (not a blank editor, not an error).
      for (const b of body) {
        const how = shownAs(b);
        const key = b._type === 'block' ? `${b.listItem ?? b.style}` : b._type;
        if (kinds.has(`${slug}:${key}`)) continue;
        kinds.add(`${slug}:${key}`);
        kinds.add(key);
        const shown = how.text ? editor.locator(how.css, { hasText: how.text }) : editor.locator(how.css);
        expect(await shown.count(), `${slug}: ${key}`).toBeGreaterThan(0);
      }
      expect(await editable.locator(':scope > [data-pt-block]').count(), `${slug}: blocks shown`).toBe(body.length);

      // A net-zero edit in the first text block: the editor now hands over its own value.
      const first = editor.locator('.pt-p').first();
      const saveState = p.locator('.save-state').first();
      if (await first.count()) {
        const text = (await first.textContent()) ?? '';
        // Wherever the click puts the caret: one character typed, then taken back.
        await first.click();
        await p.keyboard.type('x');
        // Wait for the editor to show each step before the next: its selection syncs asynchronously.
        await expect.poll(async () => (await first.textContent())?.length).toBe(text.length + 1);
        // The editor handed its value to the form: the entry is dirty …
        await expect.poll(() => saveState.textContent()).toMatch(/^Unsaved changes/);
        await p.keyboard.press('Backspace');
        await expect.poll(() => first.textContent()).toBe(text);
        // … and once the character is gone, the editor's whole value is the loaded one again (same JSON text).
        await expect.poll(() => saveState.textContent()).not.toMatch(/^Unsaved changes/);
      }
      const title = p.getByLabel('Title', { exact: true });
      await title.fill(`${before.item.data.title} (checked)`);
      // Save now (the editor's shortcut) rather than waiting for the autosave.
      const saved = p.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/content/posts/${id}`));
      await p.keyboard.press('Control+s');
      const sent = JSON.parse((await saved).postData() ?? '{}') as { data?: { body?: Block[] } };
      // The body goes out only when the editor's value differs from what it loaded (compared as JSON text):
      // then what it sent must still be the same content.
      if (sent.data?.body) {
        expect(sent.data.body, `${slug}: body the editor sent`).toEqual(body);
      }
      await p
        .locator('.save-state', { hasText: /^Saved/ })
        .first()
        .waitFor({ timeout: 15_000 });
      if (slug === 'gutenberg-common-blocks') {
        await p.screenshot({ path: join(SHOTS, 'pt-roundtrip-editor.png'), fullPage: true });
      }

      const after = await api(`/content/posts/${id}`);
      expect(after.item.data.title).toBe(`${before.item.data.title} (checked)`);
      const stored = after.item.data.body as Block[];
      expect(stored.length, slug).toBe(body.length);
      body.forEach((b, i) => {
        expect(stored[i], `${slug} block ${i} (${b._type})`).toEqual(b);
      });
    }
    for (const k of ['normal', 'h1', 'h2', 'h3', 'bullet', 'number', 'blockquote', 'image', 'gallery', 'embed']) {
      expect(kinds.has(k), k).toBe(true);
    }
    for (const k of ['code', 'table', 'audio', 'video', 'break', 'html']) expect(kinds.has(k), k).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
