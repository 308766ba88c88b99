import { z } from '@hono/zod-openapi';
import { pluginExecuteBodySchema, prepareBodySchema } from '../schemas/import.js';
import { operation } from './operation.js';

/**
 * The import operations with JSON bodies (the exporter plugin's batches, the
 * preparation of post types); the uploads of an export file stream and stay
 * transport of their routes (http/routes/import.ts).
 */
const Any = z.record(z.string(), z.unknown());
export const executeExporterImport = operation({
  id: 'executeExporterImport',
  body: pluginExecuteBodySchema,
  output: Any,
  writes: true,
  scope: null,
  run: async ({ actor, services }, { body }) =>
    (await services.import.plugin.execute(actor, {
      url: body.url,
      token: body.token,
      config: body.config,
      phase: body.phase,
      state: {
        cursor: body.cursor ?? null,
        idMap: body.idMap,
        translationGroups: body.translationGroups,
        commentRoots: body.commentRoots,
      },
    })) as unknown as Record<string, unknown>,
});

export const prepareBlogImport = operation({
  id: 'prepareBlogImport',
  body: prepareBodySchema,
  output: Any,
  writes: true,
  scope: null,
  run: async ({ actor, services }, { body }) =>
    (await services.import.prepare(actor, body.postTypes)) as unknown as Record<string, unknown>,
});
