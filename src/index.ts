import type { Hono } from 'hono';
import { type Clock, systemClock } from './core/clock.js';
import type { CmsConfig } from './core/config.js';
import { createLogger, type Logger } from './core/log.js';
import { type Bus, createBus } from './db/bus.js';
import { connect, type Database } from './db/connect.js';
import { migrate } from './db/migrate.js';
import { createApp } from './http/app.js';
import type { AppEnv } from './http/env.js';
import type { ServiceContext } from './services/context.js';
import { createServices, type Services } from './services/index.js';

export { type CmsConfig, loadConfig, resolveConfig } from './core/config.js';
export type { ProviderConfigRule, ProviderSettings } from './core/config-providers.js';
export { CmsError, type ErrorCode } from './core/errors.js';
// The AT Protocol provider is installed apart (src/providers-atproto.ts registers it).
export { atprotoProvider } from './services/auth/providers/atproto.js';
// Login providers: another package registers its own provider the way the included ones are (docs/authentication.md).
export type { OutboundFetch } from './services/auth/providers/outbound.js';
export { registerLoginProvider } from './services/auth/providers/registry.js';
export type {
  BeginInput,
  BeginResult,
  CompleteInput,
  LoginProvider,
  LoginProviderDefinition,
  ProviderDescriptor,
  ProviderEnvironment,
  ProviderKind,
  ProviderStorage,
  VerifiedIdentity,
} from './services/auth/providers/types.js';
// Responsive image URLs (docs/media.md#responsive-images): the builder a typed client signs with.
export type { ImageParams } from './services/media/images/params.js';
export { type ImageUrlOptions, type ImageUrlTarget, imageUrl } from './services/media/images/url.js';
export type { Bus };

export interface CreateCmsOptions {
  config: CmsConfig;
  clock?: Clock;
  logger?: Logger;
  /** Use an open database instead of connecting to config.databaseUrl. */
  database?: Database;
  /** Run migrations on start (default true). */
  migrate?: boolean;
  /** Background jobs: scheduled publishing, the sweep of abandoned uploads and search index builds (default true; tests drive them by hand). */
  scheduler?: boolean;
}

export interface Cms {
  config: CmsConfig;
  database: Database;
  services: Services;
  ctx: ServiceContext;
  app: Hono<AppEnv>;
  log: Logger;
  close(): Promise<void>;
  /** While close() runs: the part it is waiting for (a shutdown that overran its deadline names it). */
  closing(): string | null;
}

/** Build the whole service: database, migrations, services and the HTTP app. */
export async function createCms(options: CreateCmsOptions): Promise<Cms> {
  const { config } = options;
  const log = options.logger ?? createLogger(config.logLevel);
  const database = options.database ?? connect(config.databaseUrl, { sqliteCacheSize: config.sqliteCacheSize });
  try {
    if (options.migrate !== false) {
      const applied = await migrate(database, { snapshots: config.migrationSnapshots });
      if (applied.length) log.info({ applied }, 'migrations applied');
    }
  } catch (err) {
    await database.close();
    throw err;
  }
  const bus = createBus(database, log);
  await bus.start();
  const ctx: ServiceContext = {
    db: database.db,
    dialect: database.dialect,
    clock: options.clock ?? systemClock,
    config,
    log,
    bus,
  };
  let services: Services;
  let app: Hono<AppEnv>;
  try {
    services = createServices(ctx);
    app = createApp(config, log, services);
  } catch (err) {
    // A configuration the services refuse (a listed login provider no package registers): nothing stays open.
    await bus.close();
    await database.close();
    throw err;
  }
  if (options.scheduler !== false) {
    services.content.scheduler.start();
    services.media.sweeper.start();
    services.search.worker.start();
    services.transfer.worker.start();
  }
  let closed = false;
  let closing: string | null = null;
  const parts: Array<[string, () => Promise<void>]> = [
    ['auth (mail being sent)', () => services.auth.close()],
    ['scheduler', () => services.content.scheduler.stop()],
    ['redirect hit counts', () => services.redirects.close()],
    ['media sweeper', () => services.media.sweeper.stop()],
    ['search index worker', () => services.search.worker.stop()],
    ['transfer worker', () => services.transfer.worker.stop()],
    ['invalidation listener', () => bus.close()],
    ['database', () => database.close()],
  ];
  return {
    config,
    database,
    services,
    ctx,
    app,
    log,
    async close() {
      if (closed) return;
      closed = true;
      for (const [name, close] of parts) {
        closing = name;
        await close();
      }
      closing = null;
    },
    closing: () => closing,
  };
}
