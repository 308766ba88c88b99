import type { Command } from 'commander';
import { parseRole, ROLE_NAMES, type RoleLevel } from '../../auth/roles.js';
import { type CliContext, examples } from '../context.js';
import { ApiError, UsageError } from '../errors.js';
import { shortTime, table } from '../format.js';
import { positiveInt } from '../input.js';
import type { Output } from '../io.js';
import { wantsRemote } from '../target/select.js';
import type { Target, User } from '../target/types.js';

const ROLE_HELP = 'subscriber, contributor, author, editor, admin (or 10–50)';

function role(value: string): RoleLevel {
  const level = parseRole(value);
  if (level === undefined) throw new UsageError(`Unknown role "${value}" (${ROLE_HELP})`);
  return level;
}

/** A user named by database ID or email address. */
export async function resolveUser(target: Target, ref: string): Promise<User> {
  if (!ref.includes('@')) return target.users.get(ref);
  const email = ref.trim().toLowerCase();
  let cursor: string | undefined;
  do {
    const page = await target.users.list({ search: email, limit: 100, cursor });
    const hit = page.items.find((u) => u.email === email);
    if (hit) return hit;
    cursor = page.nextCursor;
  } while (cursor);
  throw new ApiError('NOT_FOUND', `No user with the email address ${email}`, undefined, 404);
}

const userRow = (u: User) => [
  u.id,
  u.email,
  u.name ?? '—',
  u.roleName,
  u.disabled ? 'disabled' : 'active',
  shortTime(u.lastSignInAt),
];

function printUser(out: Output, verb: string, u: User, json?: boolean): void {
  if (json) out.json(u);
  else out.line(`${verb} ${u.email} (${u.id}): ${u.roleName}${u.disabled ? ', disabled' : ''}`);
}

interface ListOpts {
  search?: string;
  role?: string;
  limit?: number;
  cursor?: string;
  all?: boolean;
  json?: boolean;
}

