import type { Command } from 'commander';
import { confirm } from '../confirm.js';
import { type CliContext, collect, examples } from '../context.js';
import { CliError } from '../errors.js';
import type { Output } from '../io.js';
import type { Target, TransferImport, TransferImportPlan, TransferImportReceipt } from '../target/types.js';
import { plural } from '../transfer/counts.js';
import {
  advanceImport,
  analyzeImport,
  type DecisionOptions,
  decisionRequest,
  ImportEnded,
  resolveDecisions,
} from '../transfer/import-run.js';
import { blockerLines, IMPORT_HEADERS, importRow, planText, receiptText, statusText } from '../transfer/import-view.js';
import { listCommand } from '../transfer/list.js';
import { type Progress, progressOn } from '../transfer/progress.js';
import { archiveFile, uploadArchive } from '../transfer/upload.js';

/**
 * `cms transfer import | imports | import-status | plan | receipt | cancel |
 * abandon`: bring a site package into an empty site. The archive is streamed
 * into the import file by file, the site analyses it into a plan, the plan is
 * shown and (with --yes, or once confirmed on a terminal) executed step by
 * step; the receipt says what was written. The same code drives the local
 * services and a site's REST API.
 */

interface ImportOpts extends DecisionOptions {
  id?: string;
  planOnly?: boolean;
  yes?: boolean;
  json?: boolean;
}

/** States in which `import --id` uploads and analyses; `executing` is driven on to the end. */
const BEFORE_EXECUTE = new Set(['uploading', 'analyzing', 'planned']);

const abandonHint = (id: string) =>
  `The site refuses other writes until import ${id} is abandoned: cms transfer abandon ${id} undoes what it wrote.`;

/** The import's latest plan, with the command line's decisions applied when there are any. */
async function decidedPlan(target: Target, out: Output, op: TransferImport, opts: DecisionOptions) {
  const request = decisionRequest(opts);
  let plan = await target.transfer.imports.plan(op.id);
  if (!request) return { op, plan };
  const decisions = await resolveDecisions(target, plan, request);
  const next = await target.transfer.imports.analyze(op.id, decisions);
  plan = await target.transfer.imports.plan(op.id);
  out.progress(`Decisions applied: plan ${plan.planDigest}`);
  return { op: next, plan };
}

/** A resumed import that is past executing: nothing to do but say what it is. */
function finished(op: TransferImport): CliError {
  if (op.state === 'complete') return new CliError(`Import ${op.id} is complete: see cms transfer receipt ${op.id}`);
  if (op.state === 'abandoned') return new CliError(`Import ${op.id} was abandoned: start a new one (leave out --id)`);
  return new CliError(
    `Import ${op.id} is ${op.state}${op.error ? ` ([${op.error.code}] ${op.error.message})` : ''}: cms transfer abandon ${op.id} removes it${op.holdsSite ? ' and undoes what it wrote' : ''}`,
  );
}

async function runImport(ctx: CliContext, target: Target, out: Output, file: string, opts: ImportOpts) {
  const imports = target.transfer.imports;
  const progress: Progress = progressOn(out);
  let op = opts.id ? await imports.get(opts.id) : null;
  if (op && !BEFORE_EXECUTE.has(op.state) && op.state !== 'executing') throw finished(op);
  let plan: TransferImportPlan;
  let receipt: TransferImportReceipt | null = null;
  const report = (current: TransferImport) => {
    if (opts.json) out.json({ import: current, plan, receipt });
  };

  if (op === null || BEFORE_EXECUTE.has(op.state)) {
    op = (await uploadArchive(target, file, op, progress)).op;
    op = await analyzeImport(target, op, progress);
    ({ op, plan } = await decidedPlan(target, out, op, opts));
    if (!opts.json) out.line(planText(op.id, plan));
    if (!plan.executable) {
      report(op);
      throw new CliError(
        `The plan has ${plural(plan.blockers.total, 'blocker')}; nothing was imported:\n${blockerLines(plan)}`,
      );
    }
    if (opts.planOnly) {
      report(op);
      out.note(`Import ${op.id} is planned. Execute it with: cms transfer import ${file} --id ${op.id}`);
      return;
    }
    const planned = op;
    try {
      await confirm(ctx.io, {
        yes: opts.yes,
        question: `Import this package into ${target.label}? Other writes wait until it is done.`,
        refusal: `Importing writes the whole package into the site: run again with --yes to execute the plan (--id ${op.id} resumes without uploading again)`,
        declined: `Not confirmed: nothing was imported (import ${op.id} stays planned)`,
      });
      op = await imports.execute(op.id, { packageDigest: plan.packageDigest, planDigest: plan.planDigest });
    } catch (err) {
      // Not confirmed, or refused by the site (a token without transfer:execute, a plan gone stale).
      report(planned);
      throw err;
    }
    progress.step(
      `Import ${op.id} executing: ${op.progress.total} records; the site refuses other writes until it is done`,
    );
  } else {
    if (decisionRequest(opts)) throw new CliError(`Import ${op.id} is executing: its decisions cannot change now`);
    plan = await imports.plan(op.id);
    progress.step(`Import ${op.id} is executing; driving it to the end`);
  }

  try {
    op = await advanceImport(target, op, progress);
  } catch (err) {
    if (err instanceof ImportEnded) {
      report(err.op);
      if (err.op.holdsSite || err.op.state === 'failed') out.note(abandonHint(err.op.id));
    }
    throw err;
  }
  receipt = await imports.receipt(op.id);
  if (opts.json) report(op);
  else out.line(`\n${receiptText(receipt)}`);
}

