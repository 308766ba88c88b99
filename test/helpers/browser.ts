import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Browser,
  type BrowserContextOptions,
  type CDPSession,
  chromium,
  type Locator,
  type Page,
} from 'playwright-core';
import { describe, it } from 'vitest';
import type { ConfigInput } from '../../src/core/config.js';
import { createLogger } from '../../src/core/log.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { type Cms, createCms, resolveConfig } from '../../src/index.js';

/** Debian's Chromium; playwright-core never downloads a browser here. */
export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** Launch flags that keep Chromium quiet on a closed network (see PITFALLS). */
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP localhost 127.0.0.1',
];

/**
 * A suite `<name> (Chromium)` of browser tests, skipped where Chromium is
 * missing — except on CI, where a suite `<name>` fails instead and says what
 * is missing.
 */
export function describeWithChromium(name: string, fn: () => void): void {
  if (!hasChromium && process.env.CI) {
    describe(name, () => {
      it('needs Debian chromium at /usr/bin/chromium (.ci/run installs it)', () => {
        throw new Error(`${CHROMIUM} is missing`);
      });
    });
  }
  describe.skipIf(!hasChromium)(`${name} (Chromium)`, fn);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

export interface Site {
  /** `http://localhost:<port>`: WebAuthn needs a secure context, and localhost is one. */
  origin: string;
  server: RunningServer;
  dataDir: string;
  /** The service itself, for arranging data without the UI. */
  cms: Cms;
}

/** Stop a site startSite started and remove its data folder (nothing for one that never started). */
export async function stopSite(site: Site | undefined): Promise<void> {
  await site?.server.stop();
  if (site?.dataDir) rmSync(site.dataDir, { recursive: true, force: true });
}

/**
 * A page in a new browser context (British English, UTC unless `options`
 * say otherwise) signed in to `origin` with the `cms_session` cookie
 * `session`, its errors collected into `problems` (watchPage).
 */
export async function signedInPage(
  browser: Browser,
  { origin, session, problems }: { origin: string; session: string; problems: string[] },
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-GB', timezoneId: 'UTC', ...options });
  await context.addCookies([{ name: 'cms_session', value: session, url: origin }]);
  const page = await context.newPage();
  watchPage(page, problems);
  return page;
}

/** A full-page screenshot from the top (a sticky header would otherwise sit over the middle). */
export async function screenshotFromTop(page: Page, path: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path, fullPage: true });
}

/** The real service on a temporary SQLite database, listening on loopback with publicUrl = origin. */
export async function startSite(
  tag: string,
  extra: Pick<ConfigInput, 'i18n' | 'importAllowPrivateHosts' | 'auth'> = {},
): Promise<Site> {
  const dataDir = mkdtempSync(join(tmpdir(), `cms-${tag}-`));
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const config = resolveConfig({
    dataDir,
    databaseUrl: `sqlite:${join(dataDir, 'cms.db')}`,
    publicUrl: origin,
    logLevel: 'silent',
    ...extra,
  });
  const cms = await createCms({ config, logger: createLogger('silent') });
  const server = await listen(cms, port, '127.0.0.1');
  return { origin, server, dataDir, cms };
}

export interface Authenticator {
  cdp: CDPSession;
  authenticatorId: string;
}

/** A platform passkey authenticator (resident keys, user verification) for this page's browser context. */
export async function addAuthenticator(page: Page): Promise<Authenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/** Collect page errors and console errors/warnings (4xx resource loads are expected and ignored). */
export function watchPage(page: Page, problems: string[]): void {
  page.setDefaultTimeout(15_000);
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() !== 'error' && msg.type() !== 'warning') return;
    if (/Failed to load resource: the server responded with a status of 4\d\d/.test(msg.text())) return;
    problems.push(`${msg.type()}: ${msg.text()}`);
  });
}

type Box = { x: number; y: number; width: number; height: number };

/** A handle's box, or null while it is hidden or being replaced (lists hide their handles while a reorder saves). */
const boxOf = (handle: Locator): Promise<Box | null> => handle.boundingBox({ timeout: 1_000 }).catch(() => null);

/**
 * Drag `from` by the pointer until it sits just above `to` (both drag handles), once both are on
 * screen: a handle measured while the list re-renders after an earlier move has no box.
 */
export async function dragAbove(page: Page, from: Locator, to: Locator): Promise<void> {
  const deadline = Date.now() + 15_000;
  let boxes: [Box | null, Box | null] = [null, null];
  while (!(boxes[0] && boxes[1])) {
    if (Date.now() > deadline) throw new Error('the drag handles never showed');
    boxes = await Promise.all([boxOf(from), boxOf(to)]);
  }
  const [a, b] = boxes as [Box, Box];
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2, a.y - 10, { steps: 8 });
  await page.mouse.move(b.x + b.width / 2, b.y + 2, { steps: 12 });
  await page.mouse.up();
}
