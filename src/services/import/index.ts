import { type Actor, requirePermission } from '../../auth/actor.js';
import type { ExecuteConfig } from '../../schemas/import.js';
import type { ContentService } from '../content/index.js';
import type { ServiceContext } from '../context.js';
import type { MenuService } from '../menus/index.js';
import type { SchemaService } from '../schema/index.js';
import type { SectionService } from '../sections/index.js';
import type { TaxonomyService } from '../taxonomies/index.js';
import { type Analysis, analyzeWxr } from './analyze.js';
import type { ImportDeps } from './execute/deps.js';
import { type ExecuteOptions, type ExportSource, executeWxr } from './execute/run.js';
import type { ExecuteResult } from './execute/tally.js';
import { type PreparePostType, type PrepareResult, prepareSchema } from './prepare.js';
import { readWxr } from './wxr/read.js';

export type { Analysis } from './analyze.js';
export type { ExecuteOptions, ExportSource, ImportProgress } from './execute/run.js';
export type { ExecuteResult } from './execute/tally.js';
export type { PreparePostType, PrepareResult } from './prepare.js';

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
  return {
    async analyze(actor: Actor, open: ExportSource): Promise<Analysis> {
      requirePermission(actor, 'import:execute');
      return analyzeWxr(readWxr(open()), await services.schema.snapshot());
    },
    async prepare(actor: Actor, postTypes: PreparePostType[]): Promise<PrepareResult> {
      requirePermission(actor, 'import:execute');
      return prepareSchema(actor, services.schema, postTypes);
    },
    execute(actor: Actor, open: ExportSource, config: ExecuteConfig, opts?: ExecuteOptions): Promise<ExecuteResult> {
      return executeWxr(deps, actor, open, config, opts);
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
