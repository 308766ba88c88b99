import { ConfigError, loadConfig } from './core/config.js';
import { MigrationLockError } from './db/migrate.js';
import { listen } from './http/server.js';
import { createCms } from './index.js';

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
  const running = await listen(cms);
  cms.log.info(
    { url: running.url, admin: `${config.publicUrl}/_cms/admin`, api: `${config.publicUrl}/_cms/api` },
    'listening',
  );
  process.stdout.write(
    `CMS listening on ${running.url}\n  admin: ${config.publicUrl}/_cms/admin\n  API:   ${config.publicUrl}/_cms/api (reference: ${config.publicUrl}/_cms/api/docs)\n`,
  );
  const shutdown = (signal: string) => {
    cms.log.info({ signal }, 'shutting down');
    running.stop().then(
      () => process.exit(0),
      (err) => {
        cms.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

const isEntry = process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href;
if (isEntry) {
  serveMain().catch((err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(1);
  });
}