export function usersCommands(program: Command, ctx: CliContext): void {
  const users = program.command('users').description('Users: create the first ones, list, change roles, disable');
  examples(users, ['cms users list --role admin', 'cms users update writer@example.com --role editor']);

  examples(
    users
      .command('create')
      .description(
        'Create a user on the local database (the first user is always an Admin); with --token-name, print only a new access token',
      )
      .requiredOption('--email <email>', 'email address')
      .option('--name <name>', 'display name')
      .option('--role <role>', ROLE_HELP, 'subscriber')
      .option('--token-name <name>', 'also create a personal access token and print it (only it) on stdout')
      .option('--scopes <list>', 'comma-separated token scopes (default: every scope the role can use)')
      .action(
        async (
          opts: { email: string; name?: string; role: string; tokenName?: string; scopes?: string },
          cmd: Command,
        ) => {
          if (wantsRemote(ctx.io, ctx.globals(cmd))) {
            throw new UsageError('users create works on the local database; on a site, invite people from the admin');
          }
          const level = role(opts.role);
          const scopes = opts.scopes
            ?.split(',')
            .map((s) => s.trim())
            .filter(Boolean);
          if (scopes && !opts.tokenName) throw new UsageError('--scopes needs --token-name');
          const { openCms } = await import('../target/local.js');
          const { isCmsError } = await import('../../core/errors.js');
          const cms = await openCms(ctx.io);
          const out = ctx.output(cmd);
          try {
            // User and token are written in one transaction: a refused scope leaves no half-made user behind.
            const { user, first, token } = await cms.ctx.db.transaction().execute(async (trx) => {
              const made = await cms.services.users.create(
                null,
                { email: opts.email, name: opts.name, role: level },
                trx,
              );
              const pat = opts.tokenName
                ? await cms.services.tokens.create(null, { userId: made.user.id, name: opts.tokenName, scopes }, trx)
                : null;
              return { ...made, token: pat?.token };
            });
            const roleName = ROLE_NAMES[user.role as RoleLevel];
            out.note(
              `Created ${roleName} ${user.email} (${user.id})${first && level !== user.role ? ': the first user is always an Admin' : ''}`,
            );
            if (token) out.line(token);
            else out.line(JSON.stringify({ id: user.id, email: user.email, role: roleName }));
          } catch (err) {
            if (isCmsError(err)) throw new ApiError(err.code, err.message, err.details, err.status);
            throw err;
          } finally {
            await cms.close();
          }
        },
      ),
    [
      'cms users create --email you@example.com --name "You"',
      'TOKEN=$(cms users create --email ci@example.com --role editor --token-name ci --scopes content:read,content:write)',
    ],
  );

  examples(
    users
      .command('list')
      .description('List users (oldest first)')
      .option('--search <text>', 'part of the email address or name')
      .option('--role <role>', `only this role: ${ROLE_HELP}`)
      .option('--limit <n>', 'users per page (1 to 100, default 50)', positiveInt('--limit'))
      .option('--cursor <cursor>', 'continue after the nextCursor of a previous page')
      .option('--all', 'every page (progress on stderr)')
      .option('--json', 'print JSON: { items, nextCursor? }')
      .action(async (opts: ListOpts, cmd: Command) => {
        const level = opts.role === undefined ? undefined : role(opts.role);
        await ctx.withTarget(cmd, 'system', async (target, out) => {
          const items: User[] = [];
          let cursor = opts.cursor;
          let next: string | undefined;
          do {
            const page = await target.users.list({
              search: opts.search,
              role: level,
              limit: opts.limit ?? (opts.all ? 100 : undefined),
              cursor,
            });
            items.push(...page.items);
            next = page.nextCursor;
            cursor = next;
            if (opts.all) out.progress(`… ${items.length} users${cursor ? '' : ', done'}`);
          } while (opts.all && cursor);
          if (opts.json) out.json({ items, ...(next && !opts.all ? { nextCursor: next } : {}) });
          else {
            if (items.length)
              out.line(table(['ID', 'EMAIL', 'NAME', 'ROLE', 'STATUS', 'LAST SIGN-IN'], items.map(userRow)));
            else out.note('No users match.');
            if (next && !opts.all) out.note(`More users: add --cursor ${next} (or --all)`);
          }
        });
      }),
    ['cms users list', 'cms users list --search example.com --role editor --json'],
  );

  examples(
    users
      .command('update')
      .description("Change a user's name or role (nobody raises their own role; the last Admin stays an Admin)")
      .argument('<user>', 'email address or user ID')
      .option('--name <name>', 'display name ("" clears it)')
      .option('--role <role>', ROLE_HELP)
      .option('--json', 'print the user as JSON')
      .action(async (ref: string, opts: { name?: string; role?: string; json?: boolean }, cmd: Command) => {
        if (opts.name === undefined && opts.role === undefined) throw new UsageError('Give --name and/or --role');
        const level = opts.role === undefined ? undefined : role(opts.role);
        await ctx.withTarget(cmd, 'system', async (target, out) => {
          const user = await resolveUser(target, ref);
          const updated = await target.users.update(user.id, {
            ...(opts.name !== undefined ? { name: opts.name || null } : {}),
            ...(level !== undefined ? { role: level } : {}),
          });
          printUser(out, 'Updated', updated, opts.json);
        });
      }),
    ['cms users update writer@example.com --role editor', 'cms users update 01JABCDEF… --name "Ada Lovelace"'],
  );

  examples(
    users
      .command('login-link')
      .description(
        'A one-time link that signs the user in to the admin (15 minutes, single use, used only by Continue): printed alone on stdout; a site with email sends it instead',
      )
      .requiredOption('--email <email>', 'email address of the user')
      .action(async (opts: { email: string }, cmd: Command) => {
        await ctx.withTarget(cmd, 'system', async (target, out) => {
          const made = await target.users.loginLink(opts.email);
          if (made.link) {
            out.note(
              `Open this link within ${made.expiresInMinutes} minutes and select Continue (it works once); then add a passkey under Account.`,
            );
            out.line(made.link);
          } else {
            out.note(`The site emailed a sign-in link to ${opts.email} (valid ${made.expiresInMinutes} minutes).`);
          }
        });
      }),
    [
      'cms users login-link --email you@example.com',
      'cms --url https://cms.example.com users login-link --email locked-out@example.com',
    ],
  );

  for (const [name, verb, description] of [
    ['disable', 'Disabled', 'Disable a user: sessions end and tokens stop working at once'],
    ['enable', 'Enabled', 'Enable a disabled user'],
  ] as const) {
    examples(
      users
        .command(name)
        .description(description)
        .argument('<user>', 'email address or user ID')
        .option('--json', 'print the user as JSON')
        .action(async (ref: string, opts: { json?: boolean }, cmd: Command) => {
          await ctx.withTarget(cmd, 'system', async (target, out) => {
            const user = await resolveUser(target, ref);
            printUser(out, verb, await target.users[name](user.id), opts.json);
          });
        }),
      [`cms users ${name} writer@example.com`],
    );
  }
}
