import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { resolveConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/log.js';
import { createCms } from '../../src/index.js';
import { describeEachDialect, freshDatabase } from '../helpers/db.js';
import { pgUrlWithSchema, runTs } from '../helpers/process.js';

describeEachDialect('cms users create', (dialect) => {
  it('bootstraps the first Admin and prints only the token, usable at once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cms-cli-'));
    const tdb = dialect === 'postgres' ? await freshDatabase('postgres') : null;
    const env: Record<string, string> = { CMS_DATA_DIR: dataDir, CMS_LOG_LEVEL: 'warn' };
    if (tdb) env.CMS_DATABASE_URL = pgUrlWithSchema(tdb.url, tdb.schema!);
    try {
      const first = await runTs(
        'src/cli/index.ts',
        ['users', 'create', '--email', 'Ops@Example.com', '--role', 'author', '--token-name', 'ci'],
        env,
      );
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/^cms_pat_[A-Za-z0-9_-]{43}\n$/);
      expect(first.stderr).toContain('the first user is always an Admin');

      const second = await runTs(
        'src/cli/index.ts',
        [
          'users',
          'create',
          '--email',
          'writer@example.com',
          '--role',
          'editor',
          '--token-name',
          'w',
          '--scopes',
          'content:read',
        ],
        env,
      );
      expect(second.code, second.stderr).toBe(0);
      const dup = await runTs('src/cli/index.ts', ['users', 'create', '--email', 'ops@example.com'], env);
      expect(dup.code).not.toBe(0);
      expect(dup.stderr).toContain('ALREADY_EXISTS');
      const badScope = await runTs(
        'src/cli/index.ts',
        ['users', 'create', '--email', 'x@example.com', '--token-name', 't', '--scopes', 'schema:write'],
        env,
      );
      expect(badScope.code).not.toBe(0);

      // The server on the same configuration accepts the printed token.
      const config = resolveConfig({
        dataDir,
        databaseUrl: env.CMS_DATABASE_URL ?? `sqlite:${join(dataDir, 'cms.db')}`,
        logLevel: 'silent',
      });
      const cms = await createCms({ config, logger: createLogger('silent') });
      try {
        const token = first.stdout.trim();
        const res = await cms.app.request('/_cms/api/schema/collections', {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(200);
        const users = await cms.database.db
          .selectFrom('_cms_users')
          .select(['email', 'role'])
          .orderBy('created_at')
          .execute();
        expect(users).toEqual([
          { email: 'ops@example.com', role: 50 },
          { email: 'writer@example.com', role: 40 },
        ]);
        const writerToken = second.stdout.trim();
        const denied = await cms.app.request('/_cms/api/schema/collections', {
          headers: { authorization: `Bearer ${writerToken}` },
        });
        expect(denied.status).toBe(403);
      } finally {
        await cms.close();
      }
    } finally {
      await tdb?.drop();
    }
  }, 60_000);
});
