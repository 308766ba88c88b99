import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/**
 * A small local stand-in of a WordPress site with the exporter plugin
 * (`/wp-json/` and `/wp-json/cms/v1/export/…`), paging with a numeric cursor
 * and a page size capped at `pageSize`, so multi-page flows are exercised.
 */
export interface StandinData {
  summary: Record<string, unknown>;
  items: Array<Record<string, unknown>>;
  comments: Array<Record<string, unknown>>;
  menuItems: Array<Record<string, unknown>>;
}

export interface Standin {
  url: string;
  token: string;
  requests: string[];
  /** Each request's path and headers, in order (what credentials reached this origin). */
  seen: Array<{ path: string; headers: IncomingHttpHeaders }>;
}

const servers: Server[] = [];
afterEach(async () => {
  while (servers.length) {
    const s = servers.pop()!;
    await new Promise<void>((r) => s.close(() => r()));
  }
});

export async function startStandin(
  data: StandinData,
  options: {
    plugin?: boolean;
    pageSize?: number;
    /** Path and query → `Location` of a 302 answered instead (before the credentials are checked). */
    redirects?: Record<string, string>;
  } = {},
): Promise<Standin> {
  const token = Buffer.from('editor:app pass word').toString('base64');
  const requests: string[] = [];
  const seen: Standin['seen'] = [];
  const pageSize = options.pageSize ?? 2;
  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    requests.push(u.pathname + u.search);
    seen.push({ path: u.pathname + u.search, headers: { ...req.headers } });
    const location = options.redirects?.[u.pathname + u.search];
    if (location) {
      res.writeHead(302, { location }).end();
      return;
    }
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (u.pathname === '/wp-json/' || u.pathname === '/wp-json') {
      return json(200, {
        name: 'Stand-in',
        description: 'A site',
        namespaces: options.plugin === false ? ['oembed/1.0', 'wp/v2'] : ['oembed/1.0', 'wp/v2', 'cms/v1'],
      });
    }
    if (!u.pathname.startsWith('/wp-json/cms/v1/export/') || options.plugin === false) return json(404, {});
    if (req.headers.authorization !== `Basic ${token}`) return json(401, { code: 'rest_forbidden' });
    const page = (list: unknown[], key: string) => {
      const from = Number(u.searchParams.get('cursor') ?? '0');
      const limit = Math.min(Number(u.searchParams.get('limit') ?? '100'), pageSize);
      const next = from + limit < list.length ? String(from + limit) : null;
      return json(200, { [key]: list.slice(from, from + limit), nextCursor: next });
    };
    const what = u.pathname.slice('/wp-json/cms/v1/export/'.length);
    if (what === 'summary') return json(200, data.summary);
    if (what === 'content') return page(data.items, 'items');
    if (what === 'comments') return page(data.comments, 'comments');
    if (what === 'menus') return json(200, { items: data.menuItems });
    return json(404, {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, token, requests, seen };
}
