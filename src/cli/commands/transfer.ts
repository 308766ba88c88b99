import type { Command } from 'commander';
import { type CliContext, examples } from '../context.js';
import { keyValues } from '../format.js';
import { transferExportCommands } from './transfer-export.js';
import { transferImportCommands } from './transfer-import.js';

/**
 * `cms transfer`: move a whole site as a site package (docs/transfer.md).
 * The group holds what every transfer command shares; the export commands
 * live in transfer-export.ts, the import commands in transfer-import.ts.
 */
export function transferCommands(program: Command, ctx: CliContext): void {
  const transfer = program
    .command('transfer')
    .description(
      'Site transfer: export the whole site as a site package and download it, or import one into an empty site (Admins only)',
    );
  examples(transfer, [
    'cms transfer export',
    'cms --url https://cms.example.com --token "$CMS_TOKEN" transfer export --out site.tar',
    'cms --url https://new.example.com --token "$CMS_TOKEN" transfer import site.tar',
    'cms transfer exports',
    'cms transfer imports',
  ]);

  examples(
    transfer
      .command('capabilities')
      .description('What the site can export and import: package format and version, limits, export options')
      .option('--json', 'print JSON: the capabilities as the API gives them')
      .action(async (opts: { json?: boolean }, cmd: Command) => {
        await ctx.withTarget(cmd, 'system', async (target, out) => {
          const caps = await target.transfer.capabilities();
          if (opts.json) {
            out.json(caps);
            return;
          }
          const options = Object.entries(caps.export.options).map(([name, o]) => {
            const d = (o as { default?: unknown } | null)?.default;
            return d === undefined ? name : `${name} (default ${JSON.stringify(d)})`;
          });
          out.line(
            keyValues([
              ['release', caps.release],
              ['schema version', caps.schemaVersion],
              ['package format', `${caps.package.format} ${caps.package.formatVersion}`],
              ['archive', caps.package.archive],
              ['max files', String(caps.package.maxFiles)],
              ['max manifest', `${caps.package.maxManifestBytes} bytes`],
              ['export options', options.join(', ') || 'none'],
              ['storage', caps.storage],
            ]),
          );
        });
      }),
    ['cms transfer capabilities', 'cms --remote transfer capabilities --json'],
  );

  transferExportCommands(transfer, ctx);
  transferImportCommands(transfer, ctx);
}
