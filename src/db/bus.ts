import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type pg from 'pg';
import type { Logger } from '../core/log.js';
import { type Database, loadPg } from './connect.js';

/**
 * Invalidation bus: "this changed, forget what you cached". Process-local
 * caches (token → actor, schema …) subscribe to a topic; whoever changes the
 * underlying rows publishes the topic after the change committed.
 *
 * - This process's handlers run at once, inside `publish`.
 * - On PostgreSQL every other process hears it through `NOTIFY` within
 *   milliseconds: each process LISTENs on a connection of its own (outside the
 *   pool, so a busy pool never delays it), reconnects with backoff when that
 *   connection drops, and after a reconnect runs every handler once, since
 *   notifications sent meanwhile were lost.
 * - On SQLite (one process per file) only the local handlers run.
 *
 * Messages carry the schema (several sites, or test runs, may share one
 * PostgreSQL database: NOTIFY channels are per database, not per schema) and
 * the sender's id (a process ignores its own echo). The caches keep their TTL
 * as the safety net for a notification that never arrives.
 */
export const BUS_CHANNEL = 'cms_invalidate';

export interface Bus {
  /** Run this process's handlers for `topic` and tell the other processes. Never throws. */
  publish(topic: string): Promise<void>;
  /** Call `handler` whenever `topic` is published, here or in another process. Returns an unsubscribe. */
  subscribe(topic: string, handler: () => void): () => void;
  /** Connect the listener (PostgreSQL); resolves once listening, or after logging a first failure. */
  start(): Promise<void>;
  close(): Promise<void>;
  /** For health checks and tests: whether the cross-process listener is connected, and its backend pid. */
  status(): { mode: 'local' | 'postgres'; listening: boolean; pid: number | null };
}

const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5_000;

interface Message {
  ns: string;
  from: string;
  topic: string;
}

export function createBus(database: Database, log: Logger): Bus {
  const id = randomUUID();
  const handlers = new Map<string, Set<() => void>>();
  const remote = database.dialect === 'postgres' && database.listenerConfig !== undefined;
  let namespace: string | null = null;
  let client: pg.Client | null = null;
  let pid: number | null = null;
  let closed = false;
  let retryMs = RETRY_MIN_MS;
  let retryTimer: NodeJS.Timeout | null = null;
  let connectedOnce = false;

  function runLocal(topic: string): void {
    for (const handler of handlers.get(topic) ?? []) {
      try {
        handler();
      } catch (err) {
        log.error({ err, topic }, 'invalidation handler failed');
      }
    }
  }

  function runAll(): void {
    for (const topic of handlers.keys()) runLocal(topic);
  }

  async function ns(): Promise<string> {
    if (namespace === null) {
      const { rows } = await sql<{ ns: string }>`select current_schema() as ns`.execute(database.db);
      namespace = rows[0]?.ns ?? 'public';
    }
    return namespace;
  }

  function onNotification(msg: pg.Notification): void {
    if (msg.channel !== BUS_CHANNEL || !msg.payload) return;
    let parsed: Message;
    try {
      parsed = JSON.parse(msg.payload) as Message;
    } catch {
      return;
    }
    if (parsed.ns !== namespace || parsed.from === id || typeof parsed.topic !== 'string') return;
    runLocal(parsed.topic);
  }

  function scheduleReconnect(): void {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  }

  async function connect(): Promise<void> {
    if (closed) return;
    const next = new (loadPg().Client)({ ...database.listenerConfig, application_name: 'cms-invalidation' });
    const lost = (err?: Error) => {
      if (client !== next) return;
      client = null;
      pid = null;
      next.removeAllListeners('notification');
      next.end().catch(() => {});
      if (!closed) {
        log.warn({ err: err?.message }, 'invalidation listener lost its connection; reconnecting');
        scheduleReconnect();
      }
    };
    next.on('error', lost);
    next.on('end', () => lost());
    try {
      await ns();
      await next.connect();
      await next.query(`LISTEN ${BUS_CHANNEL}`);
      const { rows } = await next.query<{ pid: number }>('select pg_backend_pid() as pid');
      if (closed) {
        await next.end().catch(() => {});
        return;
      }
      next.on('notification', onNotification);
      client = next;
      pid = rows[0]?.pid ?? null;
      retryMs = RETRY_MIN_MS;
      // Whatever was published while we were not listening is lost: forget everything once.
      if (connectedOnce) runAll();
      connectedOnce = true;
    } catch (err) {
      next.removeAllListeners();
      next.on('error', () => {});
      await next.end().catch(() => {});
      log.warn({ err: (err as Error).message }, 'invalidation listener could not connect; retrying');
      scheduleReconnect();
    }
  }

  return {
    async publish(topic) {
      runLocal(topic);
      if (!remote || closed) return;
      try {
        const payload = JSON.stringify({ ns: await ns(), from: id, topic } satisfies Message);
        await sql`select pg_notify(${BUS_CHANNEL}, ${payload})`.execute(database.db);
      } catch (err) {
        log.warn({ err: (err as Error).message, topic }, 'could not notify other processes; their caches expire soon');
      }
    },
    subscribe(topic, handler) {
      const set = handlers.get(topic) ?? new Set<() => void>();
      handlers.set(topic, set);
      set.add(handler);
      return () => set.delete(handler);
    },
    async start() {
      if (remote && !client && !retryTimer) await connect();
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      const current = client;
      client = null;
      pid = null;
      if (current) {
        current.removeAllListeners('notification');
        await current.end().catch(() => {});
      }
    },
    status: () => ({ mode: remote ? 'postgres' : 'local', listening: client !== null, pid }),
  };
}
