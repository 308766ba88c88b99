import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { resolveConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/log.js';
import { connect } from '../../src/db/connect.js';
import { listen } from '../../src/http/server.js';
import { createCms } from '../../src/index.js';
import { testCms } from '../helpers/cms.js';
import { PG_URL, postgresAvailable } from '../helpers/db.js';
import { mcpClient } from '../helpers/mcp.js';
import { tcpProxy } from '../helpers/tcp-proxy.js';
import { waitFor } from '../helpers/wait.js';

/** A proxy to the shared PostgreSQL that a test can cut (every socket dropped, no new ones) and restore. */
function pgProxy() {
  const target = new URL(PG_URL);
  const proxy = tcpProxy(target.hostname, Number(target.port || 5432));
  return { ...proxy, url: () => PG_URL.replace(/@[^/]+\//, `@127.0.0.1:${proxy.port()}/`) };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function proxiedCms(options: { poolSize?: number; connectTimeoutMs?: number } = {}) {
  const base = await testCms('postgres');
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(base.ctx.db);
  const proxy = pgProxy();
  await proxy.open();
  const database = connect(proxy.url(), { schema: rows[0].schema, ...options });
  const cms = await createCms({
    config: resolveConfig({ dataDir: '/tmp/cms-test-data', logLevel: 'silent' }),
    database,
    migrate: false,
    scheduler: false,
    logger: createLogger('silent'),
  });
  closers.push(async () => {
    await proxy.open();
    await cms.close();
    await proxy.cut();
  });
  return { cms, proxy, token: base.adminToken };
}

it.skipIf(!postgresAvailable)(
  'PostgreSQL cut: 503 DATABASE_UNAVAILABLE fast, not ready, recovers by itself when it returns',
  async () => {
    const { cms, proxy, token } = await proxiedCms();
    const list = () => cms.app.request('/_cms/api/media', { headers: { authorization: `Bearer ${token}` } });
    expect((await list()).status).toBe(200);
    await proxy.cut();
    const started = Date.now();
    const res = await list();
    expect(res.status).toBe(503);
    expect(((await res.json()) as any).error.code).toBe('DATABASE_UNAVAILABLE');
    expect(res.headers.get('retry-after')).toBe('5');
    expect(Date.now() - started).toBeLessThan(10_000);
    const ready = await cms.app.request('/_cms/health/ready');
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as any).checks.database).toBe('unreachable');

    await proxy.open();
    const back = Date.now();
    await waitFor(
      async () => {
        const status = (await list()).status;
        if (status !== 200) throw new Error(`status ${status}`);
        return true;
      },
      {
        what: 'the media list to answer 200 again',
        timeoutMs: 20_000,
        intervalMs: 50,
      },
    );
    expect((await cms.app.request('/_cms/health/ready')).status).toBe(200);
    console.log(`[faults] PostgreSQL recovery after the proxy returned: ${Date.now() - back} ms`);
  },
  40_000,
);

it.skipIf(!postgresAvailable)(
  'a pool with every connection taken answers 503 within the connect timeout, then serves again',
  async () => {
    const { cms, token } = await proxiedCms({ poolSize: 1, connectTimeoutMs: 500 });
    const held = await cms.ctx.db.connection().execute(
      (conn) =>
        new Promise<void>((release) => {
          void sql`select 1`.execute(conn).then(async () => {
            const started = Date.now();
            const res = await cms.app.request('/_cms/api/schema/collections', {
              headers: { authorization: `Bearer ${token}` },
            });
            expect(res.status).toBe(503);
            expect(((await res.json()) as any).error.code).toBe('DATABASE_UNAVAILABLE');
            expect(Date.now() - started).toBeLessThan(5_000);
            release();
          });
        }),
    );
    expect(held).toBeUndefined();
    const res = await cms.app.request('/_cms/api/schema/collections', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
  },
  30_000,
);

it.skipIf(!postgresAvailable)(
  'an MCP tool names the same DATABASE_UNAVAILABLE code as REST while the database is cut',
  async () => {
    const { cms, proxy, token } = await proxiedCms();
    const running = await listen(cms, 0, '127.0.0.1');
    closers.push(() => new Promise<void>((done) => running.server.close(() => done())));
    const mcp = await mcpClient(running.url, token);
    closers.push(() => mcp.close());
    // The first call signs the token in (cached for a while), so the cut reaches the tool, not the sign-in.
    expect((await mcp.call('media_list', {})).isError).toBeFalsy();
    await proxy.cut();
    const failed = await mcp.call('media_list', {});
    expect(failed.isError).toBe(true);
    expect(failed._meta?.code).toBe('DATABASE_UNAVAILABLE');
    expect(failed.content[0]?.text).toContain('[DATABASE_UNAVAILABLE]');
    await proxy.open();
    await waitFor(async () => !(await mcp.call('media_list', {})).isError, { what: 'media_list to answer again' });
  },
  40_000,
);

it.skipIf(!postgresAvailable)(
  'under concurrent load a cut answers every request 503 within a bound, and all serve again once it returns',
  async () => {
    const { cms, proxy, token } = await proxiedCms({ poolSize: 4 });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    await cms.app.request('/_cms/api/schema/collections', {
      method: 'POST',
      headers,
      body: JSON.stringify({
        slug: 'notes',
        label: 'Notes',
        fields: [{ slug: 'title', label: 'Title', type: 'string' }],
      }),
    });
    const burst = (n: number) =>
      Promise.all(
        Array.from({ length: n }, async (_, i) => {
          const started = Date.now();
          const res =
            i % 2
              ? await cms.app.request('/_cms/api/content/notes', { headers })
              : await cms.app.request('/_cms/api/content/notes', {
                  method: 'POST',
                  headers,
                  body: JSON.stringify({ data: { title: `Note ${i}` } }),
                });
          const body = (await res.json()) as any;
          if (res.status === 201) acknowledged.add(body.data.item.id);
          return { status: res.status, code: body.error?.code, ms: Date.now() - started };
        }),
      );
    const acknowledged = new Set<string>();
    expect((await burst(8)).every((r) => r.status < 300)).toBe(true);
    await proxy.cut();
    const down = await burst(24);
    // Every request is answered, none hangs: the pool's connect timeout (5 s) bounds each.
    expect(down.map((r) => `${r.status} ${r.code}`)).toEqual(down.map(() => '503 DATABASE_UNAVAILABLE'));
    expect(Math.max(...down.map((r) => r.ms))).toBeLessThan(15_000);
    await proxy.open();
    await waitFor(async () => (await burst(8)).every((r) => r.status < 300), { what: 'a burst to succeed again' });
    // Exactly the acknowledged creates: nothing refused during the cut was written.
    const list = await cms.app.request('/_cms/api/content/notes?limit=100', { headers });
    const ids = ((await list.json()) as any).data.items.map((e: { id: string }) => e.id).sort();
    expect(ids).toEqual([...acknowledged].sort());
  },
  60_000,
);
