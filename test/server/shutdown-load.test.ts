import { setTimeout as delay } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/db.js';
import { freshConnection, type Outcome, startLoad } from '../helpers/load.js';
import { COLLECTION, dropSite, openSite, type Site, seededSite } from '../helpers/served-site.js';
import { type ServerProcess, startServer } from '../helpers/server-process.js';

/**
 * SIGTERM in the middle of a steady load, on the real process entry. What a client may see:
 *
 * - A request the server took up (its access-log line, written when the handler finishes, names the
 *   request id) gets its whole response: the same status as logged, a body read to its end. Nothing
 *   ever arrives cut off mid-body. Every response is 2xx, or a 503 in the error envelope.
 * - Every request sent before the signal is answered 2xx, also one still unread in a socket buffer of
 *   a keep-alive connection when the signal came (closing "idle" connections at once resets it).
 * - A request sent after the signal may fail before any response byte (refused, reset, closed) only if
 *   the server never took it up: the one failure HTTP/1.1 leaves a client to retry.
 * - A connection opened after the server began shutting down is refused or answered 503.
 * - The process exits 0 within EXIT_BOUND_MS of the signal, without the drain timeout firing.
 * - After the service starts again on the same database, the entries are exactly the acknowledged creates (none
 *   lost, none committed behind an answer that never came), each holding its last acknowledged write.
 */
const WORKERS = 16;
const EXIT_BOUND_MS = 10_000;
const FILLER = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(60);

/**
 * Every entry of the collection, read through the API of the service started again on the database
 * (in this process: a second child would add the seconds a start-up takes on a busy machine).
 */
