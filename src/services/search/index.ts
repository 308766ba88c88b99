import type { ContentService } from '../content/index.js';
import type { ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
import { adminOps } from './admin.js';
import { buildOps, type IndexDeps } from './build.js';
import { consistencyOps } from './consistency.js';
import { postgresEngine } from './engine-postgres.js';
import { sqliteEngine } from './engine-sqlite.js';
import { listenerOps } from './listeners.js';
import { readOps } from './read.js';
import { settingsCache } from './settings.js';
import { workerOps } from './worker.js';

export type { BuildReport, EnableInput } from './admin.js';
export * from './model.js';
export type { SearchInput, SuggestInput } from './read.js';

/**
 * Full-text search: per-collection indexes (FTS5 on SQLite, tsvector/pg_trgm
 * on PostgreSQL) kept in step with entry writes and schema changes inside
 * their transactions, searched with the content read rules.
 */
export function createSearchService(
  ctx: ServiceContext,
  { schema, content }: { schema: SchemaService; content: ContentService },
) {
  const deps: IndexDeps = {
    ctx,
    schema,
    engine: ctx.dialect === 'postgres' ? postgresEngine() : sqliteEngine,
    batch: ctx.config.searchRebuildBatch,
    rankWindow: ctx.config.searchRankWindow,
    heads: { size: ctx.config.searchHeadSize, threshold: ctx.config.searchHeadThreshold },
    settings: settingsCache(),
  };
  const builds = buildOps(deps);
  const listeners = listenerOps(deps, builds);
  content.hooks.afterWrite('search', listeners.onEntryWrite);
  schema.hooks.afterChange('search', listeners.onSchemaChange);
  const read = readOps(deps);
  const admin = adminOps(deps, builds);
  return {
    search: read.search,
    suggest: read.suggest,
    enable: admin.enable,
    rebuild: admin.rebuild,
    stats: admin.stats,
    /** Finish index builds in the background (started with the service; tests drive `runOnce`). */
    worker: workerOps(deps, builds, ctx.log),
    /** Build steps, for operators and tests that drive a rebuild one step at a time. */
    advance: builds.advance,
    /** The consistency checker's view of the index and its repairs (check/search.ts). */
    consistency: consistencyOps(deps, builds),
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
