import { ConfigError, loadConfig } from './core/config.js';
import { MigrationLockError } from './db/migrate.js';
import { listen } from './http/server.js';
import { createCms } from './index.js';
import './providers-atproto.js';

/** Longest a SIGTERM/SIGINT shutdown may take: the 10 s drain of connections plus closing the services. */
export const SHUTDOWN_DEADLINE_MS = 15_000;

/** Process entry: `npm start` and `cms serve`. */
export async function serveMain(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  let cms: Awaited<ReturnType<typeof createCms>>;
  try {
    cms = await createCms({ config });
  } catch (err) {
    if (err instanceof MigrationLockError) {
      process.stderr.write(`Start-up failed: ${err.message}\n`);
      process.exit(3);
    }
    process.stderr.write(`Start-up failed: ${(err as Error).message}\n`);
    process.exit(1);
  }
  let running: Awaited<ReturnType<typeof listen>>;
  try {
    running = await listen(cms);
  } catch (err) {
    await cms.close();
    process.stderr.write(`Start-up failed: ${listenProblem(err as NodeJS.ErrnoException, config.host, config.port)}\n`);
    process.exit(2);
  }
  cms.log.info(
    { url: running.url, admin: `${config.publicUrl}/_cms/admin`, api: `${config.publicUrl}/_cms/api` },
    'listening',
  );
  process.stdout.write(
    `CMS listening on ${running.url}\n  admin: ${config.publicUrl}/_cms/admin\n  API:   ${config.publicUrl}/_cms/api (reference: ${config.publicUrl}/_cms/api/docs)\n`,
  );
  const shutdown = (signal: string) => {
    cms.log.info({ signal }, 'shutting down');
    // The bound on the whole shutdown: the drain gives up on open connections after 10 s, but closing
    // the services (a worker's pass, the pool waiting for a query) has no bound of its own. Past the
    // deadline, say what was still open and exit non-zero rather than hang until the orchestrator kills.
    const deadline = setTimeout(async () => {
      const pending = await running.pending();
      const handles = process.getActiveResourcesInfo().reduce<Record<string, number>>((n, kind) => {
        n[kind] = (n[kind] ?? 0) + 1;
        return n;
      }, {});
      cms.log.error({ ...pending, handles, deadlineMs: SHUTDOWN_DEADLINE_MS }, 'shutdown did not finish in time');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    running.stop().then(
      // Exit 1 when requests had to be cut off at the drain timeout: the shutdown was not clean.
      () => process.exit(running.forced ? 1 : 0),
      (err) => {
        cms.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

/** One line for the operator instead of a stack trace. */
function listenProblem(err: NodeJS.ErrnoException, host: string, port: number): string {
  const where = `port ${port} on ${host}`;
  if (err.code === 'EADDRINUSE') return `${where} is already in use; stop the other server or set PORT to another port`;
  if (err.code === 'EACCES') return `no permission to listen on ${where}; use a port above 1023 or set PORT`;
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND')
    return `cannot listen on ${host}: no such local address; check HOST`;
  return `cannot listen on ${where}: ${err.message}`;
}

const isEntry = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isEntry) {
  serveMain().catch((err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}
