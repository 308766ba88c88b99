import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../src/http/server.js';
import { call, testCms } from '../helpers/cms.js';
import { describeEachDialect } from '../helpers/db.js';
import { ROOT, runTs } from '../helpers/process.js';
import { sessionFor } from '../helpers/session.js';

const servers: RunningServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  while (servers.length) {
    const s = servers.pop()!;
    await new Promise<void>((done) => s.server.close(() => done()));
  }
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

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

/** Start `cms login`, resolve with the user code it prints, and with its exit. */
function startLogin(url: string, env: Record<string, string>) {
  const child = spawn(
    resolve(ROOT, 'node_modules/.bin/tsx'),
    [resolve(ROOT, 'src/cli/index.ts'), 'login', '--url', url],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
    },
  );
  let stderr = '';
  let stdout = '';
  const code = new Promise<string>((done, fail) => {
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = /enter the code ([A-Z]{4}-[A-Z]{4})/.exec(stderr);
      if (m) done(m[1]);
    });
    child.on('close', () => fail(new Error(`login ended before printing a code:\n${stderr}`)));
  });
  child.stdout.on('data', (d) => (stdout += d));
  const exit = new Promise<{ code: number | null; stderr: string; stdout: string }>((done) =>
    child.on('close', (c) => done({ code: c, stderr, stdout })),
  );
  return { code, exit };
}

describeEachDialect('cms login, whoami, logout (device grant against a running server)', (dialect) => {
  it('signs in with the device grant, keeps 0600 credentials, refreshes them, and signs out', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const cms = await testCms(dialect, { config: { publicUrl: url } });
    servers.push(await listen(cms, port, '127.0.0.1'));
    const dir = mkdtempSync(join(tmpdir(), 'cms-login-'));
    dirs.push(dir);
    const file = join(dir, 'nested', 'credentials.json');
    const env = { CMS_CREDENTIALS_FILE: file };

    const login = startLogin(`${url}/`, env);
    const userCode = await login.code;
    const browser = await sessionFor(cms, cms.adminId);
    const view = await browser.call('GET', `/oauth/device/verify/${userCode}`);
    expect(view.body.data.client.name).toMatch(/^CMS command line on /);
    const approved = await browser.call('POST', `/oauth/device/verify/${userCode}/approve`, {
      body: { scopes: ['content:read', 'schema:read'] },
    });
    expect(approved.status).toBe(200);
    const done = await login.exit;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toContain(`open ${url}/_cms/admin/oauth/device?user_code=${userCode}`);
    expect(done.stderr).toContain(`Signed in to ${url} as Admin <admin@example.test> (admin)`);
    expect(done.stdout).toBe('');

    expect(statSync(file).mode & 0o777).toBe(0o600);
    const creds = JSON.parse(readFileSync(file, 'utf8'));
    expect(creds).toMatchObject({ version: 1, url, scope: 'content:read schema:read' });
    expect(creds.accessToken).toMatch(/^cms_oat_/);
    expect(creds.refreshToken).toMatch(/^cms_ort_/);

    const who = await runTs('src/cli/index.ts', ['whoami'], env);
    expect(who.code, who.stderr).toBe(0);
    expect(who.stdout).toBe(`Admin <admin@example.test> (admin) on ${url}\n`);
    const json = await runTs('src/cli/index.ts', ['whoami', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ url, email: 'admin@example.test', role: 50 });

    // An expired access token is refreshed (and rotated) before use.
    writeFileSync(file, JSON.stringify({ ...creds, expiresAt: '2000-01-01T00:00:00.000Z' }), { mode: 0o600 });
    expect((await runTs('src/cli/index.ts', ['whoami'], env)).code).toBe(0);
    const renewed = JSON.parse(readFileSync(file, 'utf8'));
    expect(renewed.refreshToken).not.toBe(creds.refreshToken);
    expect(renewed.accessToken).not.toBe(creds.accessToken);
    expect(Date.parse(renewed.expiresAt)).toBeGreaterThan(Date.now());
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const out = await runTs('src/cli/index.ts', ['logout'], env);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain(`Signed out of ${url}`);
    expect(existsSync(file)).toBe(false);
    // Revoked at the server: the whole family is gone.
    expect((await call(cms, 'GET', '/auth/me', { token: renewed.accessToken })).status).toBe(401);

    const after = await runTs('src/cli/index.ts', ['whoami'], env);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain('Not signed in');
  }, 60_000);

  it('refuses a URL that is not the site public address, and a site that is not a CMS', async () => {
    const port = await freePort();
    const cms = await testCms(dialect, { config: { publicUrl: `http://127.0.0.1:${port}` } });
    servers.push(await listen(cms, port, '127.0.0.1'));
    const env = { CMS_CREDENTIALS_FILE: join(tmpdir(), `cms-never-${port}.json`) };
    const wrong = await runTs('src/cli/index.ts', ['login', '--url', `http://localhost:${port}`], env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(`run: cms login --url http://127.0.0.1:${port}`);
    const notCms = await runTs('src/cli/index.ts', ['login', '--url', `http://127.0.0.1:${port}/somewhere`], env);
    expect(notCms.code).toBe(1);
    expect(notCms.stderr).toMatch(/does not look like a CMS/);
  }, 60_000);
});
