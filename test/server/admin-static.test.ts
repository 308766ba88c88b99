import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROOT, createAdminApp } from '../../src/http/admin.js';

/** The admin SPA as the service serves it: a fake build in a temp folder. */
describe('admin app serving', () => {
  let dir: string;
  let app: Hono;
  const INDEX =
    '<!doctype html><title>admin</title><script type="module" src="/_cms/admin/assets/index-abc123.js"></script>';

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cms-admin-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(join(dir, 'assets', 'index-abc123.css'), 'body{}');
    writeFileSync(join(dir, 'secret.txt'), 'outside assets');
    app = new Hono();
    app.route(ADMIN_ROOT, createAdminApp(dir));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers index.html, not cached, for the root and every deep link', async () => {
    for (const path of [
      '/_cms/admin',
      '/_cms/admin/',
      '/_cms/admin/login',
      '/_cms/admin/users?q=x',
      '/_cms/admin/a/b/c',
    ]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(await res.text()).toBe(INDEX);
    }
  });

  it('serves hashed assets with a long immutable cache and the right type', async () => {
    const js = await app.request('/_cms/admin/assets/index-abc123.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await js.text()).toBe('console.log(1)');
    const css = await app.request('/_cms/admin/assets/index-abc123.css');
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('answers 404 for a missing asset and never leaves the assets folder', async () => {
    for (const path of [
      '/_cms/admin/assets/index-missing.js',
      '/_cms/admin/assets/%2e%2e%2fsecret.txt',
      '/_cms/admin/assets/..%2fsecret.txt',
      '/_cms/admin/assets/%2e%2e/%2e%2e/package.json',
    ]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(404);
      const body = await res.text();
      expect(body).not.toContain('outside assets');
      expect(body).not.toContain('"devDependencies"');
    }
  });

  it('answers HEAD without a body and refuses writes', async () => {
    const head = await app.request('/_cms/admin/login', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await app.request('/_cms/admin/login', { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('frames nothing, or only the front end origin it is given (the live preview)', async () => {
    const csp = async (a: Hono) =>
      (await a.request('/_cms/admin/content/posts/1')).headers.get('content-security-policy');
    const plain = await csp(app);
    expect(plain).toContain("frame-ancestors 'none'");
    expect(plain).not.toContain('frame-src');
    const framing = new Hono();
    framing.route(
      ADMIN_ROOT,
      createAdminApp(dir, async () => 'https://site.example'),
    );
    const policy = (await csp(framing)) ?? '';
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy.split('; ').filter((d) => d.startsWith('frame-src'))).toEqual(['frame-src https://site.example']);
  });

  it('answers a plain 503 when the admin is not built', async () => {
    const bare = new Hono();
    bare.route(ADMIN_ROOT, createAdminApp(join(dir, 'does-not-exist')));
    const res = await bare.request('/_cms/admin/');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toContain('admin app not built: run npm run build');
  });
});
