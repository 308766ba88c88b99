import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

export interface TcpProxy {
  /** Listen (again, on the same port) and forward each connection to the target. */
  open(): Promise<void>;
  /** Drop every connection and stop listening: the part is gone. */
  cut(): Promise<void>;
  /** From now on accept connections but forward nothing either way: the part is there but answers nothing. */
  stall(): void;
  port(): number;
}

/** A TCP proxy in front of a part the service depends on (PostgreSQL, an S3 server), for tests to fail it. */
export function tcpProxy(host: string, targetPort: number): TcpProxy {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  let stalled = false;
  const open = () =>
    new Promise<void>((resolve) => {
      stalled = false;
      if (server) return resolve();
      server = createServer((client) => {
        sockets.add(client);
        client.on('close', () => sockets.delete(client));
        client.on('error', () => {});
        if (stalled) return;
        const upstream = tcpConnect(targetPort, host);
        sockets.add(upstream);
        upstream.on('close', () => sockets.delete(upstream));
        upstream.on('error', () => {});
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      const closing = server;
      server = null;
      if (!closing) return resolve();
      closing.close(() => resolve());
    });
  const stall = () => {
    stalled = true;
    // Connections already open stop carrying bytes too.
    for (const s of sockets) s.pause();
  };
  return { open, cut, stall, port: () => port };
}
