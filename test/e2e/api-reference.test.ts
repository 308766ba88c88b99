import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, type Site, startSite } from '../helpers/browser.js';
import { ROOT } from '../helpers/process.js';

const SHOTS = join(ROOT, 'test/e2e/screenshots');

describe.skipIf(!hasChromium && process.env.CI !== 'true')('API reference page (Chromium)', () => {
  let site: Site;
  let browser: Browser;
  beforeAll(async () => {
    site = await startSite('reference');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.server.stop();
  });

  it('renders every operation from our own origin only, under its CSP', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    const problems: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(site.origin) && !req.url().startsWith('data:')) foreign.push(req.url());
    });
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(err.message));
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${new URL(r.url()).pathname}`);
    });
    const res = await page.goto(`${site.origin}/_cms/api/docs`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    // The document's operations appear (rendered from /_cms/api/openapi.json).
    await page.getByText('CMS REST API').first().waitFor({ timeout: 20_000 });
    await page.getByText('List collections in admin sidebar order').first().waitFor({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'api-reference.png') });
    expect(foreign).toEqual([]);
    // Nothing blocked by the CSP, nothing trying to reach the renderer vendor's services.
    expect(failed.filter((f) => !f.endsWith('/favicon.ico'))).toEqual([]);
    expect(problems.filter((p) => !p.includes('status of 404'))).toEqual([]);
    await page.close();
  }, 60_000);
});
