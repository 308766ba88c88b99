import { request } from 'node:http';
import pg from 'pg';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/db.js';
import { COLLECTION, dropSite, type Site, seededSite } from '../helpers/served-site.js';
import { type ServerProcess, startServer } from '../helpers/server-process.js';

/**
 * The shutdown is bounded even when something cannot finish: connections still open 10 s after the
 * signal are cut (a warning names how many), and a shutdown still unfinished 15 s after it logs what
 * it waited for; either way the process exits 1, not 0 and not never.
 */
const DRAIN_MS = 10_000;
const DEADLINE_MS = 15_000;

/** A create whose body never arrives whole: the server takes it up and waits for the rest. */
async function unfinishedCreate(url: string, token: string): Promise<{ outcome: Promise<string> }> {
  let sent!: () => void;
  const written = new Promise<void>((r) => (sent = r));
  const outcome = new Promise<string>((done) => {
    const req = request(`${url}/_cms/api/content/${COLLECTION}`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': '1000' },
    });
    req.on('response', (res) => done(`answered ${res.statusCode}`));
    req.on('error', (err) => done((err as NodeJS.ErrnoException).code ?? err.message));
    req.write('{"data":{"title":"never fin', () => sent());
  });
  await written;
  // Its headers left before this request's connection was made: once this one is answered, the server
  // has accepted both connections and read what came first.
  expect((await fetch(`${url}/_cms/health/live`)).status).toBe(200);
  return { outcome };
}

async function signalled(server: ServerProcess) {
  const at = performance.now();
  server.child.kill('SIGTERM');
  const exit = await server.exited;
  return { exit, ms: performance.now() - at };
}

describeEachDialect('shutdown bounds', (dialect) => {
  it('cuts a request that cannot finish at the drain bound and exits 1', async () => {
    const site: Site = await seededSite(dialect);
    let server: ServerProcess | undefined;
    try {
      server = await startServer(site.env);
      const cut = await unfinishedCreate(server.url, site.token);
      const { exit, ms } = await signalled(server);
      console.log(`[${dialect}] a request held open: exit ${exit.code} after ${Math.round(ms)} ms`);
      expect(exit).toEqual({ code: 1, signal: null });
      expect(ms).toBeGreaterThanOrEqual(DRAIN_MS);
      expect(ms).toBeLessThan(DEADLINE_MS);
      expect(await cut.outcome).toBe('ECONNRESET');
      const warning = server.logs.find(
        (l) => l.msg === 'in-flight requests did not finish in time; closing connections',
      );
      expect(warning?.connections).toBe(1);
    } finally {
      if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
      await dropSite(site);
    }
  }, 60_000);

  it.runIf(dialect === 'postgres')(
    'stops at the hard deadline when the database cannot close, naming what it waited for, and exits 1',
    async () => {
      const site = await seededSite(dialect);
      const locker = new pg.Client({ connectionString: site.databaseUrl });
      let server: ServerProcess | undefined;
      try {
        await locker.connect();
        server = await startServer(site.env);
        // A query of a request that waits on a lock holds its pool connection: the pool cannot end.
        await locker.query('begin');
        await locker.query(`lock table ec_${COLLECTION} in access exclusive mode`);
        const blocked = fetch(`${server.url}/_cms/api/content/${COLLECTION}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${site.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ data: { title: 'behind a lock' } }),
        }).then(
          (r) => `answered ${r.status}`,
          (err) => (err as { cause?: { code?: string } }).cause?.code ?? String(err),
        );
        // Wait until the server's insert really waits for the lock.
        for (;;) {
          const { rows } = await locker.query<{ n: number }>(
            `select count(*)::int as n from pg_locks where not granted and relation = 'ec_${COLLECTION}'::regclass`,
          );
          if (rows[0].n > 0) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        const { exit, ms } = await signalled(server);
        expect(exit).toEqual({ code: 1, signal: null });
        expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS);
        expect(ms).toBeLessThan(DEADLINE_MS + 5_000);
        expect(await blocked).not.toMatch(/^answered 2/);
        const overran = server.logs.find((l) => l.msg === 'shutdown did not finish in time');
        console.log(
          `[${dialect}] a query behind a lock: exit ${exit.code} after ${Math.round(ms)} ms; ${JSON.stringify(overran)}`,
        );
        expect(overran, server.output().slice(-2000)).toMatchObject({ phase: 'closing', connections: 0 });
        expect(overran?.closing).toBeTypeOf('string');
        expect(overran?.handles).toBeTypeOf('object');
      } finally {
        if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
        await locker.query('rollback').catch(() => {});
        await locker.end().catch(() => {});
        await dropSite(site);
      }
    },
    60_000,
  );
});
