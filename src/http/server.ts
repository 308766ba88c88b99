import type { AddressInfo } from 'node:net';
import { Server as NetServer } from 'node:net';
import { type Http2Bindings, type HttpBindings, type ServerType, serve } from '@hono/node-server';
import type { CmsConfig } from '../core/config.js';
import type { Logger } from '../core/log.js';

/**
 * What the HTTP server runs: the app to answer with, where to listen, and how to drain and close.
 * The composition root's service (`createCms`) is one; the server does not depend on how it is built.
 */
export interface Servable {
  config: Pick<CmsConfig, 'port' | 'host'>;
  app: { fetch(request: Request, env: HttpBindings | Http2Bindings): Response | Promise<Response> };
  services: { health: { drain(): void } };
  log: Logger;
  close(): Promise<void>;
  /** While close() runs: the part it is waiting for. */
  closing(): string | null;
}

type Phase = 'serving' | 'draining' | 'closing' | 'stopped';

export interface RunningServer {
  server: ServerType;
  url: string;
  /** Stop accepting, let in-flight requests finish, then close the database. */
  stop(): Promise<void>;
  /** After stop(): the drain timeout ran out and open connections were cut (their requests got no answer). */
  readonly forced: boolean;
  /** What the shutdown still waits for (for the log line of a shutdown that overran its deadline). */
  pending(): Promise<{ phase: Phase; connections: number; closing: string | null }>;
}

const DRAIN_TIMEOUT_MS = 10_000;
/**
 * How long a keep-alive connection may stay idle once shutdown began. A request may sit unread on a
 * connection Node still counts as idle; closing such a connection at once (what http.Server.close()
 * does) resets a request the client already sent. After this grace, and once the event loop has read
 * what arrived, only connections no client is using are closed.
 */
const IDLE_GRACE_MS = 500;

export function listen(cms: Servable, port = cms.config.port, host = cms.config.host): Promise<RunningServer> {
  let phase: Phase = 'serving';
  const fetch = (request: Request, env: HttpBindings | Http2Bindings) => {
    // Once stopping, every answer closes its connection. Otherwise a keep-alive client sends its next
    // request on it and the server never runs out of work: under steady load the drain lasted until
    // its timeout cut every connection, requests in flight included.
    if (phase !== 'serving') env.outgoing.setHeader('Connection', 'close');
    return cms.app.fetch(request, env);
  };
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname: host }, (info: AddressInfo) => {
      const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      const url = `http://${shownHost}:${info.port}`;
      let stopping: Promise<void> | null = null;
      let forced = false;
      const http = server as unknown as {
        closeIdleConnections(): void;
        closeAllConnections(): void;
        keepAliveTimeout: number;
      };
      const connections = () => new Promise<number>((done) => server.getConnections((_err, n) => done(n ?? 0)));
      resolve({
        server,
        url,
        get forced() {
          return forced;
        },
        pending: async () => ({ phase, connections: await connections(), closing: cms.closing() }),
        stop() {
          stopping ??= (async () => {
            phase = 'draining';
            cms.services.health.drain();
            forced = await new Promise<boolean>((done) => {
              const timer = setTimeout(async () => {
                const open = await connections();
                cms.log.warn({ connections: open }, 'in-flight requests did not finish in time; closing connections');
                http.closeAllConnections();
                done(true);
              }, DRAIN_TIMEOUT_MS);
              timer.unref();
              // Stop accepting at once, but without http.Server.close()'s immediate closing of idle
              // connections (see IDLE_GRACE_MS); resolves once every connection has ended.
              NetServer.prototype.close.call(server, () => {
                clearTimeout(timer);
                done(false);
              });
              // A connection that goes idle from now on (its answer began before the shutdown, so it
              // kept keep-alive) closes after the grace; those idle now are closed after it too.
              http.keepAliveTimeout = IDLE_GRACE_MS;
              setTimeout(() => setImmediate(() => http.closeIdleConnections()), IDLE_GRACE_MS).unref();
            });
            phase = 'closing';
            await cms.close();
            phase = 'stopped';
          })();
          return stopping;
        },
      });
    });
    server.once('error', reject);
  });
}
