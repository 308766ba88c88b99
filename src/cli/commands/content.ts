import type { Command } from 'commander';
import { type CliContext, examples } from '../context.js';
import { UsageError } from '../errors.js';
import { printable, shortTime, table, titleOf, truncate } from '../format.js';
import { positiveInt } from '../input.js';
import type { Output } from '../io.js';
import type { ContentItem, ListContentParams, Target } from '../target/types.js';
import { contentWriteCommands } from './content-write.js';

interface ListOpts {
  locale?: string;
  status?: ListContentParams['status'];
  orderBy?: string;
  order?: 'asc' | 'desc';
  filter?: string;
  trash?: boolean;
  limit?: number;
  cursor?: string;
  page?: number;
  bylineId?: string;
  includeAuthorByline?: boolean;
  term?: string;
  includeReferences?: boolean;
  all?: boolean;
  json?: boolean;
}

export const STATUSES = ['draft', 'published', 'scheduled'] as const;

export function entryRow(item: ContentItem): string[] {
  return [
    item.id,
    item.slug ?? '—',
    item.hasDraft && item.status === 'published' ? 'published*' : item.status,
    item.locale,
    truncate(titleOf(item.data), 48),
    shortTime(item.updatedAt),
  ];
}

export const ENTRY_HEADERS = ['ID', 'SLUG', 'STATUS', 'LOCALE', 'TITLE', 'UPDATED'];

/**
 * Page through a list. One page: printed with its nextCursor. --all: every
 * page in turn, progress on stderr; JSON is streamed item by item so memory
 * stays flat however long the list.
 */
async function listEntries(target: Target, out: Output, collection: string, opts: ListOpts): Promise<void> {
  const params: ListContentParams = {
    locale: opts.locale,
    status: opts.status,
    orderBy: opts.orderBy,
    order: opts.order,
    fieldFilters: opts.filter,
    trash: opts.trash,
    limit: opts.limit,
    cursor: opts.cursor,
    page: opts.page,
    bylineId: opts.bylineId,
    includeAuthorByline: opts.includeAuthorByline ? 'true' : undefined,
    include: opts.includeReferences ? 'references' : undefined,
    term: opts.term,
  };
  if (!opts.all) {
    const page = await target.content.list(collection, params);
    if (opts.json) {
      out.json({
        items: page.items,
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        ...(page.total !== undefined ? { total: page.total } : {}),
      });
      return;
    }
    if (page.items.length) out.line(table(ENTRY_HEADERS, page.items.map(entryRow)));
    else out.note(`No entries${opts.trash ? ' in the trash' : ''}.`);
    if (page.total !== undefined)
      out.note(
        `Page ${opts.page} of ${Math.max(1, Math.ceil(page.total / (opts.limit ?? 50)))} (${page.total} entries)`,
      );
    if (page.nextCursor) out.note(`More entries: add --cursor ${page.nextCursor} (or --all)`);
    return;
  }
  let count = 0;
  let cursor = params.cursor;
  const rows: string[][] = [];
  if (opts.json) out.io.stdout.write('{"items":[');
  do {
    const page = await target.content.list(collection, { ...params, cursor, limit: params.limit ?? 100 });
    for (const item of page.items) {
      if (opts.json) out.io.stdout.write(`${count ? ',' : ''}\n${JSON.stringify(item)}`);
      else rows.push(entryRow(item));
      count++;
    }
    cursor = page.nextCursor;
    out.progress(`… ${count} entries${cursor ? '' : ', done'}`);
  } while (cursor);
  if (opts.json) out.io.stdout.write(`${count ? '\n' : ''}]}\n`);
  else if (rows.length) out.line(table(ENTRY_HEADERS, rows));
  else out.note(`No entries${opts.trash ? ' in the trash' : ''}.`);
}

