import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { type CliContext, examples } from '../context.js';
import { UsageError } from '../errors.js';
import { parseDocument, readText } from '../input.js';
import { packageRoot } from '../package-root.js';

/** Seeds shipped with the package (seeds/<name>.yaml). */
export function starterNames(): string[] {
  return readdirSync(join(packageRoot(), 'seeds'))
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.replace(/\.yaml$/, ''))
    .sort();
}

export function seedCommand(program: Command, ctx: CliContext): void {
  examples(
    program
      .command('seed')
      .description(
        'Load collections and entries from a seed file (JSON or YAML); what exists already is left as it is, so a second load changes nothing',
      )
      .argument('[file]', 'seed file (JSON or YAML)')
      .option('--starter <name>', `load a seed shipped with cms instead of a file (${'blog'})`)
      .option('--update', 'also bring existing entries to the values and status of the file')
      .option('--dry-run', 'report what would be created or changed; write nothing')
      .option('--json', 'print the summary as JSON')
      .action(
        async (
          file: string | undefined,
          opts: { starter?: string; update?: boolean; dryRun?: boolean; json?: boolean },
          cmd: Command,
        ) => {
          if (Boolean(file) === Boolean(opts.starter))
            throw new UsageError('Give a seed file or --starter NAME (one of them)');
          let path = file!;
          if (opts.starter) {
            path = join(packageRoot(), 'seeds', `${opts.starter}.yaml`);
            if (!/^[a-z0-9-]+$/.test(opts.starter) || !existsSync(path)) {
              throw new UsageError(`No starter seed "${opts.starter}" (available: ${starterNames().join(', ')})`);
            }
          }
          const name = opts.starter ? `starter "${opts.starter}"` : path;
          // Loaded when a seed runs (zod, the planner): cms --help stays light.
          const { parseSeedFile } = await import('../seed/file.js');
          const { runSeed } = await import('../seed/run.js');
          const seed = parseSeedFile(await parseDocument(readText(ctx.io, path), path), name);
          await ctx.withTarget(cmd, 'system', async (target, out) => {
            const summary = await runSeed(target, seed, { update: opts.update, dryRun: opts.dryRun }, out);
            if (opts.json) {
              out.json({ ...summary, dryRun: Boolean(opts.dryRun) });
              return;
            }
            const { blockTypes: b, collections: c, entries: e } = summary;
            const verb = opts.dryRun ? 'would be' : '';
            out.line(`Seed ${name}${opts.dryRun ? ' (dry run: nothing was written)' : ''}:`);
            out.line(`  block types: ${b.created} created ${verb}`.trimEnd());
            out.line(`  collections: ${c.created} created, ${c.fieldsAdded} fields added ${verb}`.trimEnd());
            out.line(
              `  entries:     ${e.created} created, ${e.updated} updated, ${e.unchanged} unchanged ${verb}`.trimEnd(),
            );
            for (const [section, s] of Object.entries(summary.sections)) {
              const label = `${section}:`.padEnd(12);
              out.line(
                `  ${label} ${s.created} created, ${s.updated} updated, ${s.unchanged} unchanged ${verb}`.trimEnd(),
              );
            }
          });
        },
      ),
    [
      'cms seed --starter blog --as you@example.com',
      'cms seed content.yaml --dry-run',
      'cms --url https://staging.example.com --token "$TOKEN" seed fixtures.json --update',
    ],
  );
}
