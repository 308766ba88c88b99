import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { outboundFetch } from '../../../src/services/auth/providers/outbound.js';

/** Outbound calls of a provider: only the origins it allowed, plain http only on loopback, no redirects, a deadline. */
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ origin: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    handler!(req, res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

describe('login provider outbound calls', () => {
  it('reach only allowed origins and never follow a redirect', async () => {
    const target = await serve((req, res) => {
      if (req.url === '/moved') {
        res.statusCode = 302;
        res.setHeader('location', '/elsewhere');
        res.end();
      } else res.end('ok');
    });
    const other = await serve((_req, res) => res.end('other'));
    const fetcher = outboundFetch('test');
    fetcher.allow(`${target.origin}/issuer`);
    expect(await (await fetcher(`${target.origin}/x`)).text()).toBe('ok');
    await expect(fetcher(`${other.origin}/x`)).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
    expect(other.hits).toEqual([]);
    const moved = await fetcher(`${target.origin}/moved`);
    expect(moved.status).toBe(302);
    expect(target.hits).toEqual(['/x', '/moved']);
  });

  it('refuse plain http off loopback even when allowed', async () => {
    const fetcher = outboundFetch('test');
    fetcher.allow('http://example.com');
    await expect(fetcher('http://example.com/')).rejects.toMatchObject({ code: 'PROVIDER_FAILED' });
  });

  it('give up at the deadline', async () => {
    const silent = await serve(() => {
      // never answers
    });
    const fetcher = outboundFetch('test', 300);
    fetcher.allow(silent.origin);
    await expect(fetcher(`${silent.origin}/slow`)).rejects.toThrow();
    expect(silent.hits).toEqual(['/slow']);
  });
});
