import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { resolveConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/log.js';
import { createCms } from '../../src/index.js';
import { freshDatabase, type TestDatabase } from './db.js';
import { pgUrlWithSchema } from './process.js';

/**
 * A site on disk or in a fresh PostgreSQL schema for a server started as a child process
 * (startServer): migrated, an Admin with a token, and a collection, made in this process before the
 * child starts. `env` is the child's environment for that database.
 */
export const COLLECTION = 'loadposts';

export interface Site {
  env: Record<string, string>;
  databaseUrl: string;
  tdb: TestDatabase | null;
  dataDir: string;
  token: string;
}

/** The service on the site's database in this process (no background jobs). */
export function openSite(dataDir: string, databaseUrl: string) {
  return createCms({
    config: resolveConfig({ dataDir, databaseUrl, logLevel: 'silent' }),
    logger: createLogger('silent'),
    scheduler: false,
  });
}

export async function seededSite(dialect: 'sqlite' | 'postgres'): Promise<Site> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-shutdown-'));
  const tdb = dialect === 'postgres' ? await freshDatabase('postgres') : null;
  const databaseUrl = tdb ? pgUrlWithSchema(tdb.url, tdb.schema!) : `sqlite:${join(dataDir, 'cms.db')}`;
  const cms = await openSite(dataDir, databaseUrl);
  try {
    const { user } = await cms.services.users.create(null, { email: 'admin@example.test', name: 'Admin' });
    const { token } = await cms.services.tokens.create(null, { userId: user.id, name: 'load' });
    const res = await cms.app.request('/_cms/api/schema/collections', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        slug: COLLECTION,
        label: 'Load posts',
        supports: ['search'],
        fields: [
          { slug: 'title', label: 'Title', type: 'string', required: true, indexed: true, searchable: true },
          { slug: 'body', label: 'Body', type: 'text', searchable: true },
          { slug: 'views', label: 'Views', type: 'integer', indexed: true },
        ],
      }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    return {
      env: { CMS_DATA_DIR: dataDir, CMS_DATABASE_URL: databaseUrl, CMS_LOG_LEVEL: 'info' },
      databaseUrl,
      tdb,
      dataDir,
      token,
    };
  } finally {
    await cms.close();
  }
}

export async function dropSite(site: Site): Promise<void> {
  await site.tdb?.drop();
  rmSync(site.dataDir, { recursive: true, force: true });
}
