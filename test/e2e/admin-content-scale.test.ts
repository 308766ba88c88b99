/**
 * The entry list and the editor with 100,000 entries in a collection, on
 * SQLite and PostgreSQL: time from the data arriving in the browser to the
 * first commit that shows it (the admin's own performance measures), the
 * list's first page and the sidebar counts over HTTP, and scrolling deep
 * into the list loads more pages without loading everything.
 */
import { sql } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { type ContentSite, startContentSite } from '../helpers/content-site.js';
import { describeEachDialect } from '../helpers/db.js';

const ENTRIES = 100_000;
/** Goal of the issue: the screen shows its data within 300 ms of it arriving. */
const BUDGET_MS = 300;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

describeEachDialect('admin content at 100,000 entries', (dialect) => {
  if (!hasChromium) {
    it.skipIf(!process.env.CI)('needs Debian chromium at /usr/bin/chromium', () => {
      throw new Error('/usr/bin/chromium is missing');
    });
    return;
  }
  let browser: Browser;
  let site: ContentSite;
  const problems: string[] = [];
  let token = '';

  async function api<T = any>(method: string, path: string, body?: unknown): Promise<{ data: T; ms: number }> {
    const started = performance.now();
    const send = () =>
      fetch(`${site.origin}/_cms/api${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // The SQLite seed holds the process for seconds: a kept-alive socket may be gone by then.
    const res = await send().catch(() => send());
    const json = (await res.json()) as { success: boolean; data: T; error?: unknown };
    if (!json.success) throw new Error(`${method} ${path}: ${JSON.stringify(json.error)}`);
    return { data: json.data, ms: performance.now() - started };
  }

  /** Copies of one entry, made in a single INSERT … SELECT over a number series. */
  async function seed(templateId: string, copies: number): Promise<void> {
    const db = site.cms.ctx.db;
    const row = (await sql<Record<string, unknown>>`select * from ec_posts where id = ${templateId}`.execute(db))
      .rows[0];
    const pg = dialect === 'postgres';
    const id = pg
      ? `'01JZZ' || lpad(s.i::text, 21, '0')`
      : `'01JZZ' || substr('000000000000000000000' || s.i, -21, 21)`;
    const expr: Record<string, string> = {
      id,
      translation_group: id,
      slug: `'entry-' || s.i`,
      title: `'Entry number ' || s.i`,
      rating: pg ? '(s.i % 6)' : '(s.i % 6)',
    };
    const cols = Object.keys(row);
    const select = cols.map((c) => expr[c] ?? `t.${c}`).join(', ');
    const list = cols.join(', ');
    const statement = pg
      ? `insert into ec_posts (${list}) select ${select} from ec_posts t cross join generate_series(1, ${copies}) as s(i) where t.id = '${templateId}'`
      : `with recursive s(i) as (select 1 union all select i + 1 from s where i < ${copies}) insert into ec_posts (${list}) select ${select} from ec_posts t cross join s where t.id = '${templateId}'`;
    await sql.raw(statement).execute(db);
    if (pg) await sql.raw('analyze ec_posts').execute(db);
  }

  beforeAll(async () => {
    await ensureAdminBuilt();
    browser = await launchChromium();
    site = await startContentSite(dialect, browser, problems);
  }, 180_000);

  afterAll(async () => {
    await site?.close();
    await browser?.close();
  });

  it('renders the list and the editor within the budget after their data arrives', async () => {
    const page = await site.personPage(ROLES.EDITOR, 'Scale Editor');
    ({ token } = await site.cms.services.tokens.create(null, { userId: site.users['Scale Editor'], name: 'scale' }));
    const admin = await site.cms.services.users.create(null, { email: 'scale-admin@example.test', role: ROLES.ADMIN });
    const adminToken = (await site.cms.services.tokens.create(null, { userId: admin.user.id, name: 'a' })).token;
    const res = await fetch(`${site.origin}/_cms/api/schema/collections`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        slug: 'posts',
        label: 'Posts',
        labelSingular: 'Post',
        fields: [
          { slug: 'title', label: 'Title', type: 'string', required: true, indexed: true },
          { slug: 'rating', label: 'Rating', type: 'integer', indexed: true },
          { slug: 'summary', label: 'Summary', type: 'text' },
          { slug: 'body', label: 'Body', type: 'portableText' },
          { slug: 'kind', label: 'Kind', type: 'select', validation: { options: ['news', 'essay'] } },
        ],
      }),
    });
    expect(res.status).toBe(201);
    const body = Array.from({ length: 12 }, (_, i) => ({
      _type: 'block',
      _key: `b${i}`,
      style: i % 4 === 0 ? 'h2' : 'normal',
      markDefs: [],
      children: [{ _type: 'span', _key: `s${i}`, text: 'Some words about moss and lichen. '.repeat(8), marks: [] }],
    }));
    const template = await api<any>('POST', '/content/posts', {
      data: { title: 'Template', rating: 1, summary: 'A summary', body, kind: 'essay' },
    });
    const seeded = performance.now();
    await seed(template.data.item.id, ENTRIES - 1);
    const seedMs = performance.now() - seeded;

    const model = await api<any>('GET', '/admin/content/model');
    expect(model.data.collections[0].counts.all).toBe(ENTRIES);
    const firstPage = await api<any>('GET', '/content/posts?limit=100');
    expect(firstPage.data.items).toHaveLength(100);
    const warmPage = await api<any>('GET', '/content/posts?limit=100&orderBy=title');

    // The list: three fresh loads, the median of the data-to-render time.
    const listTimes: number[] = [];
    for (let i = 0; i < 3; i++) {
      await page.goto(`${site.origin}/_cms/admin/content/posts?orderBy=title&order=asc`);
      await page.getByTestId('entry-list').locator('tbody tr[data-index]').first().waitFor();
      listTimes.push(await page.evaluate('window.__cmsTimings["entry-list"][0]').then((v) => Number(v)));
    }
    // Only the rows in view are in the document, whatever the total.
    const rendered = await page.locator('tbody tr[data-index]').count();
    expect(rendered).toBeLessThan(60);
    const topTitle = await page.locator('tbody tr[data-index] .cell-title').first().textContent();
    // The position in view is shown against the whole collection.
    await expect.poll(() => page.getByTestId('list-position').textContent()).toMatch(/^1–\d+ of 100,000/);
    // Scrolling far (the list scrolls with the page) loads further pages (100 at a time), never the whole collection.
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    await expect.poll(() => page.getByText(/^200 loaded/).count(), { timeout: 15_000 }).toBe(1);
    // The address follows the position: a reload resumes at the page in view, not at the top.
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    await page.waitForURL(/cursor=/, { timeout: 10_000 });
    await page.reload();
    await page.getByText('Back to the first page').waitFor();
    expect(await page.locator('tbody tr[data-index] .cell-title').first().textContent()).not.toBe(topTitle);
    await page.getByText('Back to the first page').click();
    await expect.poll(() => page.locator('tbody tr[data-index] .cell-title').first().textContent()).toBe(topTitle);

    // The editor of an entry deep in the collection.
    const editorTimes: number[] = [];
    const richTimes: number[] = [];
    const deep = '01JZZ000000000000000050000';
    for (let i = 0; i < 3; i++) {
      await page.goto(`${site.origin}/_cms/admin/content/posts/${deep}`);
      await page.getByLabel('Title', { exact: true }).waitFor();
      await page.getByTestId('pt-body').locator('[contenteditable="true"]').waitFor();
      editorTimes.push(await page.evaluate('window.__cmsTimings["entry-editor"][0]').then((v) => Number(v)));
      // The Portable Text editor is a separate chunk: from the data to the rich text in place.
      richTimes.push(await page.evaluate('window.__cmsTimings["entry-editor-rich"][0]').then((v) => Number(v)));
    }

    const figures = {
      dialect,
      seedMs: Math.round(seedMs),
      modelWithCountsMs: Math.round(model.ms),
      firstPageApiMs: Math.round(firstPage.ms),
      titleOrderPageApiMs: Math.round(warmPage.ms),
      listRenderMs: listTimes.map((t) => Math.round(t)),
      editorRenderMs: editorTimes.map((t) => Math.round(t)),
      richTextReadyMs: richTimes.map((t) => Math.round(t)),
    };
    console.log(`[admin at ${ENTRIES} entries] ${JSON.stringify(figures)}`);
    expect(median(listTimes)).toBeLessThan(BUDGET_MS);
    expect(median(editorTimes)).toBeLessThan(BUDGET_MS);
    // The rich text chunk is parsed on a shared, busy machine here: a looser bound, reported above.
    expect(median(richTimes)).toBeLessThan(3 * BUDGET_MS);
    expect(problems).toEqual([]);
  }, 300_000);
});
