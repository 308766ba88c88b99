import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { resolveConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/log.js';
import { createCms } from '../../src/index.js';
import { describeEachDialect, freshDatabase } from '../helpers/db.js';
import { pgUrlWithSchema, runTs } from '../helpers/process.js';
import { Browser } from '../helpers/session.js';

describeEachDialect('cms users login-link', (dialect) => {
  it('gets a CLI-created first Admin into the admin: link → Continue → session, once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cms-link-'));
    const tdb = dialect === 'postgres' ? await freshDatabase('postgres') : null;
    // The README's quick start: no email provider, the first user made on the command line.
    const env: Record<string, string> = { CMS_DATA_DIR: dataDir, CMS_LOG_LEVEL: 'warn', PORT: '4321' };
    if (tdb) env.CMS_DATABASE_URL = pgUrlWithSchema(tdb.url, tdb.schema!);
    try {
      const made = await runTs(
        'src/cli/index.ts',
        ['users', 'create', '--email', 'you@example.com', '--name', 'You'],
        env,
      );
      expect(made.code, made.stderr).toBe(0);
      const out = await runTs('src/cli/index.ts', ['users', 'login-link', '--email', 'You@Example.com'], env);
      expect(out.code, out.stderr).toBe(0);
      expect(out.stdout).toMatch(/^http:\/\/localhost:4321\/_cms\/admin\/magic-link\?token=[A-Za-z0-9_-]{43}\n$/);
      expect(out.stderr).toMatch(/within 15 minutes/);
      const token = new URL(out.stdout.trim()).searchParams.get('token')!;

      const unknown = await runTs('src/cli/index.ts', ['users', 'login-link', '--email', 'nobody@example.com'], env);
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain('NOT_FOUND');
      expect(unknown.stdout).toBe('');

      const cms = await createCms({
        config: resolveConfig({
          dataDir,
          databaseUrl: env.CMS_DATABASE_URL ?? `sqlite:${join(dataDir, 'cms.db')}`,
          logLevel: 'silent',
        }),
        logger: createLogger('silent'),
        scheduler: false,
      });
      try {
        // Opening the page (or a link scanner fetching it) uses nothing up.
        expect((await cms.app.request(`/_cms/admin/magic-link?token=${token}`)).status).not.toBe(500);
        const browser = new Browser(cms);
        expect((await browser.call('GET', '/auth/me')).status).toBe(401);
        const signedIn = await browser.call('POST', '/auth/magic-link/consume', { body: { token } });
        expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
        const me = await browser.call('GET', '/auth/me');
        expect(me.status).toBe(200);
        expect(me.body.data.user).toMatchObject({ email: 'you@example.com', role: 50 });
        // From that session the user can start adding a passkey (Account page).
        expect((await browser.call('POST', '/auth/passkeys/options', { body: {} })).status).toBe(200);
        // Single use.
        const again = await new Browser(cms).call('POST', '/auth/magic-link/consume', { body: { token } });
        expect(again.status).toBe(404);
      } finally {
        await cms.close();
      }
    } finally {
      await tdb?.drop();
    }
  }, 90_000);
});
