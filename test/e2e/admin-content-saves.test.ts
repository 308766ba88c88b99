/**
 * Every save takes what the editor shows: words typed in rich text (top level or inside a block)
 * are stored even when the save comes at once — Create draft, Ctrl+S, Publish, leaving the
 * page — and a JSON text that does not parse is never reported as saved. The tests type with
 * no pause and read the stored entry back over REST.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { type ContentSite, callSite, startContentSite } from '../helpers/content-site.js';
import { describeEachDialect } from '../helpers/db.js';

type Block = { _type: string; children?: Array<{ text: string }> };

/** The text of Portable Text, one line per block. */
const textOf = (v: unknown): string | null =>
  Array.isArray(v) ? (v as Block[]).map((b) => (b.children ?? []).map((s) => s.text).join('')).join('\n') : null;

const para = (text: string, key = 'p') => [
  {
    _type: 'block',
    _key: key,
    style: 'normal',
    markDefs: [],
    children: [{ _type: 'span', _key: `${key}s`, text, marks: [] }],
  },
];

describeEachDialect('admin editor: a save takes what was just typed', (dialect) => {
  if (!hasChromium) {
    it.skipIf(!process.env.CI)('needs Debian chromium at /usr/bin/chromium', () => {
      throw new Error('/usr/bin/chromium is missing');
    });
    return;
  }
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let site: ContentSite;
  let page: Page;
  let token = '';
  const problems: string[] = [];

  const api = <T = any>(method: string, path: string, body?: unknown) =>
    callSite<T>(site.origin, token, method, path, body);
  const stored = async (id: string) => (await api<any>('GET', `/content/walks/${id}`)).item;
  const open = async (id: string) => {
    await page.goto(`${site.origin}/_cms/admin/content/walks/${id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
  };
  const saveState = () => page.locator('.save-state');
  /** A published entry: in this collection it is saved only when someone asks (no autosave). */
  async function live(data: Record<string, unknown>) {
    const { item } = await api<any>('POST', '/content/walks', { data });
    return (await api<any>('POST', `/content/walks/${item.id}/publish`, {})).item;
  }
  /** The rich text editor of a field, with the caret put at the end of its text. */
  async function caretAtEnd(testId: string) {
    const editable = page.getByTestId(testId).locator('[contenteditable="true"]');
    await editable.click();
    await page.keyboard.press('Control+End');
    return editable;
  }

  beforeAll(async () => {
    await ensureAdminBuilt();
    browser = await launchChromium();
    site = await startContentSite(dialect, browser, problems);
    page = await site.personPage(ROLES.EDITOR, 'Wren Walker');
    ({ token } = await site.cms.services.tokens.create(null, { userId: site.users['Wren Walker'], name: 'e2e' }));
    await api('POST', '/schema/block-types', {
      slug: 'note',
      label: 'Note',
      fields: [{ slug: 'text', label: 'Note text', type: 'portableText' }],
    });
    await api('POST', '/schema/collections', {
      slug: 'walks',
      label: 'Walks',
      labelSingular: 'Walk',
      // Without revisions a live entry does not save itself: only the save that is asked for stores it.
      supports: ['drafts'],
      fields: [
        { slug: 'title', label: 'Title', type: 'string', required: true },
        { slug: 'body', label: 'Body', type: 'portableText' },
        { slug: 'extra', label: 'Extra', type: 'json' },
        { slug: 'parts', label: 'Parts', type: 'blocks', validation: { allowedTypes: ['note'] } },
      ],
    });
  }, 180_000);

  afterAll(async () => {
    await site?.close();
    await browser?.close();
  });

  it('Create draft right after one word stores the word', async () => {
    await page.goto(`${site.origin}/_cms/admin/content/walks/new`);
    await page.getByLabel('Title').fill('One word');
    await page.getByTestId('pt-body').locator('[contenteditable="true"]').click();
    await page.keyboard.type('Towpath');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL(/\/content\/walks\/[0-9A-Z]{26}$/);
    const id = page.url().split('/').pop() as string;
    expect(textOf((await stored(id)).data.body)).toBe('Towpath');
    // The page that opens shows what is stored.
    await expect
      .poll(() => page.getByTestId('pt-body').locator('[contenteditable="true"]').textContent())
      .toBe('Towpath');
    await expect.poll(() => saveState().textContent()).toBe('All changes saved');
  });

  it('Create draft right after a sentence stores the whole sentence', async () => {
    await page.goto(`${site.origin}/_cms/admin/content/walks/new`);
    await page.getByLabel('Title').fill('A sentence');
    await page.getByTestId('pt-body').locator('[contenteditable="true"]').click();
    await page.keyboard.type('We walked the towpath');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.waitForURL(/\/content\/walks\/[0-9A-Z]{26}$/);
    const id = page.url().split('/').pop() as string;
    expect(textOf((await stored(id)).data.body)).toBe('We walked the towpath');
  });

  it('Ctrl+S right after typing saves every word, and the state says so only then', async () => {
    const item = await live({ title: 'Update', body: para('Along') });
    await open(item.id);
    await caretAtEnd('pt-body');
    await page.keyboard.type(' the towpath');
    // Typed, not yet saved: the editor does not claim otherwise.
    expect(await saveState().textContent()).toMatch(/^Unsaved changes/);
    await page.keyboard.press('Control+s');
    await expect.poll(() => saveState().textContent(), { timeout: 10_000 }).toMatch(/^Saved/);
    expect(textOf((await stored(item.id)).data.body)).toBe('Along the towpath');
  });

  it('Publish right after typing publishes every word', async () => {
    const { item } = await api<any>('POST', '/content/walks', { data: { title: 'Publish', body: para('To the') } });
    await open(item.id);
    await caretAtEnd('pt-body');
    await page.keyboard.type(' lock gates');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Published.').waitFor();
    const now = await stored(item.id);
    expect(now.status).toBe('published');
    expect(textOf(now.data.body)).toBe('To the lock gates');
  });

  it('rich text inside a block is saved at once too', async () => {
    const parts = [{ _type: 'note', _version: 1, _key: 'n1', text: para('Mind', 'n') }];
    const item = await live({ title: 'Blocks', parts });
    await open(item.id);
    const editable = page.locator('[data-field="parts.0.text"] [contenteditable="true"]');
    await editable.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' the bikes');
    await page.keyboard.press('Control+s');
    await expect.poll(() => saveState().textContent(), { timeout: 10_000 }).toMatch(/^Saved/);
    expect(textOf((await stored(item.id)).data.parts[0].text)).toBe('Mind the bikes');
  });

  it('leaving the page right after typing saves what was typed', async () => {
    const { item } = await api<any>('POST', '/content/walks', { data: { title: 'Leave', body: para('Past the') } });
    await open(item.id);
    await caretAtEnd('pt-body');
    await page.keyboard.type(' old mill');
    await page
      .locator('.sidebar')
      .getByRole('link', { name: /^Walks/ })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Walks' }).waitFor();
    await expect.poll(async () => textOf((await stored(item.id)).data.body)).toBe('Past the old mill');
  });

  it('an address refused inside a rich text block stops the save instead of keeping the old one', async () => {
    const body = [...para('A heron'), { _type: 'image', _key: 'img', src: '/heron.jpg', alt: 'Heron' }];
    const item = await live({ title: 'Image', body });
    await open(item.id);
    await page.getByTestId('pt-body').getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Image address').fill('javascript:alert(1)');
    await page.keyboard.press('Control+s');
    await page.getByText('Please correct the highlighted fields.').waitFor();
    expect(await saveState().textContent()).toMatch(/^Unsaved changes/);
    expect((await stored(item.id)).data.body[1].src).toBe('/heron.jpg');
    await page.getByLabel('Image address').fill('/grey-heron.jpg');
    await page.keyboard.press('Control+s');
    await expect.poll(() => saveState().textContent(), { timeout: 10_000 }).toMatch(/^Saved/);
    expect((await stored(item.id)).data.body[1].src).toBe('/grey-heron.jpg');
  });

  it('JSON that does not parse is not saved and not reported as saved', async () => {
    const item = await live({ title: 'Json', extra: { miles: 3 } });
    await open(item.id);
    const json = page.getByLabel(/^Extra/);
    await json.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(', "hills": ');
    expect(await saveState().textContent()).toMatch(/^Unsaved changes/);
    await page.keyboard.press('Control+s');
    await page.getByText('Please correct the highlighted fields.').waitFor();
    expect(await saveState().textContent()).toMatch(/^Unsaved changes/);
    expect((await stored(item.id)).data.extra).toEqual({ miles: 3 });
    // Finished, it saves.
    await page.keyboard.type('2}');
    await page.keyboard.press('Control+s');
    await expect.poll(() => saveState().textContent(), { timeout: 10_000 }).toMatch(/^Saved/);
    expect((await stored(item.id)).data.extra).toEqual({ miles: 3, hills: 2 });
    expect(problems).toEqual([]);
  });
});
