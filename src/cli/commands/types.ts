import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { type CliContext, examples } from '../context.js';
import { readSchema } from '../schema/document.js';
import { generateTypes, schemaHash } from '../types/generate.js';

/** `cms types`: TypeScript declarations of the site's schema for front ends (docs/frontends.md#generated-types). */
export function typesCommand(program: Command, ctx: CliContext): void {
  examples(
    program
      .command('types')
      .description('Write TypeScript declarations of every collection, block type and locale (for cms/client)')
      .option('-o, --out <file>', 'write to this file instead of stdout')
      .action(async (opts: { out?: string }, cmd: Command) => {
        await ctx.withTarget(cmd, 'system', async (target, out) => {
          const schema = await readSchema(target, (line) => out.progress(line));
          const input = { schema, locales: await target.schema.locales() };
          const text = generateTypes(input);
          if (!opts.out) {
            out.io.stdout.write(text);
            return;
          }
          writeFileSync(resolve(ctx.io.cwd, opts.out), text);
          out.note(`Wrote ${opts.out}: ${schema.collections.length} collections, schema ${schemaHash(input)}`);
        });
      }),
    ['cms types --out src/cms-types.ts', 'cms --url https://cms.example.com types > src/cms-types.ts'],
  );
}
