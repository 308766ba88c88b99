import { z } from '@hono/zod-openapi';

/** Request and response shapes of site transfer (`/admin/transfer/*`) and its MCP tools. */

const Instant = z.string().openapi({ format: 'date-time', example: '2026-01-02T03:04:05.678Z' });
const Ulid = z.string().regex(/^[0-9A-HJKMNP-TV-Z]{26}$/);

export const TransferIdParams = z.object({ id: Ulid.openapi({ param: { name: 'id', in: 'path' } }) });

export const TransferFileParams = z.object({
  id: Ulid.openapi({ param: { name: 'id', in: 'path' } }),
  path: z
    .string()
    .min(1)
    .max(200)
    .openapi({
      param: { name: 'path', in: 'path' },
      description: 'A path the manifest lists, URL-encoded (`records%2Fusers%2F00001.ndjson`)',
    }),
});

export const TransferListQuery = z.object({
  cursor: Ulid.optional().openapi({
    param: { name: 'cursor', in: 'query' },
    description: 'nextCursor of the previous page, unchanged',
  }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .openapi({ param: { name: 'limit', in: 'query' }, type: 'integer', description: '1 to 100, default 50' }),
});

export const TransferProgressSchema = z
  .object({
    done: z.number().int(),
    total: z.number().int(),
    records: z.number().int().optional(),
    bytesDone: z.number().int().optional(),
    bytesTotal: z.number().int().optional(),
  })
  .openapi('TransferProgress');

const operationFields = {
  id: z.string(),
  kind: z.enum(['export', 'import']),
  state: z.string(),
  stage: z.string().nullable(),
  progress: TransferProgressSchema,
  packageDigest: z.string().nullable().openapi({ description: '`sha256:<hex>` of the manifest' }),
  planDigest: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  createdAt: Instant,
  updatedAt: Instant,
  completedAt: Instant.nullable(),
  nextRequestInMs: z
    .number()
    .int()
    .nullable()
    .openapi({ description: 'Advance again after this many milliseconds; null when there is nothing left to do' }),
};

const Counts = z.record(z.string(), z.number().int());

export const ExportSchema = z
  .object({
    ...operationFields,
    state: z.string().openapi({ description: '`running`, `complete` or `failed`' }),
    stage: z.string().nullable().openapi({ description: '`records` while running, null once complete' }),
    options: z.object({ comments: z.boolean() }),
    totals: z
      .object({
        records: Counts.openapi({ description: 'Records by kind' }),
        media: z.object({ count: z.number().int(), bytes: z.number().int() }),
        files: z.object({ count: z.number().int(), bytes: z.number().int() }),
        skippedMedia: z
          .number()
          .int()
          .openapi({ description: 'Media items left out because storage had lost their bytes' }),
      })
      .nullable(),
  })
  .openapi('TransferExport');

export const ExportListSchema = z.object({ items: z.array(ExportSchema), nextCursor: z.string().nullable() });

export const CreateExportBody = z
  .object({
    comments: z.boolean().optional().openapi({ description: 'Include comments (default true)' }),
  })
  .strict();

export const CapabilitiesSchema = z
  .object({
    release: z.string(),
    schemaVersion: z.string().openapi({ description: 'The last database migration of this site' }),
    package: z.object({
      format: z.string(),
      formatVersion: z.number().int(),
      archive: z.string(),
      maxFiles: z.number().int(),
      maxManifestBytes: z.number().int(),
    }),
    export: z.object({ options: z.record(z.string(), z.unknown()) }),
    storage: z.enum(['file', 's3']),
  })
  .passthrough()
  .openapi('TransferCapabilities');

export const ApprovalSchema = z
  .object({
    id: z.string(),
    action: z.enum(['export', 'import']),
    state: z.enum(['pending', 'approved', 'denied', 'used', 'expired']),
    arguments: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'The exact arguments the request is bound to' }),
    user: z.object({ id: z.string(), name: z.string().nullable() }),
    tokenId: z.string(),
    tokenName: z.string().nullable(),
    createdAt: Instant,
    expiresAt: Instant,
    decidedAt: Instant.nullable(),
    decidedBy: z.string().nullable(),
    usedAt: Instant.nullable(),
    operationId: z.string().nullable(),
  })
  .openapi('TransferApproval');

export const ApprovalListSchema = z.object({ items: z.array(ApprovalSchema), nextCursor: z.string().nullable() });
