/**
 * The Import tab of the site transfer page in Chromium, against real services
 * on temporary SQLite databases. A package is exported from a small source
 * site (a collection, entries by two users, one uploaded image) and written
 * to a file; on an empty target the Admin picks it, the page uploads it entry
 * by entry as slices of the file (manifest.json first), analyzes it, shows
 * the plan with the package's users, attributes one of them to a user of
 * this site, executes it through the typed confirmation and shows the
 * receipt — and the entries, the image and the created user are then there
 * through the API. An upload left unfinished continues from the list and
 * sends only the files still missing; a site that is not empty gets a
 * blocker and no Import button, and the import can be cancelled and
 * abandoned; a damaged archive is refused with the service's code. The
 * target's background worker is stopped, so every step is one the page sent.
 * Screenshots land in test/e2e/screenshots/transfer-import/.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureAdminBuilt } from '../helpers/admin-build.js';
import {
  describeWithChromium,
  launchChromium,
  type Site,
  screenshotFromTop,
  signedInPage,
  startSite,
  stopSite,
} from '../helpers/browser.js';
import { call, callOk as ok } from '../helpers/cms.js';
import { png, uploaded } from '../helpers/media.js';
import { analyzeImport, fetchBytes, putFile, runExport, untar, uploadPackage } from '../helpers/transfer.js';

const SHOTS = resolve(import.meta.dirname, 'screenshots', 'transfer-import');

describeWithChromium('site transfer import tab', () => {
  let source: Site;
  let target: Site;
  let held: Site;
  let heldSession: string;
  let heldToken: string;
  let browser: Browser;
  let session: string;
  let token: string;
  let adaId: string;
  let archivePath: string;
  let damagedPath: string;
  let entries: Array<{ name: string; data: Buffer }>;
  let posts: string[];
  let imageId: string;
  const tmp = mkdtempSync(join(tmpdir(), 'cms-transfer-import-'));
  const problems: string[] = [];

  const open = (viewport = { width: 1280, height: 900 }, on = { site: target, session }): Promise<Page> =>
    signedInPage(browser, { origin: on.site.origin, session: on.session, problems }, { viewport });

  const shot = (p: Page, name: string) => screenshotFromTop(p, join(SHOTS, name));

  /** The package files the page PUT, in the order it sent them. */
  function watchUploads(p: Page): string[] {
    const sent: string[] = [];
    p.on('request', (req) => {
      const m = /\/admin\/transfer\/imports\/[0-9A-Z]{26}\/files\/(.+)$/.exec(req.url());
      if (req.method() === 'PUT' && m) sent.push(decodeURIComponent(m[1]));
    });
    return sent;
  }

  beforeAll(async () => {
    await ensureAdminBuilt();
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    [source, target, held, browser] = await Promise.all([
      startSite('export-src'),
      startSite('import-dst'),
      startSite('import-held'),
      launchChromium(),
    ]);

    // The source: two users, a collection, four entries, one image.
    const src = source.cms;
    const { user: lin } = await src.services.users.create(null, {
      email: 'lin@example.test',
      name: 'Lin Okafor',
      role: 50,
    });
    const { user: sam } = await src.services.users.create(null, {
      email: 'sam@example.test',
      name: 'Sam Reyes',
      role: 30,
    });
    const linToken = (await src.services.tokens.create(null, { userId: lin.id, name: 'seed' })).token;
    const samToken = (await src.services.tokens.create(null, { userId: sam.id, name: 'seed' })).token;
    await ok(src, linToken, 'PUT', '/settings', { title: 'Harbour Notes', tagline: 'Boats and the people in them' });
    await ok(src, linToken, 'POST', '/schema/collections', {
      slug: 'posts',
      label: 'Posts',
      fields: [{ slug: 'title', label: 'Title', type: 'string' }],
    });
    posts = [];
    for (const title of ['Harbour at dawn', 'Notes from the quay', 'Nets and knots']) {
      posts.push((await ok(src, linToken, 'POST', '/content/posts', { data: { title } })).item.id);
    }
    posts.push((await ok(src, samToken, 'POST', '/content/posts', { data: { title: 'Sam’s first post' } })).item.id);
    imageId = (await uploaded(src, await png(40, 30), { name: 'harbour.png', token: linToken })).id;

    // Its package, as the Export tab downloads it.
    const op = await runExport(src, linToken);
    const archive = await fetchBytes(src, `/admin/transfer/exports/${op.id}/archive`, linToken);
    expect(archive.status).toBe(200);
    archivePath = join(tmp, `site-${op.id}.tar`);
    writeFileSync(archivePath, archive.bytes);
    entries = await untar(archive.bytes);
    // A copy with one byte of the image changed: same sizes, another SHA-256.
    const damaged = Buffer.from(archive.bytes);
    const media = entries.findIndex((e) => e.name.startsWith('media/'));
    const at = archive.bytes.indexOf(entries[media].data);
    damaged[at + 20] ^= 0xff;
    damagedPath = join(tmp, 'damaged.tar');
    writeFileSync(damagedPath, damaged);

    // The target: an empty site with its first Admin; only the page moves imports on.
    await target.cms.services.transfer.worker.stop();
    const { user: ada } = await target.cms.services.users.create(null, {
      email: 'ada@example.test',
      name: 'Ada',
      role: 50,
    });
    adaId = ada.id;
    session = (await target.cms.services.auth.sessions.create(target.cms.database.db, ada.id, 'passkey')).id;
    token = (await target.cms.services.tokens.create(null, { userId: ada.id, name: 'seed' })).token;
    // Another empty site, for an import that holds it.
    await held.cms.services.transfer.worker.stop();
    const { user: kai } = await held.cms.services.users.create(null, {
      email: 'kai@example.test',
      name: 'Kai',
      role: 50,
    });
    heldSession = (await held.cms.services.auth.sessions.create(held.cms.database.db, kai.id, 'passkey')).id;
    heldToken = (await held.cms.services.tokens.create(null, { userId: kai.id, name: 'Migration script' })).token;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    for (const site of [source, target, held]) await stopSite(site);
    rmSync(tmp, { recursive: true, force: true });
  });

  it('imports a package into an empty site: upload, analysis, plan, decisions, confirmation, receipt', async () => {
    const p = await open();
    const sent = watchUploads(p);
    await p.goto(`${target.origin}/_cms/admin/transfer`);
    await p.getByRole('navigation', { name: 'Site transfer' }).getByRole('link', { name: 'Import' }).click();
    await p.getByRole('heading', { level: 2, name: 'Import a site package' }).waitFor();
    await p.getByText('No imports yet.').waitFor();
    expect(await p.locator('.page__lead').textContent()).toContain('import a package into this site');

    await p.getByLabel('Package archive (.tar)').setInputFiles(archivePath);
    await p.getByRole('button', { name: 'Upload and analyze' }).click();
    const current = p.getByTestId('current-import');
    await p.locator('[data-testid="current-import"][data-state="planned"]').waitFor();
    // manifest.json first, then every other file once, as the archive lists them.
    expect(sent[0]).toBe('manifest.json');
    expect([...sent].sort()).toEqual(entries.map((e) => e.name).sort());

    const plan = p.getByTestId('import-plan');
    await plan.waitFor();
    expect(await plan.getAttribute('data-executable')).toBe('true');
    const text = await plan.textContent();
    expect(text).toContain('Harbour Notes');
    expect(text).toContain('Boats and the people in them');
    expect(text).toContain(source.origin);
    await expect
      .poll(() => p.getByTestId('import-announcement').textContent())
      .toBe('The plan is ready: review it, then import.');

    // The package's two users; nobody here has their addresses, so both would be created.
    const principals = p.getByTestId('principal');
    expect(await principals.count()).toBe(2);
    const lin = principals.filter({ hasText: 'Lin Okafor' });
    const sam = principals.filter({ hasText: 'Sam Reyes' });
    expect(await lin.textContent()).toContain('No user of this site has its e-mail address');
    expect(await lin.getByRole('radio', { name: /Create this user/ }).isChecked()).toBe(true);
    // Before confirming, the administrator sees every account the import creates, with its address and role.
    const accounts = p.getByTestId('plan-created-accounts');
    expect(await accounts.textContent()).toContain('This import creates 2 accounts, 1 administrator among them');
    expect(await accounts.textContent()).toContain('lin@example.test');
    expect(await accounts.textContent()).toContain('sam@example.test');
    await shot(p, 'plan-desktop.png');

    // Lin's records go to Ada: the plan is made again with that decision.
    const before = (await ok(target.cms, token, 'GET', `/admin/transfer/imports?limit=1`)).items[0].planDigest;
    await lin.getByRole('radio', { name: 'Attribute to' }).check();
    await expect
      .poll(async () => (await ok(target.cms, token, 'GET', `/admin/transfer/imports?limit=1`)).items[0].planDigest)
      .not.toBe(before);
    await expect.poll(() => lin.getByRole('radio', { name: 'Attribute to' }).isChecked()).toBe(true);
    expect(await lin.getByRole('combobox').inputValue()).toBe(adaId);
    expect(await sam.getByRole('radio', { name: /Create this user/ }).isChecked()).toBe(true);
    await plan.getByText('1 package user attributed to users of this site').waitFor();
    await expect.poll(() => accounts.textContent()).toContain('This import creates 1 account:');

    // Execute, through the typed confirmation.
    await p.getByRole('button', { name: 'Import into this site…' }).click();
    const confirm = p.getByRole('group', { name: 'Import into this site' });
    expect(await confirm.textContent()).toContain('TRANSFER_IMPORT_IN_PROGRESS');
    const go = confirm.getByRole('button', { name: 'Import into this site' });
    expect(await go.isDisabled()).toBe(true);
    await p.getByLabel('Type import to confirm').fill('import');
    await go.click();
    await p.locator('[data-testid="current-import"][data-state="complete"]').waitFor();
    const receipt = p.getByTestId('import-receipt');
    await receipt.waitFor();
    expect(await p.getByTestId('receipt-written').textContent()).toMatch(/^\d+$/);
    expect(await p.getByTestId('receipt-principals').textContent()).toBe('1 attributed · 1 created');
    expect(await receipt.textContent()).toContain('Imported users sign in on this site by magic link or passkey');
    await expect
      .poll(() => p.getByTestId('import-announcement').textContent())
      .toBe('Import complete. The receipt is shown.');
    const digest = await receipt.getByLabel('Receipt digest').inputValue();
    const id = (await current.locator('code').first().textContent()) as string;
    expect((await ok(target.cms, token, 'GET', `/admin/transfer/imports/${id}/receipt`)).receiptDigest).toBe(digest);
    await shot(p, 'receipt-desktop.png');

    // What the source had is on the target now: the entries (Lin's as Ada's), the image, Sam.
    const list = await ok(target.cms, token, 'GET', '/content/posts?limit=100');
    expect(list.items.map((i: { id: string }) => i.id).sort()).toEqual([...posts].sort());
    const authors = new Set(list.items.map((i: { authorId: string }) => i.authorId));
    expect(authors.has(adaId)).toBe(true);
    const users = (await ok(target.cms, token, 'GET', '/admin/users?limit=100')).items;
    expect(users.map((u: { email: string }) => u.email).sort()).toEqual(['ada@example.test', 'sam@example.test']);
    expect((await ok(target.cms, token, 'GET', `/media/${imageId}`)).item.id).toBe(imageId);
    expect((await ok(target.cms, token, 'GET', '/settings')).title).toBe('Harbour Notes');
    // The list shows it complete, and the sidebar the imported collection.
    await p.locator('[data-testid="import-row"][data-state="complete"]').waitFor();
    await p
      .getByRole('link', { name: /^Posts/ })
      .first()
      .waitFor();
    await p.context().close();
    expect(problems).toEqual([]);
  }, 60_000);

  it('continues an upload left unfinished with only the missing files; a site with content gets a blocker, then cancel and abandon', async () => {
    // Started elsewhere: the manifest and one file are in.
    const created = await ok(target.cms, token, 'POST', '/admin/transfer/imports');
    for (const e of entries.slice(0, 2)) {
      const res = await putFile(target.cms, token, created.id, e.name, e.data);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const p = await open({ width: 390, height: 844 });
    const sent = watchUploads(p);
    await p.goto(`${target.origin}/_cms/admin/transfer?tab=import`);
    const row = p.locator('[data-testid="import-row"][data-state="uploading"]').filter({ hasText: created.id });
    await row.waitFor();
    expect(await row.textContent()).toContain(`2 of ${entries.length} files`);
    await row.getByRole('button', { name: /Continue upload/ }).click();
    const current = p.getByTestId('current-import');
    await current.getByText(`2 of ${entries.length} files`).waitFor();
    await current.getByLabel('Package archive (.tar) of this import').setInputFiles(archivePath);
    await current.getByRole('button', { name: 'Continue upload' }).click();
    await p.locator('[data-testid="current-import"][data-state="planned"]').waitFor();
    // The manifest again (accepted as it is), then only what was missing.
    expect(sent).toEqual(['manifest.json', ...entries.slice(2).map((e) => e.name)]);

    // This site has the imported content now: a blocker that says what to do, and no Import button.
    const blockers = p.getByTestId('plan-blockers');
    await blockers.waitFor();
    expect(await blockers.locator('[data-code="site_not_empty"]').textContent()).toContain(
      'Import into a new, empty installation',
    );
    expect(await p.getByTestId('import-plan').getAttribute('data-executable')).toBe('false');
    expect(await p.getByRole('button', { name: /Import into this site/ }).count()).toBe(0);
    await p.getByText('Import is not available').waitFor();
    await shot(p, 'blocked-mobile.png');
    expect(await p.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);

    // Cancel, then abandon (nothing was written, so the site was never held).
    await current.getByRole('button', { name: 'Cancel import' }).click();
    await current.getByRole('button', { name: 'Yes, cancel' }).click();
    await p.locator('[data-testid="current-import"][data-state="cancelled"]').waitFor();
    expect(await p.getByTestId('holds-site').count()).toBe(0);
    await current.getByRole('button', { name: 'Abandon import' }).click();
    await current.getByRole('button', { name: 'Yes, abandon' }).click();
    await p.locator('[data-testid="current-import"][data-state="abandoned"]').waitFor();
    expect((await ok(target.cms, token, 'GET', `/admin/transfer/imports/${created.id}`)).state).toBe('abandoned');
    await p.context().close();
    expect(problems).toEqual([]);
  }, 60_000);

  it('refuses a file that is not a package before creating anything, and a damaged archive with the service’s code', async () => {
    const count = async () => (await ok(target.cms, token, 'GET', '/admin/transfer/imports?limit=100')).items.length;
    const imports = await count();
    const p = await open();
    await p.goto(`${target.origin}/_cms/admin/transfer?tab=import`);
    const notTar = join(tmp, 'notes.tar');
    writeFileSync(notTar, readFileSync(archivePath).subarray(0, 300));
    await p.getByLabel('Package archive (.tar)').setInputFiles(notTar);
    await p.getByRole('button', { name: 'Upload and analyze' }).click();
    await p.getByTestId('import-error').getByText('This file is not a tar archive').waitFor();
    expect(await count()).toBe(imports);

    await p.getByLabel('Package archive (.tar)').setInputFiles(damagedPath);
    await p.getByRole('button', { name: 'Upload and analyze' }).click();
    const error = p.getByTestId('current-import').getByTestId('import-error');
    await error.getByText('VALIDATION_ERROR (sha256_mismatch)').waitFor();
    const text = await error.textContent();
    expect(text).toMatch(/media\/[0-9A-Z]{26}\.png was refused/);
    expect(text).toContain('The archive is damaged: download it again');
    await shot(p, 'damaged-desktop.png');
    // What it had is kept; the import waits for the archive again.
    await p.locator('[data-testid="current-import"][data-state="uploading"]').waitFor();
    await p.getByLabel('Package archive (.tar) of this import').waitFor();
    await p.context().close();
    expect(problems).toEqual([]);
  }, 30_000);

  it('shows that a cancelled import holds the site, and abandoning it undoes what it wrote and lifts the hold', async () => {
    // Executed by a script, then cancelled before it finished: the site stays held.
    const cms = held.cms;
    const id = await uploadPackage(cms, heldToken, readFileSync(archivePath));
    const plan = await analyzeImport(cms, heldToken, id);
    const digests = { packageDigest: plan.packageDigest, planDigest: plan.planDigest };
    expect((await ok(cms, heldToken, 'POST', `/admin/transfer/imports/${id}/execute`, digests)).holdsSite).toBe(true);
    expect((await ok(cms, heldToken, 'POST', `/admin/transfer/imports/${id}/cancel`)).state).toBe('cancelled');
    const write = { slug: 'notes', label: 'Notes', fields: [{ slug: 'title', label: 'Title', type: 'string' }] };
    const refused = await call(cms, 'POST', '/schema/collections', { token: heldToken, body: write });
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('TRANSFER_IMPORT_IN_PROGRESS');

    const p = await open({ width: 1280, height: 900 }, { site: held, session: heldSession });
    await p.goto(`${held.origin}/_cms/admin/transfer?tab=import`);
    // The tab says so before anything is opened, and the list marks it.
    await p.getByTestId('holds-site').getByText('This import holds the site.').waitFor();
    const row = p.locator('[data-testid="import-row"][data-state="cancelled"]');
    expect(await row.textContent()).toContain('Holds the site');
    expect(await row.textContent()).toContain('Started by Kai with the token “Migration script”');
    await p.getByRole('button', { name: /^Open the import that holds the site/ }).click();
    const current = p.locator('[data-testid="current-import"][data-state="cancelled"]');
    await current.waitFor();
    expect(await current.getByTestId('import-failure').textContent()).toContain('It had started executing');
    await shot(p, 'held-desktop.png');
    await current.getByRole('button', { name: 'Abandon import' }).click();
    await current.getByRole('button', { name: 'Yes, abandon' }).click();
    await p.locator('[data-testid="current-import"][data-state="abandoned"]').waitFor();
    expect(await p.getByTestId('holds-site').count()).toBe(0);
    await expect
      .poll(() => p.getByTestId('import-announcement').textContent())
      .toBe('Import abandoned: what it wrote was undone.');
    // Writes are open again.
    expect((await call(cms, 'POST', '/schema/collections', { token: heldToken, body: write })).status).toBe(201);
    await p.context().close();
    expect(problems).toEqual([]);
  }, 30_000);
});
