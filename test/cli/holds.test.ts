import { expect, it } from 'vitest';
import { cliSite, describeEachTarget } from '../helpers/cli.js';
import { call } from '../helpers/cms.js';
import { asUpgradedSite, driveActivation } from '../helpers/media-usage.js';

const CODE = 'MEDIA_USAGE_ACTIVATION_IN_PROGRESS';

/**
 * The holds of services/holds.ts reach the command line as they reach REST
 * and MCP: on the local database (which the CLI opens itself) and through a
 * server. While media usage activation runs, writes exit 1 with its code and
 * change nothing; reads and the sign-in link an operator needs to get in go on.
 */
describeEachTarget('cms writes during media usage activation', (kind) => {
  it('are refused with its code, reads and login links go on, and all succeed once it is over', async () => {
    const site = await cliSite(kind);
    await asUpgradedSite(site.cms);
    const started = await call(site.cms, 'POST', '/admin/media-usage/activation', {
      token: site.cms.adminToken,
      body: { writersDrained: true },
    });
    expect(started.body.data.state, JSON.stringify(started.body)).toBe('activating');

    const rename = ['users', 'update', 'admin@example.test', '--name', 'Renamed', '--json'];
    const writes = [rename, ['tokens', 'create', '--name', 'ci', '--scopes', 'content:read']];
    for (const args of writes) {
      const refused = await site.run(args);
      expect(refused.code, `${args.join(' ')}: ${refused.stderr}`).toBe(1);
      expect(refused.stderr).toContain(`[${CODE}]`);
    }
    const listed = await site.run(['users', 'list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json().items.map((u: any) => u.name)).toEqual(['Admin']);
    const link = await site.run(['users', 'login-link', '--email', 'admin@example.test']);
    expect(link.code, link.stderr).toBe(0);
    expect(link.stdout).toContain('/_cms/');

    expect((await driveActivation(site.cms, site.cms.adminToken)).state).toBe('active');
    const renamed = await site.run(rename);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.json().name).toBe('Renamed');
  }, 60_000);
});
