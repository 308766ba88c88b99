import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { type CliContext, examples } from '../context.js';
import { UsageError } from '../errors.js';
import { table } from '../format.js';
import { readDocumentFile } from '../input.js';
import { applyPlan, printPlan } from '../schema/apply.js';
import { readSchema } from '../schema/document.js';
import { planSchema } from '../schema/plan.js';

const flags = (f: {
  required: boolean;
  unique: boolean;
  indexed: boolean;
  searchable: boolean;
  translatable: boolean;
}) =>
  [
    f.required && 'required',
    f.unique && 'unique',
    f.indexed && 'indexed',
    f.searchable && 'searchable',
    !f.translatable && 'shared across locales',
  ]
    .filter(Boolean)
    .join(', ');

export function schemaCommands(program: Command, ctx: CliContext): void {
  const schema = program
    .command('schema')
    .description('Collections, fields and block types: read them, export them to a file, apply a file');
  examples(schema, [
    'cms schema export -o schema.json',
    'cms --url https://staging.example.com schema apply schema.json',
  ]);

  examples(
    schema
      .command('list')
      .description('List the collections')
      .option('--json', 'print JSON: an array of collections')
      .action(async (opts: { json?: boolean }, cmd: Command) => {
        await ctx.withTarget(cmd, 'system', async (target, out) => {
          const items = await target.schema.listCollections();
          if (opts.json) out.json(items);
          else if (!items.length) out.note('No collections yet: create some with cms schema apply or cms seed.');
          else
            out.line(
              table(
                ['SLUG', 'LABEL', 'FIELDS', 'SUPPORTS'],
                items.map((c) => [c.slug, c.label, String(c.fieldCount), c.supports.join(', ')]),
              ),
            );
        });
      }),
    ['cms schema list', 'cms schema list --json'],
  );

  examples(
    schema
      .command('get')
      .description('Show a collection and its fields')
      .argument('<collection>', 'collection slug')
      .option('--json', 'print JSON: the collection with its fields')
      .action(async (slug: string, opts: { json?: boolean }, cmd: Command) => {
        await ctx.withTarget(cmd, 'system', async (target, out) => {
          const c = await target.schema.getCollection(slug);
          if (opts.json) {
            out.json(c);
            return;
          }
          out.line(`${c.slug}: ${c.label} (${c.labelSingular})${c.description ? ` — ${c.description}` : ''}`);
          out.line(`supports: ${c.supports.join(', ') || 'nothing'}`);
          out.line('');
          out.line(
            table(
              ['FIELD', 'TYPE', 'LABEL', 'FLAGS'],
              c.fields.map((f) => [f.slug, f.type, f.label, flags(f)]),
            ),
          );
        });
      }),
    ['cms schema get posts', 'cms schema get posts --json | jq ".fields[].slug"'],
  );

  examples(
    schema
      .command('export')
      .description('Write every collection, field and block type as a JSON schema document')
      .option('-o, --output <file>', 'write to this file instead of stdout')
      .action(async (opts: { output?: string }, cmd: Command) => {
        await ctx.withTarget(cmd, 'system', async (target, out) => {
          const doc = await readSchema(target, (line) => out.progress(line));
          const text = `${JSON.stringify(doc, null, 2)}\n`;
          if (!opts.output) {
            out.io.stdout.write(text);
            return;
          }
          writeFileSync(resolve(ctx.io.cwd, opts.output), text);
          out.note(`Wrote ${opts.output}: ${doc.collections.length} collections, ${doc.blockTypes.length} block types`);
        });
      }),
    ['cms schema export > schema.json', 'cms --remote schema export -o production-schema.json'],
  );

  examples(
    schema
      .command('apply')
      .description('Make the schema match a document: shows the plan first; deleting collections or fields needs --yes')
      .argument('<file>', 'schema document (JSON or YAML), as written by schema export')
      .option('--dry-run', 'only show the plan')
      .option('--yes', 'also apply destructive changes (deleted collections and fields lose their data)')
      .option('--json', 'print the plan as JSON: { changes: [{ change, destructive }], notes, applied }')
      .action(async (file: string, opts: { dryRun?: boolean; yes?: boolean; json?: boolean }, cmd: Command) => {
        // zod is loaded only by the commands that read documents (cms --help stays light).
        const { parseSchemaDocument } = await import('../schema/validate.js');
        const desired = parseSchemaDocument(await readDocumentFile(ctx.io, file), file);
        await ctx.withTarget(cmd, 'system', async (target, out) => {
          const current = await readSchema(target, (line) => out.progress(line));
          const plan = planSchema(desired, current, 'exact');
          const destructive = plan.steps.filter((s) => s.destructive).length;
          const blocked = destructive > 0 && !opts.yes;
          const applying = !opts.dryRun && !blocked && plan.steps.length > 0;
          if (opts.json) {
            out.json({
              changes: plan.steps.map((s) => ({ change: s.text, destructive: s.destructive })),
              notes: plan.notes,
              applied: applying,
            });
          } else printPlan(out, plan, `Plan for ${target.label}`);
          if (opts.dryRun || !plan.steps.length) return;
          if (blocked) {
            throw new UsageError(
              `Nothing was applied: ${destructive} destructive change${destructive === 1 ? '' : 's'} delete data. Run again with --yes to apply the plan.`,
            );
          }
          await applyPlan(target, plan, out);
          out.note(`Applied ${plan.steps.length} change${plan.steps.length === 1 ? '' : 's'}.`);
        });
      }),
    [
      'cms schema apply schema.json --dry-run',
      'cms schema apply schema.yaml',
      'cms --url https://cms.example.com --token "$TOKEN" schema apply schema.json --yes',
    ],
  );
}
