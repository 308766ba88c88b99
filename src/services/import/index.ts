import { type Actor, requirePermission } from '../../auth/actor.js';
import type { ContentService } from '../content/index.js';
import type { ServiceContext } from '../context.js';
import type { MenuService } from '../menus/index.js';
import type { SchemaService } from '../schema/index.js';
import type { SectionService } from '../sections/index.js';
import type { TaxonomyService } from '../taxonomies/index.js';
import { type Analysis, analyzeWxr } from './analyze.js';
import type { ExecuteConfig } from './config.js';
import type { ImportDeps } from './execute/deps.js';
import { type ExecuteOptions, type ExportSource, executeWxr, startWxr } from './execute/run.js';
import type { ExecuteResult } from './execute/tally.js';
import { type Phase, type PluginState, type PluginStep, pluginAnalyze, pluginExecute } from './live/plugin.js';
import { type ProbeResult, probeSite } from './live/probe.js';
import { type PreparePostType, type PrepareResult, prepareSchema } from './prepare.js';
import { wxrLimits } from './wxr/limits.js';
import { readWxr } from './wxr/read.js';

export type { Analysis } from './analyze.js';
export type { ExecuteOptions, ExportSource, ImportProgress } from './execute/run.js';
export type { ExecuteResult } from './execute/tally.js';
export type { Phase, PluginState, PluginStep } from './live/plugin.js';
export type { ProbeResult } from './live/probe.js';
export type { PreparePostType, PrepareResult } from './prepare.js';
export { exportTooLarge } from './wxr/limits.js';

/**
 * Import from a WordPress export file (WXR): analyze, prepare (additive
 * schema changes), execute. Every stage needs `import:execute` (Admin).
 */
export function createImportService(
  ctx: ServiceContext,
  services: {
    schema: SchemaService;
    content: ContentService;
    taxonomies: TaxonomyService;
    menus: MenuService;
    sections: SectionService;
  },
) {
  const deps: ImportDeps = { ctx, ...services };
  const limits = wxrLimits(ctx.config);
  return {
    /** How much of an export is read (the upload routes refuse a larger upload before spooling it). */
    limits,
    async analyze(actor: Actor, open: ExportSource): Promise<Analysis> {
      requirePermission(actor, 'import:execute');
      return analyzeWxr(readWxr(open(), limits), await services.schema.snapshot());
    },
    async prepare(actor: Actor, postTypes: PreparePostType[]): Promise<PrepareResult> {
      requirePermission(actor, 'import:execute');
      return prepareSchema(actor, services.schema, postTypes);
    },
    execute(actor: Actor, open: ExportSource, config: ExecuteConfig, opts?: ExecuteOptions): Promise<ExecuteResult> {
      return executeWxr(deps, actor, open, config, opts);
    },
    /** Execute in two steps: every refusal first, then the writing run (which reports progress). */
    start(actor: Actor, open: ExportSource, config: ExecuteConfig) {
      return startWxr(deps, actor, open, config);
    },
    /** Connect: is the address a WordPress site, and which source can import it. */
    async probe(actor: Actor, url: string): Promise<ProbeResult> {
      requirePermission(actor, 'import:execute');
      return probeSite(ctx, url);
    },
    plugin: {
      analyze: (actor: Actor, url: string, token: string): Promise<Analysis> => pluginAnalyze(deps, actor, url, token),
      execute: (
        actor: Actor,
        input: { url: string; token: string; config: ExecuteConfig; phase: Phase; state: PluginState },
      ): Promise<PluginStep> => pluginExecute(deps, actor, input),
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
