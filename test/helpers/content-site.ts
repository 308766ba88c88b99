import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ROLES } from '../../src/auth/roles.js';
import { createLogger } from '../../src/core/log.js';
import type { DialectName } from '../../src/db/dialect.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { type Cms, createCms, resolveConfig } from '../../src/index.js';
import { watchPage } from './browser.js';
import { freshDatabase } from './db.js';

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

export interface ContentSite {
  origin: string;
  cms: Cms;
  server: RunningServer;
  /** A signed-in browser context for a new user of the role (sign-in itself is covered by admin-auth.test.ts). */
  personPage(role: number, name: string, viewport?: { width: number; height: number }): Promise<Page>;
  users: Record<string, string>;
  close(): Promise<void>;
}

/**
 * The real service listening on loopback over a fresh SQLite or PostgreSQL
 * database, with the site named and an Admin created; people of other roles
 * are added with `personPage`.
 */
export async function startContentSite(
  dialect: DialectName,
  browser: Browser,
  problems: string[],
  config: Record<string, unknown> = {},
): Promise<ContentSite> {
  const tdb = await freshDatabase(dialect);
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-content-e2e-'));
  const cms = await createCms({
    config: resolveConfig({ dataDir, publicUrl: origin, logLevel: 'silent', ...config }),
    database: tdb.database,
    logger: createLogger('silent'),
    scheduler: false,
  });
  await cms.services.settings.writeIdentity(
    { title: 'Field Notes', tagline: 'A magazine about small things' },
    cms.database.db,
  );
  const server = await listen(cms, port, '127.0.0.1');
  const contexts: BrowserContext[] = [];
  const users: Record<string, string> = {};
  let n = 0;
  return {
    origin,
    cms,
    server,
    users,
    async personPage(role, name, viewport = { width: 1280, height: 900 }) {
      const { user } = await cms.services.users.create(null, {
        email: `${name.toLowerCase().replace(/\W+/g, '.')}${++n}@example.test`,
        name,
        role: role as (typeof ROLES)[keyof typeof ROLES],
      });
      users[name] = user.id;
      const session = await cms.services.auth.sessions.create(cms.ctx.db, user.id, 'passkey');
      const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'Europe/Paris' });
      await context.addCookies([{ name: 'cms_session', value: session.id, url: origin }]);
      contexts.push(context);
      const page = await context.newPage();
      watchPage(page, problems);
      return page;
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      // Closing the server also closes the service's database.
      await server.stop().catch(() => {});
      await tdb.drop().catch(() => {});
    },
  };
}

/** A call of the site's API with a bearer token, answering `data` (a refusal throws, naming the call). */
export async function callSite<T = any>(
  origin: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${origin}/_cms/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { success: boolean; data: T; error?: unknown };
  if (!json.success) throw new Error(`${method} ${path}: ${JSON.stringify(json.error)}`);
  return json.data;
}