/** --map, --create, --keep-title and --keep-tagline, on `import` and `plan`. */
function decisionOptions(cmd: Command): Command {
  return cmd
    .option(
      '--map <user=site-user>',
      'attribute the records of package user USER (ID, or name) to a user of this site (ID or e-mail address); repeatable',
      collect,
    )
    .option('--create <user>', 'create package user USER (ID, or name) on this site; repeatable', collect)
    .option('--keep-title', "keep this site's title instead of the package's")
    .option('--no-keep-title', "take the package's title again (undoes --keep-title)")
    .option('--keep-tagline', "keep this site's tagline instead of the package's")
    .option('--no-keep-tagline', "take the package's tagline again (undoes --keep-tagline)");
}

/** `cms transfer NAME <import-id>`: a command about one import. */
const importCommand = (transfer: Command, name: string, description: string) =>
  transfer.command(name).description(description).argument('<import-id>', 'the import (see cms transfer imports)');

function showImport(out: Output, op: TransferImport, json?: boolean): void {
  if (json) out.json(op);
  else out.line(statusText(op));
}

export function transferImportCommands(transfer: Command, ctx: CliContext): void {
  examples(
    decisionOptions(
      transfer
        .command('import')
        .description(
          'Import a site package archive into this empty site: upload it, analyse it, show the plan, execute it once confirmed, show the receipt',
        )
        .argument('<archive>', 'the tar archive of a site package (as cms transfer export writes it)')
        .option('--id <import-id>', 'resume this import: upload only the files it misses, then go on'),
    )
      .option('--plan-only', 'stop after showing the plan (execute it later with --id)')
      .option('--yes', 'execute the plan without asking')
      .option('--json', 'print JSON: { import, plan, receipt } (receipt null when it did not complete)')
      .action(async (archive: string, opts: ImportOpts, cmd: Command) => {
        const file = archiveFile(ctx.io, archive);
        decisionRequest(opts);
        await ctx.withTarget(cmd, 'system', (target, out) => runImport(ctx, target, out, file, opts));
      }),
    [
      'cms transfer import site-01JABCDEFGHJKMNPQRSTVWXYZ0.tar',
      'cms transfer import site.tar --plan-only --json',
      'cms transfer import site.tar --map 01JABCDEFGHJKMNPQRSTVWXYZ0=ops@example.com --create Ada --keep-title --yes',
      'cms --url https://new.example.com --token "$CMS_TOKEN" transfer import site.tar --yes',
      'cms transfer import site.tar --id 01JBCDEFGHJKMNPQRSTVWXYZ01 --yes',
    ],
  );

  examples(
    listCommand(transfer, ctx, {
      name: 'imports',
      description: 'List imports (newest first): state, uploaded files and bytes, the plan',
      page: (target, params) => target.transfer.imports.list(params),
      headers: IMPORT_HEADERS,
      row: importRow,
      noun: 'imports',
      empty: 'No imports yet: start one with cms transfer import ARCHIVE.',
    }),
    ['cms transfer imports', 'cms --remote transfer imports --all --json'],
  );

  examples(
    importCommand(
      transfer,
      'import-status',
      'One import: state, files, plan headline, whether it holds the site, and what to do next',
    )
      .option('--json', 'print JSON: the import as the API gives it')
      .action(async (id: string, opts: { json?: boolean }, cmd: Command) => {
        await ctx.withTarget(cmd, 'system', async (target, out) =>
          showImport(out, await target.transfer.imports.get(id), opts.json),
        );
      }),
    [
      'cms transfer import-status 01JABCDEFGHJKMNPQRSTVWXYZ0',
      'cms --remote transfer import-status 01JABCDEFGHJKMNPQRSTVWXYZ0 --json',
    ],
  );

  examples(
    decisionOptions(
      importCommand(
        transfer,
        'plan',
        "An analysed import's plan; --map, --create and --keep-* change its decisions (a new plan digest)",
      ),
    )
      .option('--json', 'print JSON: the plan as the API gives it')
      .action(async (id: string, opts: DecisionOptions & { json?: boolean }, cmd: Command) => {
        decisionRequest(opts);
        await ctx.withTarget(cmd, 'system', async (target, out) => {
          const op = await target.transfer.imports.get(id);
          const { plan } = await decidedPlan(target, out, op, opts);
          if (opts.json) out.json(plan);
          else out.line(planText(op.id, plan));
        });
      }),
    [
      'cms transfer plan 01JABCDEFGHJKMNPQRSTVWXYZ0',
      'cms transfer plan 01JABCDEFGHJKMNPQRSTVWXYZ0 --map Ada=ada@example.com --keep-tagline --json',
    ],
  );

  examples(
    importCommand(
      transfer,
      'receipt',
      'The receipt of a complete import: what was written, mapped and left out, with its digest',
    )
      .option('--json', 'print JSON: the receipt as the API gives it')
      .action(async (id: string, opts: { json?: boolean }, cmd: Command) => {
        await ctx.withTarget(cmd, 'system', async (target, out) => {
          const receipt = await target.transfer.imports.receipt(id);
          if (opts.json) out.json(receipt);
          else out.line(receiptText(receipt));
        });
      }),
    [
      'cms transfer receipt 01JABCDEFGHJKMNPQRSTVWXYZ0',
      'cms --remote transfer receipt 01JABCDEFGHJKMNPQRSTVWXYZ0 --json > receipt.json',
    ],
  );

  examples(
    importCommand(
      transfer,
      'cancel',
      'Cancel an import; one that began writing keeps its hold on the site until it is abandoned',
    )
      .option('--json', 'print JSON: the import as the API gives it')
      .action(async (id: string, opts: { json?: boolean }, cmd: Command) => {
        await ctx.withTarget(cmd, 'system', async (target, out) => {
          const op = await target.transfer.imports.cancel(id);
          showImport(out, op, opts.json);
          if (op.holdsSite) out.note(abandonHint(op.id));
        });
      }),
    ['cms transfer cancel 01JABCDEFGHJKMNPQRSTVWXYZ0 && cms transfer abandon 01JABCDEFGHJKMNPQRSTVWXYZ0 --yes'],
  );

  examples(
    importCommand(
      transfer,
      'abandon',
      'Abandon a failed or cancelled import: undo what it wrote, remove its uploads and open the site to writes again (needs --yes, or a "yes" on a terminal)',
    )
      .option('--yes', 'abandon without asking')
      .option('--json', 'print JSON: the import as the API gives it')
      .action(async (id: string, opts: { yes?: boolean; json?: boolean }, cmd: Command) => {
        await ctx.withTarget(cmd, 'system', async (target, out) => {
          const op = await target.transfer.imports.get(id);
          // Only a failed or cancelled import can be abandoned: anything else is refused by the site without asking.
          if (op.state === 'failed' || op.state === 'cancelled') {
            const undoes = op.holdsSite ? 'undoes what it wrote and removes its uploads' : 'removes its uploads';
            await confirm(ctx.io, {
              yes: opts.yes,
              question: `Abandon import ${op.id} on ${target.label}? This ${undoes}.`,
              refusal: `Abandoning import ${op.id} ${undoes}: add --yes to confirm`,
              declined: `Not confirmed: import ${op.id} was not abandoned`,
            });
          }
          showImport(out, await target.transfer.imports.abandon(op.id), opts.json);
        });
      }),
    [
      'cms transfer abandon 01JABCDEFGHJKMNPQRSTVWXYZ0 --yes',
      'cms --remote transfer abandon 01JABCDEFGHJKMNPQRSTVWXYZ0',
    ],
  );
}
