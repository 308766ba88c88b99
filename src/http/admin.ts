import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import type { Services } from '../services/index.js';
import type { AppEnv } from './env.js';
import { REQUEST_ID_HEADER } from './middleware/request.js';

/** Where the admin SPA is served. */
export const ADMIN_ROOT = '/_cms/admin';

const IMMUTABLE = 'public, max-age=31536000, immutable';

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/**
 * The shell page may only load the admin's own scripts and styles and talk to
 * its own origin; it is never framed, and links never leak their token
 * (magic-link and invite URLs) through the Referer header. It may frame one
 * other origin: the site's front end (the `siteUrl` setting), for the
 * editor's live preview — none without it.
 */
function indexHeaders(frontendOrigin: string | null): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-cache',
    'Content-Security-Policy': frontendOrigin ? `${CSP}; frame-src ${frontendOrigin}` : CSP,
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
  };
}

/** The origin of the front end previews open on, or null (no site address, or one that does not parse). */
export async function frontendOrigin(services: Services): Promise<string | null> {
  const url = await services.content.preview.frontendUrl();
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The repository (or installed package) root: the nearest folder above this file with a package.json. */
function packageRoot(from: string): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return from;
    dir = parent;
  }
}

/** `dist/admin` of the package, found from src/http (tsx) and from dist/src/http (built) alike. */
export function defaultAdminDir(): string {
  return join(packageRoot(dirname(fileURLToPath(import.meta.url))), 'dist', 'admin');
}

/**
 * Serve the built admin app (`vite build` → dist/admin) at /_cms/admin:
 * hashed files under /assets/ cached for a year, index.html never cached and
 * answered for every other path so deep links reach the client router.
 * `frameOrigin` names the one origin the page may frame (the live preview).
 */
export function createAdminApp(
  dir: string = defaultAdminDir(),
  frameOrigin: () => Promise<string | null> = async () => null,
): Hono<AppEnv> {
  const root = resolve(dir);
  const assetsRoot = join(root, 'assets');
  const admin = new Hono<AppEnv>();
  // Static responses are built here, not through the context: give them the request id too.
  admin.use('*', async (c, next) => {
    await next();
    c.res.headers.set(REQUEST_ID_HEADER, c.get('requestId'));
  });

  async function index(method: string, frame: string | null): Promise<Response> {
    let html: Buffer;
    try {
      html = await readFile(join(root, 'index.html'));
    } catch {
      return new Response('admin app not built: run npm run build\n', {
        status: 503,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': '30' },
      });
    }
    return new Response(method === 'HEAD' ? null : new Uint8Array(html), {
      status: 200,
      headers: { ...indexHeaders(frame), 'Content-Length': String(html.length) },
    });
  }

  async function asset(rest: string, method: string): Promise<Response> {
    const notFound = () =>
      new Response('Not found\n', {
        status: 404,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
      });
    let relative: string;
    try {
      relative = decodeURIComponent(rest);
    } catch {
      return notFound();
    }
    const file = resolve(assetsRoot, relative);
    // Never leave the assets folder (`..`, encoded slashes, absolute paths).
    if (!file.startsWith(assetsRoot + sep) || relative.includes('\0')) return notFound();
    try {
      const info = await stat(file);
      if (!info.isFile()) return notFound();
      const body = await readFile(file);
      return new Response(method === 'HEAD' ? null : new Uint8Array(body), {
        status: 200,
        headers: {
          'Content-Type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
          'Content-Length': String(body.length),
          'Cache-Control': IMMUTABLE,
          'X-Content-Type-Options': 'nosniff',
        },
      });
    } catch {
      return notFound();
    }
  }

  admin.on(['GET', 'HEAD'], '*', async (c) => {
    const path = c.req.path.slice(ADMIN_ROOT.length);
    if (path.startsWith('/assets/')) return asset(path.slice('/assets/'.length), c.req.method);
    return index(c.req.method, await frameOrigin());
  });
  admin.all('*', () => new Response('Method not allowed\n', { status: 405, headers: { Allow: 'GET, HEAD' } }));
  return admin;
}
