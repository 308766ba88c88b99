import { expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import { cliSite, describeEachTarget } from '../helpers/cli.js';
import { call } from '../helpers/cms.js';

describeEachTarget('cms users and tokens', (kind) => {
  it('lists users with paging, changes roles and names, disables and enables them', async () => {
    const site = await cliSite(kind);
    const writer = await site.user(ROLES.AUTHOR);
    const other = await site.user(ROLES.SUBSCRIBER);

    const table = await site.run(['users', 'list']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^ID +EMAIL +NAME +ROLE +STATUS +LAST SIGN-IN\n/);
    expect(table.stdout).toContain('admin@example.test');
    const page = await site.run(['users', 'list', '--limit', '2', '--json']);
    expect(page.json().items).toHaveLength(2);
    expect(page.json().nextCursor).toBeTruthy();
    const rest = await site.run(['users', 'list', '--cursor', page.json().nextCursor, '--json']);
    expect(rest.json().items.map((u: any) => u.email)).toEqual([other.email]);
    const all = await site.run(['users', 'list', '--all', '--limit', '1', '--json']);
    expect(all.json().items).toHaveLength(3);
    expect(all.stderr).toContain('… 3 users, done');
    const authors = await site.run(['users', 'list', '--role', 'author', '--json']);
    expect(authors.json().items.map((u: any) => u.email)).toEqual([writer.email]);
    expect((await site.run(['users', 'list', '--role', 'wizard'])).code).toBe(2);

    const promoted = await site.run(['users', 'update', writer.email, '--role', 'editor', '--name', 'Wri Ter']);
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.stdout).toBe(`Updated ${writer.email} (${writer.userId}): editor\n`);
    const byId = await site.run(['users', 'update', writer.userId, '--name', '', '--json']);
    expect(byId.json()).toMatchObject({ name: null, role: 40 });
    expect((await site.run(['users', 'update', writer.email])).code).toBe(2);
    const missing = await site.run(['users', 'update', 'ghost@example.test', '--role', 'editor']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('[NOT_FOUND] No user with the email address ghost@example.test');

    const disabled = await site.run(['users', 'disable', writer.email]);
    expect(disabled.stdout).toBe(`Disabled ${writer.email} (${writer.userId}): editor, disabled\n`);
    expect((await call(site.cms, 'GET', '/content/x', { token: writer.token })).status).toBe(401);
    const enabled = await site.run(['users', 'enable', writer.email, '--json']);
    expect(enabled.json().disabled).toBe(false);
    const lastAdmin = await site.run(['users', 'disable', 'admin@example.test']);
    expect(lastAdmin.code).toBe(1);
    expect(lastAdmin.stderr).toContain('[LAST_ADMIN]');
    // An Editor's token may not manage users.
    const editor = await site.run(['users', 'list'], { token: writer.token });
    expect(editor.code).toBe(1);
    expect(editor.stderr).toContain('[INSUFFICIENT_PERMISSIONS]');
  });

  it('creates tokens (printed alone on stdout), lists and revokes them', async () => {
    const site = await cliSite(kind);
    const made = await site.run([
      'tokens',
      'create',
      '--name',
      'deploy',
      '--scopes',
      'content:read',
      '--expires-in',
      '30d',
    ]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^cms_pat_[A-Za-z0-9_-]{43}\n$/);
    expect(made.stderr).toContain('"deploy" (content:read), expires ');
    const token = made.stdout.trim();
    expect((await call(site.cms, 'GET', '/schema/collections', { token })).status).toBe(403);
    expect((await call(site.cms, 'GET', '/auth/me', { token })).body.data.user.email).toBe('admin@example.test');

    const json = await site.run(['tokens', 'create', '--name', 'all', '--json']);
    expect(json.json().record.scopes).toEqual(['admin']);
    const listed = await site.run(['tokens', 'list', '--json']);
    const names = listed.json().map((t: any) => t.name);
    expect(names).toEqual(expect.arrayContaining(['deploy', 'all']));
    const table = await site.run(['tokens', 'list']);
    expect(table.stdout).toMatch(/^ID +NAME +PREFIX +SCOPES +CREATED +LAST USED +EXPIRES\n/);

    const id = listed.json().find((t: any) => t.name === 'deploy').id;
    const revoked = await site.run(['tokens', 'revoke', id]);
    expect(revoked.stdout).toBe(`Revoked token ${id}\n`);
    expect((await call(site.cms, 'GET', '/auth/me', { token })).status).toBe(401);
    expect((await site.run(['tokens', 'revoke', id])).stderr).toContain('[NOT_FOUND]');

    // An Author's tokens: only scopes the role allows; an Admin sees them with --user.
    const author = await site.user(ROLES.AUTHOR);
    const own = await site.run(['tokens', 'create', '--name', 'mine', '--json'], { token: author.token });
    expect(own.code, own.stderr).toBe(0);
    expect(own.json().record.scopes).not.toContain('admin');
    const tooMuch = await site.run(['tokens', 'create', '--name', 'x', '--scopes', 'schema:write'], {
      token: author.token,
    });
    expect(tooMuch.code).toBe(1);
    expect(tooMuch.stderr).toMatch(/\[(INSUFFICIENT_PERMISSIONS|INSUFFICIENT_SCOPE)\]/);
    const theirs = await site.run(['tokens', 'list', '--user', author.email, '--json']);
    expect(theirs.json().map((t: any) => t.name)).toEqual(expect.arrayContaining(['mine']));
    expect((await site.run(['tokens', 'create', '--name', 'x', '--expires-in', 'soon'])).code).toBe(2);
  });

  it('prints a one-time admin sign-in link for a user (single use, consumed by Continue)', async () => {
    const site = await cliSite(kind);
    const writer = await site.user(ROLES.EDITOR);
    const res = await site.run(['users', 'login-link', '--email', writer.email.toUpperCase()]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^http:\/\/localhost:4321\/_cms\/admin\/magic-link\?token=[A-Za-z0-9_-]{43}\n$/);
    expect(res.stderr).toContain('within 15 minutes and select Continue');
    const token = new URL(res.stdout.trim()).searchParams.get('token');
    const signedIn = await call(site.cms, 'POST', '/auth/magic-link/consume', {
      body: { token },
      headers: { 'x-cms-request': '1' },
    });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.data.user.email).toBe(writer.email);
    expect(
      (await call(site.cms, 'POST', '/auth/magic-link/consume', { body: { token }, headers: { 'x-cms-request': '1' } }))
        .status,
    ).toBe(404);
    const unknown = await site.run(['users', 'login-link', '--email', 'nobody@example.test']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('[NOT_FOUND]');
    expect(unknown.stdout).toBe('');
    await site.run(['users', 'disable', writer.email]);
    const disabled = await site.run(['users', 'login-link', '--email', writer.email]);
    expect(disabled.stderr).toContain('[INVALID_STATE]');
  });

  it('keeps users create (bootstrap) on the local database', async () => {
    const site = await cliSite(kind);
    const res = await site.run(['users', 'create', '--email', 'new@example.test', '--role', 'editor']);
    if (kind === 'http') {
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('users create works on the local database');
      return;
    }
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ email: 'new@example.test', role: 'editor' });
    expect((await site.run(['users', 'create', '--email', 'new@example.test'])).stderr).toContain('[ALREADY_EXISTS]');
  });
});
