import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Hono } from 'hono';
import type { AppEnv } from './env.js';

/**
 * The interactive API reference (`/_cms/api/docs`): the Scalar renderer's
 * standalone bundle from the installed `@scalar/api-reference` package, served
 * by us — never a CDN, so the page works offline and under a strict CSP. The
 * build copies the bundle to `dist/api-reference/` (the package is a
 * development dependency, like every other browser-only package); a checkout
 * that was not built serves it straight from node_modules.
 */
const BUNDLE = 'standalone.js';

function packageRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) return from;
    dir = parent;
  }
  return dir;
}

export function findReferenceBundle(): string | null {
  const built = join(packageRoot(dirname(fileURLToPath(import.meta.url))), 'dist', 'api-reference', BUNDLE);
  if (existsSync(built)) return built;
  try {
    const main = createRequire(import.meta.url).resolve('@scalar/api-reference');
    const installed = join(dirname(main), 'browser', BUNDLE);
    return existsSync(installed) ? installed : null;
  } catch {
    return null;
  }
}

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function page(root: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>CMS API reference</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="${root}/docs/assets/${BUNDLE}"></script>
    <script src="${root}/docs/assets/init.js"></script>
  </body>
</html>
`;
}

// Nothing that calls the renderer vendor's services: no default fonts (their CDN), no AI agent and
// no developer toolbar (their registry and proxy).
const settings = (root: string) => ({
  url: `${root}/openapi.json`,
  withDefaultFonts: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  showToolbar: 'never',
});
const init = (root: string) => `Scalar.createApiReference('#app', ${JSON.stringify(settings(root))});\n`;

export function apiReferenceRoutes(api: Hono<AppEnv>, root: string): void {
  let bundle: { raw: Buffer; gzip: Buffer } | null = null;
  const load = () => {
    if (bundle) return bundle;
    const file = findReferenceBundle();
    if (!file) return null;
    const raw = readFileSync(file);
    bundle = { raw, gzip: gzipSync(raw) };
    return bundle;
  };

  let present: boolean | null = null;
  api.get('/docs', (c) => {
    present ??= findReferenceBundle() !== null;
    if (!present) {
      return c.text('API reference renderer not installed: run npm install && npm run build\n', 503, {
        'Cache-Control': 'no-store',
      });
    }
    return c.html(page(root), 200, {
      'Content-Security-Policy': CSP,
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
  });
  api.get('/docs/assets/init.js', (c) =>
    c.body(init(root), 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' }),
  );
  api.get(`/docs/assets/${BUNDLE}`, (c) => {
    const b = load();
    if (!b) return c.text('Not found\n', 404);
    const gzip = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
    const headers: Record<string, string> = {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
      Vary: 'Accept-Encoding',
    };
    if (gzip) headers['Content-Encoding'] = 'gzip';
    return c.body(new Uint8Array(gzip ? b.gzip : b.raw), 200, headers);
  });
}
