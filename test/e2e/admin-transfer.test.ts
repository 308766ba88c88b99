/**
 * The site transfer page in Chromium, against the real service on a temporary
 * SQLite database. The background worker is stopped, so every step an export
 * takes here is one the page sent. An Admin starts an export from the page
 * and sees it complete, downloads the archive through its link (the session
 * cookie authenticates the GET) and finds a tar that opens with the manifest
 * whose digest the page shows; an export left running continues from the
 * list; an MCP client whose token lacks the scope asks for an approval, the
 * Admin approves it on the page, and the client can then start its export.
 * Editors see neither the page nor its navigation entry. Screenshots land in
 * test/e2e/screenshots/transfer/.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
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
import { mcpClient } from '../helpers/mcp.js';
import { untar } from '../helpers/transfer.js';

const SHOTS = resolve(import.meta.dirname, 'screenshots', 'transfer');

describeWithChromium('site transfer page', () => {
  let site: Site;
  let browser: Browser;
  let adminSession: string;
  let editorSession: string;
  let adminToken: string;
  let agentToken: string;
  const problems: string[] = [];

  const open = (session: string, viewport = { width: 1280, height: 900 }): Promise<Page> =>
    signedInPage(browser, { origin: site.origin, session, problems }, { viewport, acceptDownloads: true });
  const ok = (method: string, path: string, body?: unknown) => callOk(site.cms, adminToken, method, path, body);

  beforeAll(async () => {
    await ensureAdminBuilt();
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    site = await startSite('transfer');
    const { cms } = site;
    // Only the page moves exports on here.
    await cms.services.transfer.worker.stop();
    const { user: ada } = await cms.services.users.create(null, { email: 'ada@example.test', name: 'Ada', role: 50 });
    const { user: eve } = await cms.services.users.create(null, { email: 'eve@example.test', name: 'Eve', role: 40 });
    adminSession = (await cms.services.auth.sessions.create(cms.database.db, ada.id, 'passkey')).id;
    editorSession = (await cms.services.auth.sessions.create(cms.database.db, eve.id, 'passkey')).id;
    adminToken = (await cms.services.tokens.create(null, { userId: ada.id, name: 'seed' })).token;
    agentToken = (
      await cms.services.tokens.create(null, { userId: ada.id, name: 'Research agent', scopes: ['content:read'] })
    ).token;
    await ok('POST', '/schema/collections', {
      slug: 'posts',
      label: 'Posts',
      fields: [{ slug: 'title', label: 'Title', type: 'string' }],
    });
    for (const title of ['Harbour at dawn', 'Notes from the quay', 'Nets and knots']) {
      await ok('POST', '/content/posts', { data: { title } });
    }
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stopSite(site);
  });

  it('starts an export, drives it to complete and downloads the archive with the session cookie', async () => {
    const p = await open(adminSession);
    const advances: Array<string | null> = [];
    p.on('request', (req) => {
      if (req.method() === 'POST' && req.url().endsWith('/advance'))
        advances.push(req.headers()['x-cms-request'] ?? null);
    });
    await p.goto(`${site.origin}/_cms/admin/`);
    await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Site transfer' }).click();
    await p.getByRole('heading', { level: 1, name: 'Site transfer' }).waitFor();
    await p.getByText('No exports yet.').waitFor();
    const comments = p.getByRole('checkbox', { name: /Include comments/ });
    expect(await comments.isChecked()).toBe(true);

    await p.getByRole('button', { name: 'Start export' }).click();
    const current = p.getByTestId('current-export');
    await p.locator('[data-testid="current-export"][data-state="complete"]').waitFor();
    expect(await current.textContent()).toContain('Export complete: ');
    await expect
      .poll(() => p.getByTestId('export-announcement').textContent())
      .toBe('Export complete. The archive can be downloaded.');
    // The page sent the steps, each with the CSRF header of cookie sessions.
    expect(advances.length).toBeGreaterThan(0);
    expect(advances.every((h) => h === '1')).toBe(true);

    const row = p.locator('[data-testid="export-row"][data-state="complete"]').first();
    await row.waitFor();
    expect(await row.textContent()).toContain('Comments included');
    const digest = await row.getByLabel('Package digest').inputValue();
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    await p.screenshot({ path: join(SHOTS, 'export-complete-desktop.png'), fullPage: true });

    // The archive link downloads with the cookie alone: a tar opening with the manifest of that digest.
    const [download] = await Promise.all([
      p.waitForEvent('download'),
      current.getByRole('link', { name: /Download archive/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^site-[0-9A-Z]{26}\.tar$/);
    const bytes = readFileSync((await download.path()) as string);
    expect(bytes.subarray(257, 262).toString('latin1')).toBe('ustar');
    const entries = await untar(bytes);
    expect(entries[0].name).toBe('manifest.json');
    expect(`sha256:${createHash('sha256').update(entries[0].data).digest('hex')}`).toBe(digest);
    const manifest = JSON.parse(entries[0].data.toString('utf8'));
    expect(manifest.format).toBe('cms-site-package');
    expect(entries.some((e) => e.name.startsWith('records/entries/posts/'))).toBe(true);
    // The manifest link answers the same bytes to the page's cookies.
    const href = (await row.getByRole('link', { name: /Download manifest/ }).getAttribute('href')) as string;
    const res = await p.request.get(new URL(href, site.origin).href);
    expect(res.status()).toBe(200);
    expect(Buffer.from(await res.body()).equals(entries[0].data)).toBe(true);
    await p.context().close();
  }, 60_000);

  it('continues an export left running from the list', async () => {
    // Started elsewhere and never advanced (the page that started it was closed).
    const left = await ok('POST', '/admin/transfer/exports', { comments: false });
    const p = await open(adminSession, { width: 390, height: 844 });
    await p.goto(`${site.origin}/_cms/admin/transfer`);
    const row = p.locator('[data-testid="export-row"][data-state="running"]').filter({ hasText: left.id });
    await row.waitFor();
    expect(await row.textContent()).toContain('Comments left out');
    await p.screenshot({ path: join(SHOTS, 'export-running-mobile.png'), fullPage: true });
    await row.getByRole('button', { name: /Continue/ }).click();
    await p.locator(`[data-testid="export-row"][data-state="complete"]`).filter({ hasText: left.id }).waitFor();
    expect((await ok('GET', `/admin/transfer/exports/${left.id}`)).state).toBe('complete');
    // Nothing overflows the phone's width.
    expect(await p.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await p.context().close();
  }, 60_000);

  it('approves an MCP request on the page; the client then starts its export', async () => {
    const mcp = await mcpClient(site.origin, agentToken);
    const asked = await mcp.call('site_export_start', { comments: false });
    expect(asked._meta?.code).toBe('TRANSFER_APPROVAL_REQUIRED');
    const approvalId = asked._meta?.details?.approvalId as string;

    const p = await open(adminSession);
    await p.goto(`${site.origin}/_cms/admin/transfer`);
    await p
      .getByRole('navigation', { name: 'Site transfer' })
      .getByRole('link', { name: /Approvals/ })
      .click();
    await p.getByRole('heading', { name: 'Approval requests' }).waitFor();
    const row = p.getByTestId('approval-row').filter({ hasText: 'Research agent' });
    await p.locator('[data-testid="approval-row"][data-state="pending"]').waitFor();
    expect(await p.getByTestId('pending-count').textContent()).toBe('1 pending');
    const text = await row.textContent();
    expect(text).toContain('Asked by Ada with the token “Research agent”');
    expect(text).toContain('{"comments":false}');
    expect(text).toContain('Approving lets “Research agent” of Ada export the whole site once, within 15 minutes');
    await p.screenshot({ path: join(SHOTS, 'approval-pending-desktop.png'), fullPage: true });

    await row.getByRole('button', { name: 'Approve' }).click();
    await p.locator('[data-testid="approval-row"][data-state="approved"]').waitFor();
    await row.getByText('Approved. “Research agent” may now export the whole site once').waitFor();
    await expect.poll(() => p.getByTestId('pending-count').count()).toBe(0);

    // The client calls again with the approval: the export starts and the request is used.
    const started = await mcp.ok('site_export_start', { comments: false, approvalId });
    expect(started.state).toBe('running');
    await p.getByRole('button', { name: 'Refresh' }).click();
    await p.locator('[data-testid="approval-row"][data-state="used"]').waitFor();
    expect(await row.textContent()).toContain(started.id);
    await p.screenshot({ path: join(SHOTS, 'approval-used-desktop.png'), fullPage: true });
    await mcp.close();
    await p.context().close();
    expect(problems).toEqual([]);
  }, 60_000);

  it('lists exports ten at a time, newest first, with Load more', async () => {
    for (let i = 0; i < 10; i++) await ok('POST', '/admin/transfer/exports', { comments: true });
    const all = (await ok('GET', '/admin/transfer/exports?limit=100')).items.map((e: { id: string }) => e.id);
    expect(all.length).toBeGreaterThan(10);
    const p = await open(adminSession);
    await p.goto(`${site.origin}/_cms/admin/transfer`);
    const rows = p.getByRole('list', { name: 'Exports' }).getByTestId('export-row');
    await expect.poll(() => rows.count()).toBe(10);
    await p.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => rows.count()).toBe(all.length);
    const shown = await rows.evaluateAll((els) => els.map((e) => e.textContent ?? ''));
    expect(shown.map((t) => all.find((id: string) => t.includes(id)))).toEqual(all);
    expect(await p.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await p.context().close();
  }, 30_000);

  it('is hidden from editors, in the navigation and by address', async () => {
    const p = await open(editorSession);
    await p.goto(`${site.origin}/_cms/admin/transfer`);
    await p.waitForURL(`${site.origin}/_cms/admin/`);
    await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).waitFor();
    expect(await p.getByRole('link', { name: 'Site transfer' }).count()).toBe(0);
    await p.context().close();
    expect(problems).toEqual([]);
  }, 30_000);
});
