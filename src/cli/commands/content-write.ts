import type { Command } from 'commander';
import { type CliContext, examples } from '../context.js';
import { ApiError, UsageError } from '../errors.js';
import { type DataOptions, readFieldValues } from '../input.js';
import type { Output } from '../io.js';
import type { GuardQuery, LifecycleOp, SingleContent, Target } from '../target/types.js';

interface GuardOpts {
  locale?: string;
  rev?: string;
  overrideLock?: boolean;
  json?: boolean;
}

/** Database IDs are ULIDs; anything else names an entry by slug (resolved by a read). */
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * `_rev`: with --rev the write is refused (REV_CONFLICT) when the entry
 * changed since that revision was read; without it the command reads the
 * entry first (resolving a slug to its ID) and writes with that revision, so
 * a change made in between is refused too rather than overwritten.
 */
async function resolveEntry(
  target: Target,
  collection: string,
  entry: string,
  opts: GuardOpts,
): Promise<{ id: string; guard: GuardQuery }> {
  const guard: GuardQuery = { ...(opts.overrideLock ? { overrideLock: true } : {}) };
  if (opts.rev !== undefined && ULID.test(entry)) return { id: entry, guard: { ...guard, _rev: opts.rev } };
  const read = await target.content.get(collection, entry, opts.locale);
  return { id: read.item.id, guard: { ...guard, _rev: opts.rev ?? read._rev } };
}

/** A stale revision gets a message that says what to do about it. */
async function explained<T>(opts: GuardOpts, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ApiError && err.code === 'REV_CONFLICT') {
      const hint =
        opts.rev !== undefined
          ? 'The --rev you passed is not the current revision: read the entry again (cms content get) and decide.'
          : 'Someone changed the entry between this command reading and writing it; run the command again.';
      throw new ApiError(err.code, `${err.message}\n  ${hint}`, err.details, err.status);
    }
    throw err;
  }
}

export function printWritten(out: Output, verb: string, result: SingleContent, json?: boolean): void {
  if (json) {
    out.json(result);
    return;
  }
  const { item } = result;
  const status = item.hasDraft ? `${item.status}, pending draft` : item.status;
  out.line(`${verb} ${item.type}/${item.id} (${item.slug ?? 'no slug'}, ${item.locale}): ${status}`);
}

const guardOptions = (cmd: Command) =>
  cmd
    .option('--locale <locale>', 'locale of a slug lookup')
    .option('--rev <rev>', '_rev of the revision you read; refused if the entry changed since')
    .option('--override-lock', 'write even though another user holds the edit lock')
    .option('--json', 'print JSON: { item, _rev }');

