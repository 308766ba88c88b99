import { z } from '@hono/zod-openapi';
import { DecisionsInput } from '../services/transfer/import-plan.js';

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
  startedBy: z
    .object({ id: z.string(), name: z.string().nullable(), tokenName: z.string().nullable() })
    .nullable()
    .openapi({ description: 'Who started it, and with which token (null for the command line or a session)' }),
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
    state: z.enum(['running', 'complete', 'failed', 'expired']).openapi({
      description: '`running`, `complete`, `failed`, or `expired` (its package was removed after the retention period)',
    }),
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
    import: z.object({
      maxMediaFileBytes: z
        .number()
        .int()
        .openapi({ description: "This site's maxUploadSize: larger media files are refused" }),
      maxRecordFileBytes: z.number().int(),
      retentionDays: z
        .number()
        .int()
        .openapi({ description: 'Unfinished imports and export packages are removed after this' }),
    }),
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
    decidedByName: z.string().nullable(),
    usedAt: Instant.nullable(),
    operationId: z.string().nullable(),
  })
  .openapi('TransferApproval');

export const ApprovalListSchema = z.object({ items: z.array(ApprovalSchema), nextCursor: z.string().nullable() });

export const ImportSchema = z
  .object({
    ...operationFields,
    state: z
      .enum(['uploading', 'analyzing', 'planned', 'executing', 'complete', 'failed', 'cancelled', 'abandoned'])
      .openapi({ description: 'An import left unfinished for 7 days is abandoned (its uploads removed)' }),
    files: z.object({
      listed: z.number().int().openapi({ description: 'Files of the package, manifest.json included' }),
      uploaded: z.number().int(),
      missing: z.number().int(),
      bytes: z.number().int(),
      bytesUploaded: z.number().int(),
    }),
    plan: z.object({ executable: z.boolean(), blockers: z.number().int(), warnings: z.number().int() }).nullable(),
    holdsSite: z
      .boolean()
      .openapi({ description: 'Other writes are refused until this import completes or is abandoned' }),
  })
  .openapi('TransferImport');

export const ImportListSchema = z.object({ items: z.array(ImportSchema), nextCursor: z.string().nullable() });

export const MissingQuery = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,9}$/)
    .optional()
    .openapi({ param: { name: 'cursor', in: 'query' }, description: 'nextCursor of the previous page, unchanged' }),
  limit: TransferListQuery.shape.limit,
});

export const MissingSchema = z
  .object({
    items: z.array(
      z.object({
        path: z.string(),
        kind: z.string(),
        size: z.number().int().nullable(),
        sha256: z.string().nullable(),
      }),
    ),
    total: z.number().int(),
    nextCursor: z.string().nullable(),
  })
  .openapi('TransferImportMissingFiles');

export const UploadFileBody = z.string().openapi({ type: 'string', format: 'binary', description: 'The file’s bytes' });

const PlanItem = z.object({
  code: z.string(),
  message: z.string(),
  kind: z.string().optional(),
  count: z.number().int().optional(),
});

export const DecisionsSchema = z.object({
  principals: z.record(z.string(), z.string().nullable()),
  title: z.enum(['package', 'target']),
  tagline: z.enum(['package', 'target']),
});

export const PlanSchema = z
  .object({
    packageDigest: z.string(),
    planDigest: z.string(),
    executable: z.boolean(),
    source: z.object({
      url: z.string(),
      title: z.string().nullable(),
      tagline: z.string().nullable(),
      createdAt: z.string(),
      release: z.string(),
      schemaVersion: z.string(),
    }),
    counts: z.object({ records: Counts, files: z.number().int(), mediaFiles: z.number().int() }),
    sizes: z.object({ bytes: z.number().int(), mediaBytes: z.number().int() }),
    principals: z.object({
      items: z.array(
        z.object({
          id: z.string(),
          name: z.string().nullable(),
          email: z.string().optional().openapi({
            description:
              'The e-mail address of the package user: shown to a signed-in administrator (session) and the local CLI only',
          }),
          role: z.number().int(),
          roleName: z.string().openapi({ description: 'subscriber, contributor, author, editor or admin' }),
          disabled: z.boolean(),
          records: z.number().int(),
          suggestedUserId: z.string().nullable(),
          mappedUserId: z
            .string()
            .nullable()
            .openapi({ description: 'The user of this site the records go to; null: the user is created' }),
        }),
      ),
      total: z.number().int(),
    }),
    decisions: DecisionsSchema,
    transformations: z.array(z.object({ code: z.string(), kind: z.string().optional(), count: z.number().int() })),
    warnings: z.object({ items: z.array(PlanItem), total: z.number().int() }),
    blockers: z.object({ items: z.array(PlanItem), total: z.number().int() }),
  })
  .openapi('TransferImportPlan');

export const AnalyzeBody = z
  .object({
    decisions: DecisionsInput.optional().openapi({
      description: 'On a planned import: change the decisions (a new planDigest)',
    }),
  })
  .strict();

export const ExecuteBody = z
  .object({
    packageDigest: z.string().max(100),
    planDigest: z.string().max(100),
  })
  .strict();

export const ReceiptSchema = z
  .object({
    importId: z.string(),
    packageDigest: z.string(),
    planDigest: z.string(),
    receiptDigest: z.string().openapi({ description: '`sha256:` of the receipt without this field' }),
    startedAt: z.string(),
    completedAt: z.string(),
    records: Counts.openapi({ description: 'Records written, by kind' }),
    dropped: Counts.openapi({ description: 'Records left out, by kind (they pointed at rows not in the package)' }),
    principals: z.object({ mapped: z.number().int(), created: z.number().int() }),
    media: z.object({ count: z.number().int(), bytes: z.number().int() }),
    source: PlanSchema.shape.source,
    decisions: z.object({ title: z.enum(['package', 'target']), tagline: z.enum(['package', 'target']) }),
    transformations: PlanSchema.shape.transformations,
    warnings: z.array(PlanItem),
  })
  .openapi('TransferImportReceipt');
