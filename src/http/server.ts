import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import type { Cms } from '../index.js';

export interface RunningServer {
  server: ServerType;
  url: string;
  /** Stop accepting, let in-flight requests finish, then close the database. */
  stop(): Promise<void>;
}

const DRAIN_TIMEOUT_MS = 10_000;

export function listen(cms: Cms, port = cms.config.port, host = cms.config.host): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: cms.app.fetch, port, hostname: host }, (info: AddressInfo) => {
      const shownHost = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      const url = `http://${shownHost}:${info.port}`;
      let stopping: Promise<void> | null = null;
      resolve({
        server,
        url,
        stop() {
          stopping ??= (async () => {
            cms.services.health.drain();
            await new Promise<void>((done) => {
              const timer = setTimeout(() => {
                cms.log.warn('in-flight requests did not finish in time; closing connections');
                (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
              }, DRAIN_TIMEOUT_MS);
              timer.unref();
              server.close(() => {
                clearTimeout(timer);
                done();
              });
              (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.();
            });
            await cms.close();
          })();
          return stopping;
        },
      });
    });
    server.once('error', reject);
  });
}
