import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { table } from '../format.js';
import { positiveInt } from '../input.js';
import type { Output } from '../io.js';
import type { Target } from '../target/types.js';

/** Paging options of the transfer lists (`cms transfer exports`, `cms transfer imports`). */
export interface ListOpts {
  limit?: number;
  cursor?: string;
  all?: boolean;
  json?: boolean;
}

export interface Listing<T> {
  /** One page from the site. */
  page(params: { limit?: number; cursor?: string }): Promise<{ items: T[]; nextCursor: string | null }>;
  headers: string[];
  row(item: T): string[];
  /** Plural noun for the progress line: "exports". */
  noun: string;
  /** Said on stderr when there is nothing to list. */
  empty: string;
}

/** One page, or with --all every page (progress on stderr, JSON streamed item by item). */
export async function listPages<T>(out: Output, opts: ListOpts, listing: Listing<T>): Promise<void> {
  if (!opts.all) {
    const page = await listing.page({ limit: opts.limit, cursor: opts.cursor });
    if (opts.json) {
      out.json({ items: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
      return;
    }
    if (page.items.length) out.line(table(listing.headers, page.items.map(listing.row)));
    else out.note(listing.empty);
    if (page.nextCursor) out.note(`More ${listing.noun}: add --cursor ${page.nextCursor} (or --all)`);
    return;
  }
  let count = 0;
  let cursor = opts.cursor;
  const rows: string[][] = [];
  if (opts.json) out.io.stdout.write('{"items":[');
  do {
    const page = await listing.page({ limit: opts.limit ?? 100, cursor });
    for (const item of page.items) {
      if (opts.json) out.io.stdout.write(`${count ? ',' : ''}\n${JSON.stringify(item)}`);
      else rows.push(listing.row(item));
      count++;
    }
    cursor = page.nextCursor ?? undefined;
    out.progress(`… ${count} ${listing.noun}${cursor ? '' : ', done'}`);
  } while (cursor);
  if (opts.json) out.io.stdout.write(`${count ? '\n' : ''}]}\n`);
  else if (rows.length) out.line(table(listing.headers, rows));
  else out.note(listing.empty);
}

/** A list command: its name and description, and what it lists from a target. */
export interface ListCommand<T> extends Omit<Listing<T>, 'page'> {
  name: string;
  description: string;
  page(target: Target, params: { limit?: number; cursor?: string }): Promise<{ items: T[]; nextCursor: string | null }>;
}

/** `cms transfer NAME [--limit N] [--cursor C] [--all] [--json]`: one page, or every page, of what `spec` lists. */
export function listCommand<T>(parent: Command, ctx: CliContext, spec: ListCommand<T>): Command {
  return parent
    .command(spec.name)
    .description(spec.description)
    .option('--limit <n>', `${spec.noun} per page (1 to 100, default 50)`, positiveInt('--limit'))
    .option('--cursor <cursor>', 'continue after the nextCursor of a previous page')
    .option('--all', 'every page (progress on stderr)')
    .option('--json', 'print JSON: { items, nextCursor? }')
    .action(async (opts: ListOpts, cmd: Command) => {
      await ctx.withTarget(cmd, 'system', (target, out) =>
        listPages(out, opts, { ...spec, page: (params) => spec.page(target, params) }),
      );
    });
}
