import type { Command } from 'commander';
import { type CliContext, examples } from '../context.js';
import { ApiError } from '../errors.js';
import { byteSize, keyValues, shortTime } from '../format.js';
import type { Output } from '../io.js';
import type { Target, TransferExport } from '../target/types.js';
import { type Destination, destination, type SavedArchive, saveArchive } from '../transfer/archive.js';
import { recordTotal } from '../transfer/counts.js';
import { listCommand } from '../transfer/list.js';
import { type Progress, progressOn } from '../transfer/progress.js';
import { followSteps } from '../transfer/steps.js';

/**
 * `cms transfer export | exports | download`: start an export and advance
 * it step by step (as the API asks: `nextRequestInMs`), then stream its
 * archive to a file or stdout and check it against the manifest. The same
 * code drives the local services and a site's REST API.
 */

const recordCount = (e: TransferExport) => (e.totals ? recordTotal(e.totals.records) : e.progress.done);

/** Advance a running export until the site says there is nothing left to do. */
export async function runExport(target: Target, started: TransferExport, progress: Progress): Promise<TransferExport> {
  const op = await followSteps(
    started,
    (id) => target.transfer.exports.advance(id),
    ({ progress: { done, total, bytesDone } }) =>
      progress.tick(`Exporting: ${done}/${total} records${bytesDone ? `, ${byteSize(bytesDone)}` : ''}`),
  );
  if (op.state !== 'complete') {
    throw new ApiError(op.error?.code ?? 'EXPORT_FAILED', op.error?.message ?? `The export ended ${op.state}`, {
      exportId: op.id,
    });
  }
  progress.step(`Export ${op.id} complete: ${recordCount(op)} records, ${op.totals?.files.count ?? 0} files`);
  return op;
}

/** The result: a JSON object, or a short summary (on stderr when stdout carries the archive). */
function printResult(out: Output, op: TransferExport, saved: SavedArchive, json?: boolean): void {
  const totals = op.totals;
  if (json) {
    out.json({
      id: op.id,
      archive: saved.archive,
      archiveBytes: saved.bytes,
      packageDigest: op.packageDigest,
      options: op.options,
      totals,
      verified: saved.verified,
      createdAt: op.createdAt,
      completedAt: op.completedAt,
    });
    return;
  }
  const text = keyValues([
    ['archive', `${saved.archive === '-' ? 'stdout' : saved.archive} (${byteSize(saved.bytes)})`],
    ['package digest', op.packageDigest],
    ['export', op.id],
    ['records', String(recordCount(op))],
    ['media', totals ? `${totals.media.count} (${byteSize(totals.media.bytes)})` : undefined],
    [
      'skipped media',
      totals?.skippedMedia ? `${totals.skippedMedia} (their bytes were missing from storage)` : undefined,
    ],
    ['comments', op.options.comments ? undefined : 'left out'],
    [
      'verified',
      `${saved.verified.files} files, ${byteSize(saved.verified.bytes)}: sizes and SHA-256 match the manifest`,
    ],
  ]);
  if (saved.archive === '-') out.note(text);
  else out.line(text);
}

const exportRow = (e: TransferExport) => [
  e.id,
  e.error ? `${e.state} (${e.error.code})` : e.state,
  shortTime(e.createdAt),
  e.totals ? String(recordCount(e)) : `${e.progress.done}/${e.progress.total}`,
  e.totals ? String(e.totals.files.count) : '—',
  e.totals ? byteSize(e.totals.files.bytes) : '—',
];

const OUT_HELP = 'write the archive here (a folder gets site-<export ID>.tar; "-": stdout)';

export function transferExportCommands(transfer: Command, ctx: CliContext): void {
  examples(
    transfer
      .command('export')
      .description(
        'Export the whole site: start an export, advance it to the end, download its tar archive and check it against the manifest',
      )
      .option('-o, --out <file>', `${OUT_HELP}; default ./site-<export ID>.tar`)
      .option('--no-comments', 'leave comments out of the package')
      .option('--json', 'print JSON: { id, archive, archiveBytes, packageDigest, totals, verified, … }')
      .action(async (opts: { out?: string; comments: boolean; json?: boolean }, cmd: Command) => {
        const where = destination(ctx.io, opts.out, Boolean(opts.json));
        await ctx.withTarget(cmd, 'system', async (target, out) => {
          const progress = progressOn(out);
          const started = await target.transfer.exports.start({ comments: opts.comments });
          const dest: Destination = where(started.id);
          progress.step(
            `Export ${started.id} started: ${started.progress.total} records${opts.comments ? '' : ' (comments left out)'}`,
          );
          const done = await runExport(target, started, progress);
          printResult(out, done, await saveArchive(ctx.io, target, done, dest, progress), opts.json);
        });
      }),
    [
      'cms transfer export',
      'cms transfer export --out backups/ --no-comments',
      'cms --url https://cms.example.com --token "$CMS_TOKEN" transfer export --out site.tar --json',
      'cms --remote transfer export --out - | tar -t',
    ],
  );

  examples(
    listCommand(transfer, ctx, {
      name: 'exports',
      description: 'List exports (newest first): state, records, package files and bytes',
      page: (target, params) => target.transfer.exports.list(params),
      headers: ['ID', 'STATE', 'CREATED', 'RECORDS', 'FILES', 'BYTES'],
      row: exportRow,
      noun: 'exports',
      empty: 'No exports yet: start one with cms transfer export.',
    }),
    ['cms transfer exports', 'cms --remote transfer exports --all --json'],
  );

  examples(
    transfer
      .command('download')
      .description("Download a complete export's tar archive and check it against the manifest")
      .argument('<export-id>', 'the export (see cms transfer exports)')
      .option('-o, --out <file>', `${OUT_HELP}; default ./site-<export ID>.tar`)
      .option('--json', 'print JSON: { id, archive, archiveBytes, packageDigest, totals, verified, … }')
      .action(async (id: string, opts: { out?: string; json?: boolean }, cmd: Command) => {
        const where = destination(ctx.io, opts.out, Boolean(opts.json));
        await ctx.withTarget(cmd, 'system', async (target, out) => {
          const op = await target.transfer.exports.get(id);
          const saved = await saveArchive(ctx.io, target, op, where(op.id), progressOn(out));
          printResult(out, op, saved, opts.json);
        });
      }),
    [
      'cms transfer download 01JABCDEFGHJKMNPQRSTVWXYZ0',
      'cms --remote transfer download 01JABCDEFGHJKMNPQRSTVWXYZ0 -o site.tar',
    ],
  );
}
