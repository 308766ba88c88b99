import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Cms } from '../../src/index.js';
import { type ApiResponse, call } from './cms.js';

/** The real WordPress exports the import is tested against. */
export const WXR_DIR = '/work/shared/testdata/wxr';

export function wxrBytes(name: string): Buffer {
  return readFileSync(join(WXR_DIR, name));
}

/**
 * The file's own counts, read with plain regular expressions (not with the
 * importer's parser): items, items per post type and status, comments.
 */
export function fileCounts(name: string) {
  let raw = wxrBytes(name);
  if (raw[0] === 0x1f && raw[1] === 0x8b) raw = gunzipSync(raw);
  const text = raw.toString('utf8');
  const items = text.split('<item>').slice(1);
  const cdata = (s: string | undefined) => (s ?? '').replace(/^<!\[CDATA\[|\]\]>$/g, '').trim();
  const byType: Record<string, { total: number; publish: number; comments: number }> = {};
  for (const item of items) {
    const type = cdata(/<wp:post_type>(.*?)<\/wp:post_type>/s.exec(item)?.[1]) || 'post';
    const status = cdata(/<wp:status>(.*?)<\/wp:status>/s.exec(item)?.[1]);
    byType[type] ??= { total: 0, publish: 0, comments: 0 };
    const t = byType[type];
    t.total++;
    if (status === 'publish') t.publish++;
    t.comments += item.split('<wp:comment>').length - 1;
  }
  return { items: items.length, byType };
}

/** POST a multipart request with the export as part `file` (and optional text parts). */
export async function postExport(
  cms: Cms,
  path: string,
  token: string,
  file: Buffer,
  fields: Record<string, string> = {},
  filename = 'export.xml',
): Promise<ApiResponse<any>> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([file]), filename);
  const res = await cms.app.request(`/_cms/api${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** Analyze, prepare every suggested post type, execute: the admin page's three calls. */
export async function importExport(
  cms: Cms,
  token: string,
  file: Buffer,
  config: Record<string, unknown> = {},
): Promise<{ analysis: any; prepared: any; result: ApiResponse<any> }> {
  const analyzed = await postExport(cms, '/import/blogplatform/analyze', token, file);
  if (analyzed.status !== 200) throw new Error(`analyze: ${JSON.stringify(analyzed.body)}`);
  const analysis = analyzed.body.data;
  let prepared: any = null;
  if (analysis.postTypes.length) {
    const res = await call(cms, 'POST', '/import/blogplatform/prepare', {
      token,
      body: {
        postTypes: analysis.postTypes.map((pt: any) => ({
          name: pt.name,
          collection: pt.collection,
          fields: pt.fields,
        })),
      },
    });
    if (res.status !== 200) throw new Error(`prepare: ${JSON.stringify(res.body)}`);
    prepared = res.body.data;
  }
  const result = await postExport(cms, '/import/blogplatform/execute', token, file, { config: JSON.stringify(config) });
  return { analysis, prepared, result };
}

/** The upload host of the theme unit test data's attachments. */
export const THEME_UPLOADS = 'https://wpthemetestdata.files.wordpress.com';

/**
 * A local stand-in for an old site's upload host: every image path answers
 * with a distinct small PNG (so no two attachments share bytes by accident),
 * except the paths in `missing` (404). Imports reach it with private hosts
 * allowed (CMS_IMPORT_ALLOW_PRIVATE_HOSTS).
 */
export async function serveUploads() {
  const { createHash } = await import('node:crypto');
  const { createServer } = await import('node:http');
  const sharp = (await import('sharp')).default;
  const missing = new Set<string>();
  const cache = new Map<string, Buffer>();
  const imageFor = async (path: string) => {
    let b = cache.get(path);
    if (!b) {
      const h = createHash('sha1').update(path).digest();
      const background = { r: h[0], g: h[1], b: h[2] };
      b = await sharp({ create: { width: 8 + (h[3] % 8), height: 6, channels: 3, background } })
        .png()
        .toBuffer();
      cache.set(path, b);
    }
    return b;
  };
  const server = createServer((req, res) => {
    const path = String(req.url).split('?')[0];
    if (missing.has(path) || !/\.(jpe?g|png|gif)$/i.test(path)) {
      res.writeHead(404).end();
      return;
    }
    void imageFor(path).then((body) => res.writeHead(200, { 'content-type': 'image/png' }).end(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    missing,
    /** The theme unit test data with its upload host pointing here. */
    themeData: () =>
      Buffer.from(wxrBytes('themeunittestdata.wordpress.xml').toString('utf8').replaceAll(THEME_UPLOADS, base)),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