async function allEntries(site: Site): Promise<Array<{ id: string; title: string }>> {
  const cms = await openSite(site.dataDir, site.databaseUrl);
  try {
    const out: Array<{ id: string; title: string }> = [];
    let cursor: string | undefined;
    do {
      const res = await cms.app.request(
        `/_cms/api/content/${COLLECTION}?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
        { headers: { authorization: `Bearer ${site.token}` } },
      );
      const body = (await res.json()) as any;
      expect(res.status, JSON.stringify(body)).toBe(200);
      for (const item of body.data.items) out.push({ id: item.id, title: item.data.title });
      cursor = body.data.nextCursor;
    } while (cursor);
    return out;
  } finally {
    await cms.close();
  }
}

const isAnswered = (o: Outcome) => o.result === 'response' && o.status !== undefined && o.status < 300;
const isEnvelope503 = (o: Outcome) =>
  o.result === 'response' &&
  o.status === 503 &&
  o.body?.success === false &&
  typeof o.body?.error?.code === 'string' &&
  typeof o.body?.error?.message === 'string';

describeEachDialect('graceful shutdown under load', (dialect) => {
  it('SIGTERM mid-load answers what was taken up, refuses new connections, exits 0 in bounded time, loses no acknowledged write', async () => {
    const site = await seededSite(dialect);
    const prefix = `sd${dialect}`;
    const servers: ServerProcess[] = [];
    try {
      const server = await startServer(site.env);
      servers.push(server);
      const load = startLoad({
        url: server.url,
        token: site.token,
        collection: COLLECTION,
        workers: WORKERS,
        prefix,
        filler: FILLER,
      });
      // Steady state: every worker busy, enough entries that a list of 100 is a large response.
      await load.until(isAnswered, 10 * WORKERS);
      await load.until((o) => o.kind === 'create' && isAnswered(o), 4 * WORKERS);

      load.signalled();
      const signalAt = performance.now();
      server.child.kill('SIGTERM');
      let exitedAt = 0;
      const exited = server.exited.then((e) => {
        exitedAt = performance.now();
        return e;
      });
      // The server logs this line just before it closes its listener (same tick); if it dies instead, say so.
      const shutdownLine = await Promise.race([
        server.waitForLog((l) => l.msg === 'shutting down'),
        exited.then((e) => {
          throw new Error(`exited ${JSON.stringify(e)} without logging its shutdown:\n${server.output().slice(-3000)}`);
        }),
      ]);
      const probes: Array<Awaited<ReturnType<typeof freshConnection>>> = [];
      let gone = false;
      void exited.then(() => (gone = true));
      while (!gone) {
        probes.push(await freshConnection(server.url));
        // A poll of the listener while the process drains, not a wait for a condition.
        await Promise.race([delay(100), exited]);
      }
      const exit = await exited;
      const exitMs = exitedAt - signalAt;
      await load.stop();
      const outcomes = load.outcomes;
      const logged = new Map<string, { status: number; index: number }>();
      server.logs.forEach((l, index) => {
        if (l.msg === 'request' && typeof l.reqId === 'string' && l.reqId.startsWith(`${prefix}-`)) {
          logged.set(l.reqId, { status: l.status as number, index });
        }
      });
      const shutdownIndex = server.logs.indexOf(shutdownLine);
      const finishedInDrain = [...logged.values()].filter((l) => l.index > shutdownIndex).length;
      const sentBefore = outcomes.filter((o) => o.sentAt < signalAt);
      const refused = outcomes.filter((o) => o.result === 'no-response');
      console.log(
        `[${dialect}] SIGTERM → exit ${exit.code} in ${Math.round(exitMs)} ms; ${outcomes.length} requests, ` +
          `${sentBefore.length} sent before the signal, ${finishedInDrain} finished by the server after it began ` +
          `shutting down, ${refused.length} never taken up ` +
          `(${[...new Set(refused.map((o) => o.error))].join(', ')}); ${probes.length} new-connection probes: ` +
          `${[...new Set(probes.map((p) => p.error ?? p.status))].join(', ')}`,
      );

      expect(exit, server.output().slice(-3000)).toEqual({ code: 0, signal: null });
      expect(exitMs).toBeLessThan(EXIT_BOUND_MS);
      expect(server.logs.filter((l) => l.level >= 40).map((l) => l.msg)).toEqual([]);

      // Nothing arrives cut off; every response is 2xx or a clean 503 in the envelope.
      expect(outcomes.filter((o) => o.result === 'cut-body')).toEqual([]);
      expect(outcomes.filter((o) => o.result === 'response' && !isAnswered(o) && !isEnvelope503(o))).toEqual([]);
      // Every request sent before the signal was answered 2xx, those that were still waiting in a socket
      // buffer of a keep-alive connection when the signal came included. (Each worker's connection was
      // made long before: the first requests, a warm-up, came first.)
      expect(outcomes.filter((o) => o.sentAt < signalAt && !isAnswered(o))).toEqual([]);
      // Whatever the server took up, the client received whole, with the status the server logged.
      const byId = new Map(outcomes.map((o) => [o.requestId, o]));
      const lostAnswers = [...logged].filter(([id, l]) => {
        const o = byId.get(id);
        return o?.result !== 'response' || o.status !== l.status;
      });
      expect(lostAnswers).toEqual([]);
      // A connection failure only ever hits a request the server never took up.
      expect(refused.filter((o) => logged.has(o.requestId))).toEqual([]);
      // The drain really had work to finish.
      expect(finishedInDrain).toBeGreaterThan(0);
      // New connections after the shutdown began: refused or 503.
      expect(probes.length).toBeGreaterThan(0);
      expect(probes.filter((p) => !(p.error === 'ECONNREFUSED' || p.status === 503))).toEqual([]);

      // Started again on the same database: exactly the acknowledged creates, each with its last acknowledged write.
      const expected = new Map<string, string>();
      for (const o of [...outcomes].sort((a, b) => a.sentAt - b.sentAt)) {
        if (isAnswered(o) && (o.kind === 'create' || o.kind === 'update')) expected.set(o.entryId!, o.title!);
      }
      const stored = await allEntries(site);
      expect(stored.length).toBe(expected.size);
      expect(new Map(stored.map((e) => [e.id, e.title]))).toEqual(expected);
    } finally {
      for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
      await dropSite(site);
    }
  }, 60_000);
});
