/**
 * The Sections and Widget areas pages save what they show, like the entry editor: Portable Text
 * JSON (or a custom widget's data) that does not parse stops the save with the field's problem
 * shown, sends nothing and claims nothing saved; words typed in the rich text editor are stored
 * even when Save comes at once. The tests type with no pause and read the stored records over REST.
 * One database is enough: the pages are the same on both.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { type ContentSite, callSite, startContentSite } from '../helpers/content-site.js';

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

const REFUSED = 'Please correct the highlighted fields.';

describe.skipIf(!hasChromium && !process.env.CI)('admin sections and widgets: a save takes what is shown', () => {
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let site: ContentSite;
  let page: Page;
  let token = '';
  const problems: string[] = [];
  /** Writes the pages sent, as `METHOD path`. */
  const writes: string[] = [];

  const api = <T = any>(method: string, path: string, body?: unknown) =>
    callSite<T>(site.origin, token, method, path, body);
  const section = (slug: string) => api<any>('GET', `/sections/${slug}`);
  const widget = async (area: string) => (await api<any>('GET', `/widget-areas/${area}`)).widgets[0];
  /** The JSON text area of a rich text field, with its caret at the end. */
  async function jsonAtEnd(label: string) {
    const json = page.getByLabel(label);
    await json.click();
    await page.keyboard.press('Control+End');
    return json;
  }

  beforeAll(async () => {
    if (!hasChromium) throw new Error('needs Debian chromium at /usr/bin/chromium');
    await ensureAdminBuilt();
    browser = await launchChromium();
    site = await startContentSite('sqlite', browser, problems);
    page = await site.personPage(ROLES.EDITOR, 'Wren Walker');
    ({ token } = await site.cms.services.tokens.create(null, { userId: site.users['Wren Walker'], name: 'e2e' }));
    page.on('request', (r) => {
      if (r.method() !== 'GET' && r.url().includes('/_cms/api/'))
        writes.push(`${r.method()} ${new URL(r.url()).pathname}`);
    });
  }, 180_000);

  afterAll(async () => {
    await site?.close();
    await browser?.close();
  });

  /** A section or widget area of its own for each test, opened in the admin. */
  async function openSection(slug: string, text: string) {
    await api('POST', '/sections', { slug, title: `Section ${slug}`, content: para(text) });
    await page.goto(`${site.origin}/_cms/admin/sections/${slug}`);
    await page.getByRole('button', { name: 'Save section' }).waitFor();
    writes.length = 0;
  }
  async function openWidget(area: string, type: string, settings: Record<string, unknown>) {
    await api('POST', '/widget-areas', { name: area, label: `Area ${area}` });
    await api('POST', `/widget-areas/${area}/widgets`, { type, title: 'Notes', settings });
    await page.goto(`${site.origin}/_cms/admin/widgets/${area}`);
    await page.getByRole('button', { name: 'Edit Notes' }).click();
    await page.getByRole('button', { name: 'Save widget' }).waitFor();
    writes.length = 0;
  }

  it('section: Portable Text JSON that does not parse is not saved and not reported saved', async () => {
    await openSection('notes', 'Get the notes');
    await page.getByRole('button', { name: 'Edit as Portable Text JSON' }).click();
    const json = page.getByLabel('Text (Portable Text JSON)');
    // A valid edit, then one that breaks the JSON: the screen shows the broken text.
    await json.fill(JSON.stringify(para('Get the weekly notes'), null, 2));
    await jsonAtEnd('Text (Portable Text JSON)');
    await page.keyboard.type(' oops');
    await page.getByRole('button', { name: 'Save section' }).click();
    await page
      .getByText(new RegExp(`Section saved\\.|${REFUSED}`))
      .first()
      .waitFor();
    expect(textOf((await section('notes')).content)).toBe('Get the notes');
    expect(writes).toEqual([]);
    expect(await page.getByText('Section saved.').count()).toBe(0);
    await page.getByText(REFUSED).waitFor();
    await page.getByText(/^⚠ JSON syntax: /).waitFor();

    // Finished, it saves what is shown (Save took the focus: the caret goes back to the end).
    await jsonAtEnd('Text (Portable Text JSON)');
    for (let i = 0; i < ' oops'.length; i++) await page.keyboard.press('Backspace');
    await page.getByRole('button', { name: 'Save section' }).click();
    await page.getByText('Section saved.').waitFor();
    expect(textOf((await section('notes')).content)).toBe('Get the weekly notes');

    // Broken again after that save: the notice goes, and Save keeps refusing.
    await jsonAtEnd('Text (Portable Text JSON)');
    await page.keyboard.type(',');
    await expect.poll(() => page.getByText('Section saved.').count()).toBe(0);
    writes.length = 0;
    await page.getByRole('button', { name: 'Save section' }).click();
    await page.getByText(REFUSED).waitFor();
    expect(await page.getByText('Section saved.').count()).toBe(0);
    expect(writes).toEqual([]);
    expect(textOf((await section('notes')).content)).toBe('Get the weekly notes');
  });

  it('section: words typed in the rich text editor are all stored by a save at once', async () => {
    await openSection('signup', 'Sign up');
    await page.getByRole('textbox', { name: 'Text' }).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' for the weekly notes');
    await page.getByRole('button', { name: 'Save section' }).click();
    await page.getByText('Section saved.').waitFor();
    expect(textOf((await section('signup')).content)).toBe('Sign up for the weekly notes');
  });

  it('section: an address refused inside an image stops the save instead of keeping the old one', async () => {
    await api('POST', '/sections', {
      slug: 'heron',
      title: 'Heron',
      content: [...para('A heron'), { _type: 'image', _key: 'img', src: '/heron.jpg', alt: 'Heron' }],
    });
    await page.goto(`${site.origin}/_cms/admin/sections/heron`);
    await page.getByRole('button', { name: 'Save section' }).waitFor();
    writes.length = 0;
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByLabel('Image address').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Save section' }).click();
    await page
      .getByText(new RegExp(`Section saved\\.|${REFUSED}`))
      .first()
      .waitFor();
    expect((await section('heron')).content[1].src).toBe('/heron.jpg');
    expect(writes).toEqual([]);
    expect(await page.getByText('Section saved.').count()).toBe(0);
    await page.getByLabel('Image address').fill('/grey-heron.jpg');
    await page.getByRole('button', { name: 'Save section' }).click();
    await page.getByText('Section saved.').waitFor();
    expect((await section('heron')).content[1].src).toBe('/grey-heron.jpg');
  });

  it('rich text widget: Portable Text JSON that does not parse is not saved and not reported saved', async () => {
    await openWidget('sidebar', 'richText', { content: para('Read the notes') });
    const form = page.getByRole('form', { name: 'Edit widget' });
    await form.getByRole('button', { name: 'Edit as Portable Text JSON' }).click();
    await form.getByLabel('Text (Portable Text JSON)').fill(JSON.stringify(para('Read the old notes'), null, 2));
    await jsonAtEnd('Text (Portable Text JSON)');
    await page.keyboard.type(' oops');
    await form.getByRole('button', { name: 'Save widget' }).click();
    await page
      .getByText(new RegExp(`Widget saved\\.|${REFUSED}`))
      .first()
      .waitFor();
    expect(textOf((await widget('sidebar')).settings.content)).toBe('Read the notes');
    expect(writes).toEqual([]);
    expect(await page.getByText('Widget saved.').count()).toBe(0);
    await form.getByText(REFUSED).waitFor();
    await form.getByText(/^⚠ JSON syntax: /).waitFor();

    await jsonAtEnd('Text (Portable Text JSON)');
    for (let i = 0; i < ' oops'.length; i++) await page.keyboard.press('Backspace');
    await form.getByRole('button', { name: 'Save widget' }).click();
    await page.getByText('Widget saved.').waitFor();
    expect(textOf((await widget('sidebar')).settings.content)).toBe('Read the old notes');
  });

  it('rich text widget: words typed in the rich text editor are all stored by a save at once', async () => {
    await openWidget('footer', 'richText', { content: para('Written') });
    const form = page.getByRole('form', { name: 'Edit widget' });
    await form.getByRole('textbox', { name: 'Text' }).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' by the volunteers');
    await form.getByRole('button', { name: 'Save widget' }).click();
    await page.getByText('Widget saved.').waitFor();
    expect(textOf((await widget('footer')).settings.content)).toBe('Written by the volunteers');
  });

  it('custom widget: data JSON that does not parse is not saved and not reported saved', async () => {
    await openWidget('header', 'custom', { kind: 'weather', data: { city: 'Leeds' } });
    const form = page.getByRole('form', { name: 'Edit widget' });
    await form.getByLabel('Data (JSON)').fill('{ "city": "York" }');
    await jsonAtEnd('Data (JSON)');
    await page.keyboard.type(',');
    await form.getByRole('button', { name: 'Save widget' }).click();
    await page
      .getByText(new RegExp(`Widget saved\\.|${REFUSED}`))
      .first()
      .waitFor();
    expect((await widget('header')).settings.data).toEqual({ city: 'Leeds' });
    expect(writes).toEqual([]);
    expect(await page.getByText('Widget saved.').count()).toBe(0);
    await form.getByText(REFUSED).waitFor();
    await form.getByText(/^⚠ JSON syntax: /).waitFor();

    await jsonAtEnd('Data (JSON)');
    await page.keyboard.press('Backspace');
    await form.getByRole('button', { name: 'Save widget' }).click();
    await page.getByText('Widget saved.').waitFor();
    expect((await widget('header')).settings.data).toEqual({ city: 'York' });
    expect(problems).toEqual([]);
  });
});