export function contentCommands(program: Command, ctx: CliContext): void {
  const content = program
    .command('content')
    .description('Entries of a collection: list, read, create, update and move them through their lifecycle');
  examples(content, [
    'cms content list posts --status published --limit 20',
    'cms content create posts --data \'{"title":"Hello"}\' --slug hello',
    'cms content update posts hello --file changes.json --publish',
  ]);

  examples(
    content
      .command('list')
      .description('List entries (newest first), one page or --all')
      .argument('<collection>', 'collection slug')
      .option('--locale <locale>', 'locale to list (default: the site default)')
      .option('--status <status>', `only ${STATUSES.join(', ')} entries`)
      .option('--order-by <field>', 'createdAt, updatedAt, publishedAt, slug or an indexed field')
      .option('--order <order>', 'asc or desc')
      .option('--filter <json>', 'indexed fields to match, e.g. \'{"views":{"gte":10},"kind":"news"}\'')
      .option('--term <taxonomy:slug>', 'only entries carrying a term, e.g. tags:news (several slugs: tags:news,sport)')
      .option('--byline-id <id>', 'only entries crediting this byline')
      .option('--include-author-byline', "with --byline-id: also uncredited entries whose author is the byline's user")
      .option('--include-references', "resolve each entry's references (first page per field)")
      .option('--trash', 'list the trash instead')
      .option('--limit <n>', 'entries per page (1 to 100, default 50)', positiveInt('--limit'))
      .option('--cursor <cursor>', 'continue after the nextCursor of a previous page')
      .option('--page <n>', 'a numbered page instead of a cursor (prints the total)', positiveInt('--page'))
      .option('--all', 'every page (progress on stderr)')
      .option('--json', 'print JSON: { items, nextCursor?, total? }')
      .action(async (collection: string, opts: ListOpts, cmd: Command) => {
        if (opts.page !== undefined && (opts.cursor !== undefined || opts.all)) {
          throw new UsageError('--page cannot be combined with --cursor or --all');
        }
        if (opts.includeAuthorByline && !opts.bylineId) {
          throw new UsageError('--include-author-byline needs --byline-id');
        }
        if (opts.status && !(STATUSES as readonly string[]).includes(opts.status)) {
          throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
        }
        if (opts.order && opts.order !== 'asc' && opts.order !== 'desc') {
          throw new UsageError('--order must be asc or desc');
        }
        await ctx.withTarget(cmd, 'user', (target, out) => listEntries(target, out, collection, opts));
      }),
    [
      'cms content list posts',
      'cms content list posts --locale fr --status draft --json',
      'cms content list posts --filter \'{"views":{"gte":100}}\' --order-by views --order desc',
      'cms content list posts --term tags:news --page 2 --limit 20',
      'cms content list posts --all --json > posts.json',
    ],
  );

  examples(
    content
      .command('get')
      .description('Show one entry (by database ID, or by slug with --locale)')
      .argument('<collection>', 'collection slug')
      .argument('<entry>', 'database ID or slug')
      .option('--locale <locale>', 'locale of a slug lookup')
      .option('--json', 'print JSON: { item, _rev }')
      .action(async (collection: string, id: string, opts: { locale?: string; json?: boolean }, cmd: Command) => {
        await ctx.withTarget(cmd, 'user', async (target, out) => {
          const single = await target.content.get(collection, id, opts.locale);
          if (opts.json) out.json(single);
          else out.line(describeEntry(single.item, single._rev));
        });
      }),
    ['cms content get posts hello-world', 'cms content get posts bonjour --locale fr --json'],
  );

  examples(
    content
      .command('translations')
      .description('The translation group of an entry and every locale variant')
      .argument('<collection>', 'collection slug')
      .argument('<entry>', 'database ID or slug')
      .option('--locale <locale>', 'locale of a slug lookup')
      .option('--json', 'print JSON: { translationGroup, items }')
      .action(async (collection: string, id: string, opts: { locale?: string; json?: boolean }, cmd: Command) => {
        await ctx.withTarget(cmd, 'user', async (target, out) => {
          const result = await target.content.translations(collection, id, opts.locale);
          if (opts.json) {
            out.json(result);
            return;
          }
          out.line(`Translation group ${result.translationGroup}`);
          out.line(
            table(
              ['LOCALE', 'ID', 'SLUG', 'STATUS', 'UPDATED'],
              result.items.map((t) => [t.locale, t.id, t.slug ?? '—', t.status, shortTime(t.updatedAt)]),
            ),
          );
        });
      }),
    ['cms content translations posts hello-world'],
  );

  contentWriteCommands(content, ctx);
}

export function describeEntry(item: ContentItem, rev: string): string {
  const status = item.hasDraft ? `${item.status} (with a pending draft)` : item.status;
  const lines = [
    `id           ${item.id}`,
    `collection   ${item.type}`,
    `slug         ${item.slug ?? '—'}`,
    `status       ${status}`,
    `locale       ${item.locale}`,
    `translation  ${item.translationGroup}`,
    `created      ${item.createdAt}`,
    `updated      ${item.updatedAt}`,
    ...(item.publishedAt ? [`published    ${item.publishedAt}`] : []),
    ...(item.scheduledAt ? [`scheduled    ${item.scheduledAt}`] : []),
    ...(item.trashedAt ? [`trashed      ${item.trashedAt}`] : []),
    `_rev         ${rev}`,
    ...Object.entries(item.references ?? {}).map(
      ([field, page]) =>
        `→ ${field.padEnd(10)} ${page.items.map((l) => `${l.title ?? l.slug ?? l.id} (${l.collection}/${l.id})`).join(', ') || '—'}${page.nextCursor ? ', …' : ''}`,
    ),
    'data',
    ...JSON.stringify(item.data, null, 2)
      .split('\n')
      .map((l) => `  ${l}`),
  ];
  return lines.map(printable).join('\n');
}
