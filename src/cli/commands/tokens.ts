import type { Command } from 'commander';
import { type CliContext, examples } from '../context.js';
import { UsageError } from '../errors.js';
import { shortTime, table } from '../format.js';
import { resolveUser } from './users.js';

const UNITS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** `--expires-in 90d` (h, d or w) → an instant. */
export function expiryFrom(value: string, now = Date.now()): string {
  const m = /^(\d{1,5})([hdw])$/.exec(value.trim());
  if (!m || Number(m[1]) < 1) throw new UsageError('--expires-in takes a count and a unit: 12h, 90d or 8w');
  return new Date(now + Number(m[1]) * UNITS[m[2]]).toISOString();
}

export function tokensCommands(program: Command, ctx: CliContext): void {
  const tokens = program
    .command('tokens')
    .description("Personal access tokens: yours (or, for Admins, anyone's) — list, create, revoke");
  examples(tokens, ['cms tokens create --name deploy --scopes content:read --expires-in 90d']);

  examples(
    tokens
      .command('list')
      .description('List active tokens (secrets are never shown again)')
      .option('--user <user>', "an Admin lists another user's tokens (email address or ID)")
      .option('--json', 'print JSON: an array of tokens')
      .action(async (opts: { user?: string; json?: boolean }, cmd: Command) => {
        await ctx.withTarget(cmd, 'user', async (target, out) => {
          const userId = opts.user ? (await resolveUser(target, opts.user)).id : undefined;
          const items = await target.tokens.list(userId);
          if (opts.json) out.json(items);
          else if (!items.length) out.note('No active tokens.');
          else
            out.line(
              table(
                ['ID', 'NAME', 'PREFIX', 'SCOPES', 'CREATED', 'LAST USED', 'EXPIRES'],
                items.map((t) => [
                  t.id,
                  t.name,
                  t.prefix,
                  t.scopes.join(','),
                  shortTime(t.createdAt),
                  shortTime(t.lastUsedAt),
                  t.expiresAt ? shortTime(t.expiresAt) : 'never',
                ]),
              ),
            );
        });
      }),
    ['cms tokens list', 'cms tokens list --user writer@example.com --json'],
  );

  examples(
    tokens
      .command('create')
      .description('Create a token for yourself and print it, alone, on stdout (it is shown only once)')
      .requiredOption('--name <name>', 'what the token is for')
      .option('--scopes <list>', 'comma-separated scopes (default: every scope you may grant)')
      .option('--expires <instant>', 'ISO 8601 expiry, e.g. 2027-01-01T00:00:00Z')
      .option('--expires-in <duration>', 'expiry from now: 12h, 90d, 8w')
      .option('--json', 'print JSON: { token, record }')
      .action(
        async (
          opts: { name: string; scopes?: string; expires?: string; expiresIn?: string; json?: boolean },
          cmd: Command,
        ) => {
          if (opts.expires && opts.expiresIn) throw new UsageError('Give --expires or --expires-in, not both');
          const expiresAt = opts.expiresIn ? expiryFrom(opts.expiresIn) : opts.expires;
          let scopes = opts.scopes
            ?.split(',')
            .map((s) => s.trim())
            .filter(Boolean);
          await ctx.withTarget(cmd, 'user', async (target, out) => {
            if (!scopes?.length) {
              // Everything the caller may grant; `admin` alone covers the rest.
              const allowed = (await target.tokens.scopes()).filter((s) => s.allowed).map((s) => s.scope);
              scopes = allowed.includes('admin') ? ['admin'] : allowed.filter((s) => s !== 'mcp:tools');
            }
            const made = await target.tokens.create({ name: opts.name, scopes, ...(expiresAt ? { expiresAt } : {}) });
            if (opts.json) out.json(made);
            else {
              out.line(made.token);
              out.note(
                `Created token ${made.record.id} "${made.record.name}" (${made.record.scopes.join(', ')})${made.record.expiresAt ? `, expires ${made.record.expiresAt}` : ''}; it is not shown again.`,
              );
            }
          });
        },
      ),
    [
      'TOKEN=$(cms tokens create --name ci --scopes content:read,content:write --expires-in 90d)',
      'cms --remote tokens create --name laptop --json',
    ],
  );

  examples(
    tokens
      .command('revoke')
      .description('Revoke a token at once (yours, or any for Admins)')
      .argument('<id>', 'token ID (see cms tokens list)')
      .action(async (id: string, _opts: unknown, cmd: Command) => {
        await ctx.withTarget(cmd, 'user', async (target, out) => {
          await target.tokens.revoke(id);
          out.line(`Revoked token ${id}`);
        });
      }),
    ['cms tokens revoke 01JABCDEF…'],
  );
}