export function contentWriteCommands(content: Command, ctx: CliContext): void {
  examples(
    content
      .command('create')
      .description('Create an entry; it is published unless --draft (a translation with --translation-of)')
      .argument('<collection>', 'collection slug')
      .option('--data <json>', 'field values as a JSON object')
      .option('--file <path>', 'field values from a JSON or YAML file')
      .option('--stdin', 'field values as JSON on standard input')
      .option('--slug <slug>', 'slug (default: generated from the title)')
      .option('--locale <locale>', 'a locale configured for the site (default: the site default)')
      .option('--translation-of <id>', 'database ID of the source entry: create its translation in --locale')
      .option('--draft', 'keep the new entry as a draft')
      .option('--json', 'print JSON: { item, _rev }')
      .action(
        async (
          collection: string,
          opts: DataOptions & {
            slug?: string;
            locale?: string;
            translationOf?: string;
            draft?: boolean;
            json?: boolean;
          },
          cmd: Command,
        ) => {
          const data = await readFieldValues(ctx.io, opts, true);
          await ctx.withTarget(cmd, 'user', async (target, out) => {
            let result = await target.content.create(collection, {
              data,
              ...(opts.slug !== undefined ? { slug: opts.slug } : {}),
              ...(opts.locale !== undefined ? { locale: opts.locale } : {}),
              ...(opts.translationOf !== undefined ? { translationOf: opts.translationOf } : {}),
            });
            if (!opts.draft && result.item.status !== 'published') {
              try {
                result = await target.content.lifecycle('publish', collection, result.item.id, { _rev: result._rev });
              } catch (err) {
                if (err instanceof ApiError) {
                  throw new ApiError(
                    err.code,
                    `Created ${collection}/${result.item.id} as a draft, but publishing it failed: ${err.message}`,
                    err.details,
                    err.status,
                  );
                }
                throw err;
              }
            }
            printWritten(out, 'Created', result, opts.json);
          });
        },
      ),
    [
      'cms content create posts --data \'{"title":"Hello world"}\'',
      'cms content create posts --file post.yaml --slug hello --draft',
      'cms content create posts --locale fr --translation-of 01JABCDEF… --data \'{"title":"Bonjour"}\'',
      'echo \'{"title":"From a pipe"}\' | cms content create posts --stdin --json',
    ],
  );

  examples(
    guardOptions(
      content
        .command('update')
        .description('Change some fields of an entry (on a published entry they wait in a draft; see --publish)')
        .argument('<collection>', 'collection slug')
        .argument('<entry>', 'database ID or slug')
        .option('--data <json>', 'the fields to change, as a JSON object')
        .option('--file <path>', 'the fields to change, from a JSON or YAML file')
        .option('--stdin', 'the fields to change, as JSON on standard input')
        .option('--slug <slug>', 'a new slug')
        .option('--publish', 'publish right after the update'),
    ).action(
      async (
        collection: string,
        entry: string,
        opts: GuardOpts & DataOptions & { slug?: string; publish?: boolean },
        cmd: Command,
      ) => {
        const data = await readFieldValues(ctx.io, opts, opts.slug === undefined);
        await ctx.withTarget(cmd, 'user', (target, out) =>
          explained(opts, async () => {
            const { id, guard } = await resolveEntry(target, collection, entry, opts);
            let result = await target.content.update(collection, id, {
              ...(data ? { data } : {}),
              ...(opts.slug !== undefined ? { slug: opts.slug } : {}),
              ...guard,
            });
            if (opts.publish && (result.item.hasDraft || result.item.status !== 'published')) {
              result = await target.content.lifecycle('publish', collection, id, {
                _rev: result._rev,
                ...(guard.overrideLock ? { overrideLock: true } : {}),
              });
            }
            printWritten(out, 'Updated', result, opts.json);
          }),
        );
      },
    ),
    [
      'cms content update posts hello-world --data \'{"title":"Hello again"}\'',
      'cms content update posts 01JABCDEF… --rev "$REV" --file post.json --publish',
    ],
  );

  const lifecycle = (name: string, op: LifecycleOp, verb: string, description: string) =>
    examples(
      guardOptions(
        content
          .command(name)
          .description(description)
          .argument('<collection>', 'collection slug')
          .argument('<entry>', 'database ID or slug'),
      ).action(async (collection: string, entry: string, opts: GuardOpts, cmd: Command) => {
        await ctx.withTarget(cmd, 'user', (target, out) =>
          explained(opts, async () => {
            const { id, guard } = await resolveEntry(target, collection, entry, opts);
            printWritten(out, verb, await target.content.lifecycle(op, collection, id, guard), opts.json);
          }),
        );
      }),
      [`cms content ${name} posts hello-world`, `cms content ${name} posts 01JABCDEF… --rev "$REV" --json`],
    );
  lifecycle('publish', 'publish', 'Published', 'Publish an entry (its pending draft becomes live)');
  lifecycle('unpublish', 'unpublish', 'Unpublished', 'Take an entry off the live site (content and date kept)');
  lifecycle('restore', 'restore', 'Restored', 'Restore an entry from the trash as a draft');
  lifecycle(
    'discard-draft',
    'discardDraft',
    'Discarded the draft of',
    'Discard the pending draft (the live version stays)',
  );

  examples(
    guardOptions(
      content
        .command('schedule')
        .description('Schedule a future publication')
        .argument('<collection>', 'collection slug')
        .argument('<entry>', 'database ID or slug')
        .requiredOption('--at <instant>', 'ISO 8601 instant with Z or an offset, in the future'),
    ).action(async (collection: string, entry: string, opts: GuardOpts & { at: string }, cmd: Command) => {
      await ctx.withTarget(cmd, 'user', (target, out) =>
        explained(opts, async () => {
          const { id, guard } = await resolveEntry(target, collection, entry, opts);
          const result = await target.content.schedule(collection, id, { scheduledAt: opts.at, ...guard });
          printWritten(out, `Scheduled for ${result.item.scheduledAt}:`, result, opts.json);
        }),
      );
    }),
    ['cms content schedule posts hello-world --at 2030-01-01T09:00:00Z'],
  );

  examples(
    guardOptions(
      content
        .command('unschedule')
        .description('Cancel a scheduled publication')
        .argument('<collection>', 'collection slug')
        .argument('<entry>', 'database ID or slug'),
    ).action(async (collection: string, entry: string, opts: GuardOpts, cmd: Command) => {
      await ctx.withTarget(cmd, 'user', (target, out) =>
        explained(opts, async () => {
          const { id, guard } = await resolveEntry(target, collection, entry, opts);
          printWritten(out, 'Unscheduled', await target.content.unschedule(collection, id, guard), opts.json);
        }),
      );
    }),
    ['cms content unschedule posts hello-world'],
  );

  examples(
    guardOptions(
      content
        .command('trash')
        .description('Move an entry to the trash (restore brings it back)')
        .argument('<collection>', 'collection slug')
        .argument('<entry>', 'database ID or slug'),
    ).action(async (collection: string, entry: string, opts: GuardOpts, cmd: Command) => {
      await ctx.withTarget(cmd, 'user', (target, out) =>
        explained(opts, async () => {
          const { id, guard } = await resolveEntry(target, collection, entry, opts);
          printWritten(out, 'Trashed', await target.content.trash(collection, id, guard), opts.json);
        }),
      );
    }),
    ['cms content trash posts hello-world'],
  );

  examples(
    guardOptions(
      content
        .command('delete')
        .description('Delete an entry from the trash for good (cannot be undone; needs --yes)')
        .argument('<collection>', 'collection slug')
        .argument('<entry>', 'database ID or slug')
        .option('--yes', 'confirm the permanent deletion'),
    ).action(async (collection: string, entry: string, opts: GuardOpts & { yes?: boolean }, cmd: Command) => {
      if (!opts.yes) throw new UsageError('Deleting an entry cannot be undone: add --yes to confirm');
      await ctx.withTarget(cmd, 'user', (target, out) =>
        explained(opts, async () => {
          const { id, guard } = await resolveEntry(target, collection, entry, opts);
          const result = await target.content.permanentDelete(collection, id, guard);
          if (opts.json) out.json(result);
          else out.line(`Deleted ${collection}/${result.id} for good`);
        }),
      );
    }),
    ['cms content trash posts hello-world && cms content delete posts hello-world --yes'],
  );

  examples(
    content
      .command('duplicate')
      .description('Copy an entry as a new draft')
      .argument('<collection>', 'collection slug')
      .argument('<entry>', 'database ID or slug')
      .option('--locale <locale>', 'locale of a slug lookup')
      .option('--json', 'print JSON: { item, _rev }')
      .action(async (collection: string, entry: string, opts: GuardOpts, cmd: Command) => {
        await ctx.withTarget(cmd, 'user', async (target, out) => {
          const id = ULID.test(entry) ? entry : (await target.content.get(collection, entry, opts.locale)).item.id;
          printWritten(out, 'Duplicated as', await target.content.duplicate(collection, id), opts.json);
        });
      }),
    ['cms content duplicate posts hello-world --json'],
  );
}
