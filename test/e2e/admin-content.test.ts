/**
 * A day of content work in headless Chromium, on SQLite and on PostgreSQL:
 * an Admin builds a collection in the schema builder, an Author writes a post
 * with rich text, an Editor publishes, schedules, translates, resolves a
 * `_rev` conflict between two browser contexts and restores a revision,
 * entries go to the trash and back, and a Contributor sees only what it may
 * do. Screenshots of every screen at desktop and mobile widths go to
 * test/e2e/screenshots/content-<dialect>/.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { type ContentSite, callSite, startContentSite } from '../helpers/content-site.js';
import { describeEachDialect } from '../helpers/db.js';
import { png } from '../helpers/media.js';

const MOBILE = { width: 390, height: 844 };

describeEachDialect('admin content: a day in the life', (dialect) => {
  if (!hasChromium) {
    it.skipIf(!process.env.CI)('needs Debian chromium at /usr/bin/chromium', () => {
      throw new Error('/usr/bin/chromium is missing: apt-get install -y --no-install-recommends chromium');
    });
    return;
  }
  const SHOTS = resolve(import.meta.dirname, 'screenshots', `content-${dialect}`);
  let browser: Browser;
  let site: ContentSite;
  const problems: string[] = [];
  let token = '';

  const api = <T = any>(method: string, path: string, body?: unknown) =>
    callSite<T>(site.origin, token, method, path, body);

  /** Desktop and mobile screenshots of the page as it is now. */
  async function shots(page: Page, name: string): Promise<void> {
    const size = page.viewportSize() ?? { width: 1280, height: 900 };
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(SHOTS, `${name}-desktop.png`), fullPage: true });
    await page.setViewportSize(MOBILE);
    // The page has the new width and has laid it out (two frames), instead of a pause.
    await page.waitForFunction(`window.innerWidth === ${MOBILE.width}`);
    await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
    await page.screenshot({ path: join(SHOTS, `${name}-mobile.png`), fullPage: true });
    await page.setViewportSize(size);
  }

  const admin = (p: Page) => (path: string) => p.goto(`${site.origin}/_cms/admin${path}`);
  const field = (p: Page, label: string) => p.getByLabel(new RegExp(`^${label}( \\(optional\\))?$`));
  const savedState = (p: Page) => p.locator('.save-state');

  beforeAll(async () => {
    await ensureAdminBuilt();
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
    site = await startContentSite(dialect, browser, problems, {
      i18n: { locales: ['en', 'fr'], defaultLocale: 'en' },
    });
  }, 180_000);

  afterAll(async () => {
    await site?.close();
    await browser?.close();
  });

  it('builds, writes, publishes, schedules, translates, resolves a conflict, restores and trashes', async () => {
    // ---------- Admin: the schema builder ----------
    const ada = await site.personPage(ROLES.ADMIN, 'Ada Admin');
    ({ token } = await site.cms.services.tokens.create(null, { userId: site.users['Ada Admin'], name: 'e2e' }));
    // Schedule times are entered in the site's time zone (not the browser's).
    await api('PUT', '/settings', { timezone: 'Europe/Paris' });
    // A collection to link to, made through the API (the builder is exercised on the main one).
    await api('POST', '/schema/collections', {
      slug: 'people',
      label: 'People',
      labelSingular: 'Person',
      fields: [{ slug: 'name', label: 'Name', type: 'string', required: true }],
    });
    await api('POST', '/content/people', { data: { name: 'Grace Hopper' } });
    await api('POST', '/content/people', { data: { name: 'Katherine Johnson' } });

    const goAda = admin(ada);
    await goAda('/schema');
    await ada.getByRole('heading', { level: 1, name: 'Schema' }).waitFor();
    await ada.getByLabel('Name', { exact: true }).fill('Articles');
    await ada.getByLabel('Name of one entry (optional)').fill('Article');
    expect(await ada.getByLabel('Identifier').inputValue()).toBe('articles');
    await shots(ada, '01-schema');
    await ada.getByRole('button', { name: 'Create collection' }).click();
    await ada.getByRole('heading', { level: 1, name: 'Articles' }).waitFor();

    async function addField(label: string, slug: string, type: string, fill?: () => Promise<void>) {
      await ada.getByRole('button', { name: 'Add a field' }).click();
      const form = ada.locator('.subform');
      await form.getByLabel('Label', { exact: true }).fill(label);
      await form.getByLabel('Identifier').fill(slug);
      await form.getByLabel('Type').selectOption(type);
      await fill?.();
      await form.getByRole('button', { name: 'Add field' }).click();
      await ada.getByText(`Added the field ${label}.`).waitFor();
    }
    await addField('Summary', 'summary', 'text', async () => {
      await ada.locator('.subform').getByLabel('Maximum length (optional)').fill('200');
    });
    await addField('Body', 'body', 'portableText');
    await addField('Link', 'link', 'url');
    await addField('Rating', 'rating', 'integer', async () => {
      const form = ada.locator('.subform');
      await form.getByLabel('Minimum (optional)').fill('0');
      await form.getByLabel('Maximum (optional)').fill('5');
      await form.getByRole('checkbox', { name: /^Indexed/ }).check();
    });
    await addField('Featured', 'featured', 'boolean');
    await addField('Event at', 'event_at', 'datetime');
    await addField('Kind', 'kind', 'select', async () => {
      await ada
        .locator('.subform')
        .getByLabel(/^Options/)
        .fill('news\nessay\nreview');
    });
    await addField('Writer', 'writer', 'reference', async () => {
      await ada.locator('.subform').getByLabel('Collection').selectOption('people');
    });
    await addField('Links', 'links', 'repeater', async () => {
      const form = ada.locator('.subform');
      await form.getByRole('button', { name: 'Add sub-field' }).click();
      await form.getByLabel('Sub-field 1 label').fill('Label');
      await form.getByLabel('Sub-field 1 identifier').fill('label');
      await form.getByRole('button', { name: 'Add sub-field' }).click();
      await form.getByLabel('Sub-field 2 label').fill('Address');
      await form.getByLabel('Sub-field 2 identifier').fill('url');
      await form.getByLabel('Sub-field 2 type').selectOption('url');
      await shots(ada, '02-field-form-repeater');
    });
    await addField('Meta', 'meta', 'json');

    // A bad definition is refused in place: the service's answer names the field.
    await ada.getByRole('button', { name: 'Add a field' }).click();
    const form = ada.locator('.subform');
    await form.getByLabel('Label', { exact: true }).fill('Broken');
    await form.getByLabel('Identifier').fill('status');
    await form.getByRole('button', { name: 'Add field' }).click();
    await form.locator('.field__error', { hasText: 'reserved' }).waitFor();
    await form.getByRole('button', { name: 'Cancel' }).click();

    // Reorder by keyboard drag: Body moves above Summary.
    const bodyHandle = ada.getByRole('button', { name: 'Reorder Body' });
    await bodyHandle.focus();
    // dnd-kit measures the rows between steps: each key waits for its announcement to screen readers.
    const announced = (text: RegExp) =>
      ada.locator('[id^="DndLiveRegion"]').filter({ hasText: text }).waitFor({ state: 'attached' });
    await ada.keyboard.press('Space');
    // Picked up (the announcement of that is at once replaced by "is over position 3").
    await ada.locator('.sortable--dragging [aria-label="Reorder Body"][aria-pressed="true"]').waitFor();
    await announced(/^Body is over position 3 /);
    await ada.keyboard.press('ArrowUp');
    await announced(/^Body is over position 2 /);
    await ada.keyboard.press('Space');
    await announced(/^Body dropped at position 2 /);
    await expect
      .poll(async () =>
        (await api<{ fields: Array<{ slug: string }> }>('GET', '/schema/collections/articles')).fields
          .map((f) => f.slug)
          .slice(0, 3),
      )
      .toEqual(['title', 'body', 'summary']);
    const model = await api<{ fields: Array<{ slug: string; type: string }> }>('GET', '/schema/collections/articles');
    expect(new Set(model.fields.map((f) => f.type)).size).toBeGreaterThanOrEqual(10);
    await shots(ada, '03-collection-fields');

    // Deleting asks for the name first.
    await ada.getByRole('button', { name: 'Delete Meta' }).click();
    const confirm = ada.getByRole('button', { name: 'Delete Meta' }).last();
    expect(await confirm.isDisabled()).toBe(true);
    await ada.getByLabel(/Type meta to confirm/).fill('meta');
    await shots(ada, '04-delete-field-confirm');
    await confirm.click();
    await ada.getByText('Field deleted with its values.').waitFor();

    // ---------- Author: writes a post with rich text ----------
    const ann = await site.personPage(ROLES.AUTHOR, 'Ann Author');
    const goAnn = admin(ann);
    await goAnn('/content/articles');
    await ann.getByRole('heading', { level: 1, name: 'Articles' }).waitFor();
    await ann.getByText('No article yet.').waitFor();
    await shots(ann, '05-list-empty');
    await ann.getByRole('link', { name: 'New article' }).click();
    await ann.getByRole('heading', { level: 1, name: 'New article' }).waitFor();
    await field(ann, 'Title').fill('Moss in winter');
    await field(ann, 'Rating').fill('9');
    await ann.getByRole('button', { name: 'Create draft' }).click();
    // Shown before anything is sent: the draft is not created.
    await ann.getByText('At most 5.').waitFor();
    expect(new URL(ann.url()).pathname).toMatch(/\/new$/);
    await field(ann, 'Rating').fill('4');
    const body = ann.getByTestId('pt-body').locator('[contenteditable="true"]');
    await body.click();
    await ann.keyboard.type('Moss stays green ');
    await ann.getByRole('button', { name: 'Bold' }).click();
    await ann.keyboard.type('all winter');
    await ann.getByRole('button', { name: 'Bold' }).click();
    await ann.keyboard.type('.');
    await field(ann, 'Kind').selectOption('essay');
    await field(ann, 'Link').fill('javascript:alert(1)');
    await ann.locator('[data-field="link"] .field__error').waitFor();
    await field(ann, 'Link').fill('https://example.com/moss');
    await ann.getByRole('button', { name: 'Add row' }).click();
    await ann
      .getByLabel(/^Label/)
      .last()
      .fill('Field guide');
    await ann.locator('[data-field="writer"] input[type="search"]').click();
    await ann.getByRole('button', { name: /Grace Hopper/ }).click();
    await shots(ann, '06-editor-new');
    await ann.getByRole('button', { name: 'Create draft' }).click();
    await ann.waitForURL(/\/content\/articles\/[0-9A-Z]{26}$/);
    const firstId = ann.url().split('/').pop() as string;
    let entry = await api<any>('GET', `/content/articles/${firstId}`);
    expect(entry.item).toMatchObject({ status: 'draft', data: { title: 'Moss in winter', rating: 4, kind: 'essay' } });
    const spans = entry.item.data.body[0].children as Array<{ text: string; marks: string[] }>;
    expect(spans.map((s) => s.text).join('')).toBe('Moss stays green all winter.');
    expect(spans.find((s) => s.text === 'all winter')?.marks).toEqual(['strong']);
    expect(entry.item.data.links).toEqual([{ label: 'Field guide' }]);
    expect(entry.item.references.writer.items.map((e: { title: string }) => e.title)).toEqual(['Grace Hopper']);

    // Autosave: a change is saved on its own a moment later.
    await field(ann, 'Summary').fill('Why moss is the hero of the winter garden.');
    await expect.poll(() => savedState(ann).textContent(), { timeout: 10_000 }).toMatch(/^Saved/);
    entry = await api('GET', `/content/articles/${firstId}`);
    expect(entry.item.data.summary).toBe('Why moss is the hero of the winter garden.');
    // The save did not take the field away from the person typing in it.
    await ann.keyboard.type(' Truly.');
    expect(await field(ann, 'Summary').inputValue()).toBe('Why moss is the hero of the winter garden. Truly.');
    await expect.poll(() => savedState(ann).textContent(), { timeout: 10_000 }).toMatch(/^Saved/);
    await shots(ann, '07-editor-draft');
    // Leaving the entry releases its edit lock for the others.
    await goAnn('/');
    await ann.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    // ---------- Editor: publishes, schedules, translates ----------
    const eve = await site.personPage(ROLES.EDITOR, 'Eve Editor');
    const goEve = admin(eve);
    await goEve('/');
    await eve.getByTestId('dash-recent').getByRole('link', { name: 'Moss in winter' }).waitFor();
    await shots(eve, '08-dashboard');
    await goEve(`/content/articles/${firstId}`);
    await eve.getByRole('button', { name: 'Publish', exact: true }).click();
    await eve.getByText('Published.').waitFor();
    entry = await api('GET', `/content/articles/${firstId}`);
    expect(entry.item.status).toBe('published');

    const second = await api<any>('POST', '/content/articles', { data: { title: 'Lichen at dawn', rating: 3 } });
    await goEve(`/content/articles/${second.item.id}`);
    await eve.getByLabel('Publish later').fill('2027-01-15T10:00');
    await eve.getByText('2027-01-15T09:00:00.000Z UTC').waitFor();
    await eve.getByRole('button', { name: 'Schedule', exact: true }).click();
    await eve.getByText(/^Scheduled for/).waitFor();
    entry = await api('GET', `/content/articles/${second.item.id}`);
    expect(entry.item).toMatchObject({ status: 'scheduled', scheduledAt: '2027-01-15T09:00:00.000Z' });
    await shots(eve, '09-editor-scheduled');

    await goEve(`/content/articles/${firstId}`);
    // Translations and revisions are open beside the status, no click needed.
    await eve.getByRole('button', { name: 'Translate into fr' }).click();
    await eve.waitForURL((u) => !u.pathname.endsWith(firstId));
    const frId = eve.url().split('/').pop() as string;
    const fr = await api<any>('GET', `/content/articles/${frId}`);
    expect(fr.item).toMatchObject({ locale: 'fr', slug: 'moss-in-winter-fr', status: 'draft' });
    const source = await api<any>('GET', `/content/articles/${firstId}`);
    expect(fr.item.translationGroup).toBe(source.item.translationGroup);
    expect(fr.item.data.title).toBe('Moss in winter');
    await shots(eve, '10-editor-translation');

    // ---------- Edit lock: someone else has the entry open ----------
    await goEve(`/content/articles/${firstId}`);
    await field(eve, 'Title').waitFor();
    await goAda(`/content/articles/${firstId}`);
    await ada
      .getByText(/Eve Editor/)
      .first()
      .waitFor();
    await ada.getByRole('button', { name: 'Take over editing' }).waitFor();
    expect(await field(ada, 'Title').isDisabled()).toBe(true);
    await shots(ada, '11-editor-locked');

    // ---------- A _rev conflict between two browser contexts of the Editor ----------
    const eve2 = await site.personPage(ROLES.EDITOR, 'Eve on the phone');
    // Same person, second device: take Eve's identity by copying her session cookie.
    await eve2.context().clearCookies();
    await eve2.context().addCookies(await eve.context().cookies());
    await eve2.goto(`${site.origin}/_cms/admin/content/articles/${firstId}`);
    await field(eve2, 'Title').waitFor();
    await field(eve, 'Title').fill('Moss in deep winter');
    await expect.poll(() => savedState(eve).textContent(), { timeout: 10_000 }).toMatch(/^Saved/);
    await field(eve2, 'Title').fill('Moss, all winter long');
    await field(eve2, 'Summary').fill('A shorter summary.');
    await eve2.keyboard.press('Control+s');
    await eve2.getByRole('heading', { name: 'This entry changed while you were editing' }).waitFor();
    await shots(eve2, '12-conflict');
    // Keep their title, keep my summary.
    await eve2.locator('fieldset.conflict__row', { hasText: 'Title' }).getByText('Saved version').click();
    await eve2.getByRole('button', { name: 'Save with these choices' }).click();
    await expect
      .poll(async () => (await api<any>('GET', `/content/articles/${firstId}`)).item.data.summary, { timeout: 10_000 })
      .toBe('A shorter summary.');
    entry = await api('GET', `/content/articles/${firstId}`);
    expect(entry.item.data.title).toBe('Moss in deep winter');
    expect(entry.item).toMatchObject({ status: 'published', hasDraft: true });

    // ---------- Compare and restore a revision ----------
    await goEve(`/content/articles/${firstId}`);
    await eve.getByRole('button', { name: 'Compare with live' }).click();
    await eve.getByRole('heading', { name: 'Live version and draft' }).waitFor();
    const oldest = eve.locator('#revisions li').last();
    await oldest.getByRole('button', { name: 'Restore' }).click();
    await oldest.getByRole('button', { name: 'Restore' }).click();
    await eve.getByText('Revision restored as a draft: publish it to make it live.').waitFor();
    entry = await api('GET', `/content/articles/${firstId}`);
    expect(entry.item.data.title).toBe('Moss in winter');
    await shots(eve, '13-revisions');

    // ---------- Trash and restore from the list (bulk, per-row results) ----------
    await goEve('/content/articles');
    await eve.getByTestId('entry-list').waitFor();
    await shots(eve, '14-list');
    await eve.getByLabel('Select Lichen at dawn').check();
    await eve.getByRole('button', { name: 'Move to trash' }).click();
    await eve.getByRole('button', { name: 'Move to trash 1' }).click();
    await eve.getByText('Move to trash: 1 of 1 done.').waitFor();
    expect((await api<any>('GET', `/content/articles/${second.item.id}`)).item.status).toBe('trashed');
    await eve.getByRole('link', { name: /^Trash \(1\)/ }).click();
    await eve.getByRole('heading', { level: 1, name: 'Articles: trash' }).waitFor();
    await shots(eve, '15-trash');
    await eve.getByLabel('Select Lichen at dawn').check();
    await eve.getByRole('region', { name: 'Bulk actions' }).getByRole('button', { name: 'Restore' }).click();
    await eve.getByText('Restore: 1 of 1 done.').waitFor();
    expect((await api<any>('GET', `/content/articles/${second.item.id}`)).item.status).toBe('draft');

    // Filters live in the address: a reload keeps them.
    await goEve('/content/articles?status=published');
    await eve.getByText('Moss in winter').waitFor();
    await eve.reload();
    expect(await eve.getByLabel('Status').inputValue()).toBe('published');
    expect(await eve.getByText('Lichen at dawn').count()).toBe(0);

    // ---------- Contributor: only what it may do ----------
    const cole = await site.personPage(ROLES.CONTRIBUTOR, 'Cole Contributor');
    const goCole = admin(cole);
    await goCole('/');
    expect(await cole.getByRole('link', { name: 'Schema' }).count()).toBe(0);
    await goCole('/content/articles/new');
    await field(cole, 'Title').fill('A first note');
    await cole.getByRole('button', { name: 'Create draft' }).click();
    await cole.waitForURL(/\/content\/articles\/[0-9A-Z]{26}$/);
    await cole.getByText('Contributors cannot publish: an Author or Editor publishes your draft.').waitFor();
    expect(await cole.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0);
    await shots(cole, '16-contributor-editor');
    await goCole(`/content/articles/${firstId}`);
    await cole
      .getByText("You can edit only your own entries; Editors edit everyone's.", { exact: false })
      .first()
      .waitFor();
    expect(await field(cole, 'Title').isDisabled()).toBe(true);
    await goCole('/schema');
    await cole.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await goEve('/');
    await eve.getByTestId('dash-review').getByRole('link', { name: 'A first note' }).waitFor();

    // ---------- Every other screen, both widths ----------
    await goAda('/schema/block-types');
    await ada.getByRole('heading', { level: 1, name: 'Block types' }).waitFor();
    // A block type, then a second version of it, then the first made active again.
    await ada.getByLabel('Name', { exact: true }).fill('Quote');
    await ada.getByLabel('Identifier', { exact: true }).fill('quote');
    await ada.getByRole('button', { name: 'Add a field' }).click();
    await ada.locator('.subform').getByLabel('Label', { exact: true }).fill('Text');
    await ada.locator('.subform').getByLabel('Identifier').fill('text');
    await ada.getByRole('button', { name: 'Add to the block' }).click();
    await ada.getByRole('button', { name: 'Create block type' }).click();
    await ada.getByText('Saved Quote (version 1 active).').waitFor();
    await ada.getByRole('button', { name: 'Edit Quote' }).click();
    await ada.locator('.row--edit').getByRole('button', { name: 'Add a field' }).click();
    await ada.locator('.row--edit .subform').getByLabel('Label', { exact: true }).fill('Source');
    await ada.locator('.row--edit .subform').getByLabel('Identifier').fill('source');
    await ada.getByRole('button', { name: 'Add to the block' }).click();
    await ada.getByText('Saving stores version 2 and makes it active.', { exact: false }).waitFor();
    await ada.getByRole('button', { name: 'Save block type' }).click();
    await ada.getByText('Saved Quote.').waitFor();
    let quote = await api<any>('GET', '/schema/block-types/quote');
    expect([quote.activeVersion, quote.versions.length]).toEqual([2, 2]);
    await shots(ada, '17-block-types');
    await ada.getByRole('button', { name: 'Make active' }).click();
    await expect.poll(async () => (await api<any>('GET', '/schema/block-types/quote')).activeVersion).toBe(1);
    quote = await api<any>('GET', '/schema/block-types/quote');
    expect(quote.fields.map((f: { slug: string }) => f.slug)).toEqual(['text']);
    await goAda('/schema/orphans');
    await ada.getByText('No orphaned tables').waitFor();
    await shots(ada, '18-orphans');
    await ada.keyboard.press('Control+k');
    await ada.getByPlaceholder(/Type a page/).fill('moss');
    await ada
      .getByRole('option', { name: /Moss in winter/ })
      .first()
      .waitFor();
    await shots(ada, '19-command-palette');
    await ada.keyboard.press('Escape');

    expect(problems).toEqual([]);
  }, 300_000);

  it('round-trips Portable Text written elsewhere through the editor unchanged', async () => {
    const rich = [
      {
        _type: 'block',
        _key: 'h',
        style: 'h2',
        markDefs: [],
        children: [{ _type: 'span', _key: 'h1', text: 'A heading', marks: [] }],
      },
      {
        _type: 'block',
        _key: 'p',
        style: 'normal',
        markDefs: [{ _type: 'link', _key: 'l1', href: 'https://example.com' }],
        children: [
          { _type: 'span', _key: 'p1', text: 'Plain, ', marks: [] },
          { _type: 'span', _key: 'p2', text: 'bold italic', marks: ['strong', 'em'] },
          { _type: 'span', _key: 'p3', text: ' and a link', marks: ['l1'] },
        ],
      },
      {
        _type: 'block',
        _key: 'b1',
        style: 'normal',
        listItem: 'bullet',
        level: 1,
        markDefs: [],
        children: [{ _type: 'span', _key: 'b1s', text: 'one', marks: [] }],
      },
      {
        _type: 'block',
        _key: 'b2',
        style: 'normal',
        listItem: 'number',
        level: 2,
        markDefs: [],
        children: [{ _type: 'span', _key: 'b2s', text: 'two', marks: [] }],
      },
      { _type: 'image', _key: 'img', src: 'https://example.com/moss.jpg', alt: 'Moss' },
      { _type: 'pullquote', _key: 'pq', text: 'A custom block from an import', attribution: 'Someone' },
      {
        _type: 'block',
        _key: 'q',
        style: 'blockquote',
        markDefs: [],
        children: [{ _type: 'span', _key: 'q1', text: 'Quoted', marks: ['underline'] }],
      },
    ];
    const entry = await api<any>('POST', '/content/articles', { data: { title: 'Round trip', body: rich } });
    const page = await site.personPage(ROLES.EDITOR, 'Rita Roundtrip');
    await page.goto(`${site.origin}/_cms/admin/content/articles/${entry.item.id}`);
    const editable = page.getByTestId('pt-body').locator('[contenteditable="true"]');
    await editable.getByText('A heading').click();
    // The editor syncs its selection between keys: each key waits for what it does to show.
    const heading = editable.getByText(/^A heading!?$/);
    await page.keyboard.press('End');
    await page.waitForFunction(
      `(() => { const s = getSelection(); return !!s && s.isCollapsed && !!s.anchorNode && s.anchorNode.textContent.startsWith('A heading') && s.anchorOffset === s.anchorNode.textContent.length; })()`,
    );
    await page.keyboard.press('!');
    await expect.poll(() => heading.textContent()).toBe('A heading!');
    await page.keyboard.press('Backspace');
    await expect.poll(() => heading.textContent()).toBe('A heading');
    await field(page, 'Title').fill('Round trip, saved');
    await page.keyboard.press('Control+s');
    await expect.poll(() => savedState(page).textContent(), { timeout: 10_000 }).toMatch(/^Saved/);
    // The save took the editor's own value of the body (after the net-zero edit): it equals the original.
    expect((await api<any>('GET', `/content/articles/${entry.item.id}`)).item.data).toEqual(
      expect.objectContaining({ title: 'Round trip, saved', body: rich }),
    );
    expect(problems).toEqual([]);
  }, 120_000);

  it('joins the domains in the editor and the list: media picker, terms, SEO, search and term filter', async () => {
    await api('POST', '/schema/collections', {
      slug: 'journal',
      label: 'Journal',
      supports: ['drafts', 'search', 'seo'],
      fields: [
        { slug: 'title', label: 'Title', type: 'string', required: true, searchable: true },
        { slug: 'cover', label: 'Cover', type: 'image' },
      ],
    });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await png(60, 40))], { type: 'image/png' }), 'fog.png');
    const uploaded = await fetch(`${site.origin}/_cms/api/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const image = ((await uploaded.json()) as any).data.item;
    await api('POST', '/taxonomies', {
      name: 'moods',
      label: 'Moods',
      labelSingular: 'Mood',
      hierarchical: true,
      collections: ['journal'],
    });
    const calm = await api<any>('POST', '/taxonomies/moods/terms', { label: 'Calm' });
    await api('POST', '/taxonomies/moods/terms', { label: 'Serene', parentId: calm.id });
    const fog = (await api<any>('POST', '/content/journal', { data: { title: 'Morning fog' } })).item;
    await api('POST', '/content/journal', { data: { title: 'Evening light' } });

    const page = await site.personPage(ROLES.EDITOR, 'Jo Journal');
    await page.goto(`${site.origin}/_cms/admin/content/journal/${fog.id}`);
    // Image field: choose from the library in the picker dialog, by keyboard.
    await page.getByRole('button', { name: 'Choose image' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose an image' });
    await dialog.getByText('fog.png').click();
    await dialog.getByRole('button', { name: 'Use this file' }).click();
    await expect.poll(() => page.locator('.media-choice__title').first().textContent()).toBe('fog.png');
    await page.keyboard.press('Control+s');
    await expect
      .poll(async () => (await api<any>('GET', `/content/journal/${fog.id}`)).item.data.cover?.id, { timeout: 10_000 })
      .toBe(image.id);
    // Terms panel: a hierarchical checklist saved at once.
    await page.getByText('Moods (0)').click();
    await page.getByRole('checkbox', { name: 'Serene' }).check();
    await expect
      .poll(async () => (await api<any>('GET', `/content/journal/${fog.id}/terms/moods`)).items.map((t: any) => t.slug))
      .toEqual(['serene']);
    // SEO panel, saved on its own.
    await page.locator('#seo summary').click();
    await page.getByLabel(/^Search title/).fill('Fog, in the morning');
    await page.getByRole('button', { name: 'Save SEO' }).click();
    await expect.poll(async () => (await api<any>('GET', `/seo/journal/${fog.id}`)).title).toBe('Fog, in the morning');
    await shots(page, '20-editor-media-terms-seo');

    // The list: search through the search API (q in the address), then the term filter.
    await page.goto(`${site.origin}/_cms/admin/content/journal`);
    await page.getByRole('combobox', { name: 'Search Journal' }).fill('fog');
    const results = page.getByTestId('entry-search-results');
    await expect.poll(() => results.locator('.result__title').allTextContents()).toEqual(['Morning fog']);
    expect(page.url()).toContain('q=fog');
    await shots(page, '21-list-search');
    await page.getByRole('combobox', { name: 'Search Journal' }).fill('');
    await page.getByLabel('Mood').selectOption('serene');
    await expect.poll(() => page.url()).toContain('term=moods%3Aserene');
    await expect
      .poll(() => page.getByTestId('entry-list').locator('tbody .cell-title').allTextContents())
      .toEqual(['Morning fog']);
    expect(problems).toEqual([]);
  }, 120_000);
});
