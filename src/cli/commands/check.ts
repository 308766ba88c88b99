import type { Command } from 'commander';
import { CHECK_IDS } from '../../core/checks.js';
import { type CliContext, examples } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import { table } from '../format.js';
import type { Output } from '../io.js';
import type { CheckId, CheckReport } from '../target/types.js';

function parseChecks(value: string | undefined): CheckId[] | undefined {
  if (!value) return undefined;
  const ids = value.split(',').map((s) => s.trim());
  const bad = ids.filter((id) => !(CHECK_IDS as readonly string[]).includes(id));
  if (bad.length) throw new UsageError(`Unknown checks: ${bad.join(', ')} (known: ${CHECK_IDS.join(', ')})`);
  return ids as CheckId[];
}

function print(out: Output, report: CheckReport): void {
  out.line(
    table(
      ['CHECK', 'STATUS', 'PROBLEMS', 'REPAIRED', 'MS'],
      report.checks.map((c) => [c.id, c.status, String(c.problems), String(c.repaired), String(c.durationMs)]),
    ),
  );
  for (const c of report.checks) {
    if (c.note) out.line(`${c.id}: ${c.note}`);
    for (const f of c.findings) {
      const where = [f.collection, f.subject].filter(Boolean).join(' ');
      const state = f.repaired ? 'repaired' : f.repairable ? 'repairable' : 'not repairable';
      out.line(`${c.id} ${f.code}${where ? ` ${where}` : ''}: ${f.message} (${state})`);
    }
    if (c.problems > c.findings.length) out.line(`${c.id}: … and ${c.problems - c.findings.length} more`);
  }
}

/** `cms check [--repair]`: the consistency checker (docs/operations.md "Consistency checker"). */
export function checkCommands(program: Command, ctx: CliContext): void {
  examples(
    program
      .command('check')
      .description(
        'Verify revision pointers, orphaned rows, term counts, search indexes, media usage and stored files; exits 1 while problems remain',
      )
      .option(
        '--repair',
        'repair what can be derived from the content (a write: refused while an import or media usage activation holds the site)',
      )
      .option('--only <list>', `comma-separated checks: ${CHECK_IDS.join(', ')}`)
      .option('--json', 'print the report as JSON')
      .action(async (opts: { repair?: boolean; only?: string; json?: boolean }, cmd: Command) => {
        const checks = parseChecks(opts.only);
        const report = await ctx.withTarget(cmd, 'user', async (target, out) => {
          const r = opts.repair ? await target.site.repair(checks) : await target.site.check(checks);
          if (opts.json) out.json(r);
          else print(out, r);
          return r;
        });
        if (report.status === 'problems') {
          const left = report.checks.reduce((n, c) => n + c.problems - c.repaired, 0);
          throw new CliError(
            opts.repair
              ? `${left} problem(s) remain that cannot be derived from the content`
              : `${left} problem(s) found; cms check --repair fixes the repairable ones`,
          );
        }
      }),
    ['cms check', 'cms check --only term-counts,search --repair', 'cms check --json --url https://cms.example.com'],
  );
}
