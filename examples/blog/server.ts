/**
 * The example blog (examples/blog/README.md): a framework-free Node server that reads the CMS
 * with the typed client. `/` lists the published posts, `/posts/{slug}` renders one (Portable
 * Text as HTML, responsive images); `?preview=<token>` reads the draft with a preview token and
 * marks the page "Preview"; the page answers the admin's live-preview messages
 * (docs/frontends.md#live-preview) by fetching its article again and replacing it in place.
 *
 *   CMS_URL=http://127.0.0.1:3000 CMS_TOKEN=<a Subscriber's token> npx tsx examples/blog/server.ts
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { CmsClientError, type CmsEntry, createClient } from '../../src/client/index.js';
import { escapeHtml, portableTextToHtml } from './portable-text.js';

/** The posts collection's data as the blog reads it (`cms types` writes the full shape). */
interface PostData {
  title?: string;
  excerpt?: string;
  body?: unknown;
  cover?: ImageValue | null;
}

interface ImageValue {
  id?: string;
  src?: string;
  alt?: string;
  width?: number;
  height?: number;
  srcset?: string;
  srcsetCandidates?: Array<{ width: number; url: string }>;
}

type Schema = { posts: PostData };

export interface BlogOptions {
  /** The CMS's address (its publicUrl). */
  cmsUrl: string;
  /**
   * An API token for published reads (a Subscriber's, scope content:read; default the CMS_TOKEN
   * variable): the REST API answers content to signed-in callers only. Preview reads need none.
   */
  token?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The `sizes` attribute of article images. */
  sizes?: string;
}

export interface RunningBlog {
  url: string;
  close(): Promise<void>;
}

const SIZES = '(max-width: 760px) 100vw, 720px';

function imageHtml(value: ImageValue | Record<string, unknown> | null | undefined, sizes: string): string {
  const img = (value ?? {}) as ImageValue;
  const candidates = img.srcsetCandidates ?? [];
  const src = candidates.length ? candidates[candidates.length - 1].url : img.src;
  if (!src) return '';
  const attrs = [`src="${escapeHtml(src)}"`, `alt="${escapeHtml(img.alt ?? '')}"`];
  if (img.srcset) attrs.push(`srcset="${escapeHtml(img.srcset)}"`, `sizes="${escapeHtml(sizes)}"`);
  if (img.width && img.height) attrs.push(`width="${img.width}"`, `height="${img.height}"`);
  attrs.push('loading="lazy"', 'decoding="async"');
  return `<img ${attrs.join(' ')}>`;
}

function article(post: CmsEntry<PostData>, sizes: string, preview: boolean): string {
  const d = post.data;
  return [
    `<article id="post" data-rev="${escapeHtml(post.draftRevisionId ?? post.liveRevisionId ?? '')}">`,
    preview ? '<p class="preview-badge" role="status">Preview</p>' : '',
    `<h1>${escapeHtml(d.title ?? post.slug ?? '')}</h1>`,
    d.cover ? `<figure class="cover">${imageHtml(d.cover, sizes)}</figure>` : '',
    `<div class="body">${portableTextToHtml(d.body, (v) => imageHtml(v, sizes))}</div>`,
    '</article>',
  ].join('\n');
}

/** The live-preview listener: only messages from the CMS's origin count (docs/frontends.md#live-preview). */
function liveScript(cmsOrigin: string): string {
  return `<script>
(() => {
  const CMS = ${JSON.stringify(cmsOrigin)};
  addEventListener('message', async (event) => {
    if (event.origin !== CMS) return;
    const m = event.data;
    if (!m || m.type !== 'cms:preview:refresh' || typeof m.token !== 'string') return;
    event.source && event.source.postMessage({ type: 'cms:preview:ack', rev: m.rev }, event.origin);
    const u = new URL(location.href);
    u.searchParams.set('preview', m.token);
    u.searchParams.set('fragment', '1');
    const res = await fetch(u, { cache: 'no-store' });
    if (!res.ok) return;
    const html = await res.text();
    const current = document.getElementById('post');
    if (current) current.outerHTML = html;
  });
})();
</script>`;
}

function page(title: string, body: string, extra = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:720px;margin:2rem auto;padding:0 1rem}img{max-width:100%;height:auto}.preview-badge{background:#fde68a;padding:.25rem .5rem;display:inline-block}</style>
</head><body>
<header><a href="/">Blog</a></header>
<main>${body}</main>
${extra}
</body></html>`;
}

function send(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
  res.end(html);
}

export async function startBlog(options: BlogOptions): Promise<RunningBlog> {
  const cmsOrigin = new URL(options.cmsUrl).origin;
  const token = options.token ?? process.env.CMS_TOKEN ?? undefined;
  const client = createClient<Schema>({ baseUrl: options.cmsUrl, token: token || undefined });
  // A preview read goes without the blog's token: the preview token alone decides.
  const anonymous = createClient<Schema>({ baseUrl: options.cmsUrl });
  const sizes = options.sizes ?? SIZES;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://blog.invalid');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, page('Not allowed', '<p>GET only</p>'));
    if (url.pathname === '/') {
      const items: CmsEntry<PostData>[] = [];
      for await (const post of client.iterate('posts', { orderBy: 'publishedAt', order: 'desc', limit: 50 })) {
        if (post.status === 'published') items.push(post);
      }
      const list = items
        .map(
          (p) =>
            `<li><a href="/posts/${encodeURIComponent(p.slug ?? p.id)}">${escapeHtml(p.data.title ?? p.slug ?? p.id)}</a></li>`,
        )
        .join('\n');
      return send(res, 200, page('Blog', `<h1>Posts</h1>\n<ul class="posts">\n${list}\n</ul>`));
    }
    const m = /^\/posts\/([^/]+)$/.exec(url.pathname);
    if (!m) return send(res, 404, page('Not found', '<p>Not found</p>'));
    const slug = decodeURIComponent(m[1]);
    const preview = url.searchParams.get('preview') || undefined;
    let post: CmsEntry<PostData>;
    try {
      post = await (preview ? anonymous : client).get('posts', slug, { preview });
    } catch (err) {
      if (err instanceof CmsClientError && (err.status === 404 || err.status === 401)) {
        return send(res, 404, page('Not found', '<p>Not found</p>'));
      }
      if (err instanceof CmsClientError && err.code === 'PREVIEW_TOKEN_INVALID') {
        return send(res, 403, page('Preview refused', '<p>This preview link is not valid.</p>'), {
          'cache-control': 'no-store',
        });
      }
      throw err;
    }
    // Without a token only a published entry is a page (a reader with a token of their own could see more).
    if (!preview && post.status !== 'published') return send(res, 404, page('Not found', '<p>Not found</p>'));
    const html = article(post, sizes, Boolean(preview));
    const headers: Record<string, string> = preview ? { 'cache-control': 'no-store' } : {};
    if (url.searchParams.get('fragment') === '1') return send(res, 200, html, headers);
    return send(res, 200, page(post.data.title ?? slug, html, preview ? liveScript(cmsOrigin) : ''), headers);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      if (!res.headersSent) send(res, 502, page('CMS unavailable', `<p>${escapeHtml(message)}</p>`));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const cmsUrl = process.env.CMS_URL;
  if (!cmsUrl) {
    console.error('Set CMS_URL to the CMS address, e.g. CMS_URL=http://127.0.0.1:3000');
    process.exit(1);
  }
  const blog = await startBlog({ cmsUrl, port: Number(process.env.PORT ?? 4000) });
  console.log(`Blog on ${blog.url} (CMS ${cmsUrl})`);
}
