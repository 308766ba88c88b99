import type { Command } from 'commander';
import { parseRole, ROLE_NAMES, type RoleLevel } from '../../auth/roles.js';
import { isCmsError } from '../../core/errors.js';
import { CliError, withCms } from '../context.js';

export function usersCommand(program: Command): void {
  const users = program.command('users').description('Manage users');
  users
    .command('create')
    .description('Create a user (the first user is always an Admin); with --token-name, print only a new access token')
    .requiredOption('--email <email>', 'email address')
    .option('--name <name>', 'display name')
    .option('--role <role>', 'subscriber, contributor, author, editor, admin (or 10-50)', 'subscriber')
    .option('--token-name <name>', 'also create a personal access token and print it (only it) on stdout')
    .option('--scopes <list>', 'comma-separated token scopes (default: every scope the role can use)')
    .action(async (opts: { email: string; name?: string; role: string; tokenName?: string; scopes?: string }) => {
      const role = parseRole(opts.role);
      if (role === undefined) throw new CliError(`Unknown role "${opts.role}"`, 2);
      const scopes = opts.scopes
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      if (scopes && !opts.tokenName) throw new CliError('--scopes needs --token-name', 2);
      await withCms(async (cms) => {
        try {
          // User and token are written in one transaction: a refused scope leaves no half-made user behind.
          const { user, first, token } = await cms.ctx.db.transaction().execute(async (trx) => {
            const made = await cms.services.users.create(null, { email: opts.email, name: opts.name, role }, trx);
            const pat = opts.tokenName
              ? await cms.services.tokens.create(null, { userId: made.user.id, name: opts.tokenName, scopes }, trx)
              : null;
            return { ...made, token: pat?.token };
          });
          const roleName = ROLE_NAMES[user.role as RoleLevel];
          process.stderr.write(
            `Created ${roleName} ${user.email} (${user.id})${first && role !== user.role ? ': the first user is always an Admin' : ''}\n`,
          );
          if (token) {
            process.stdout.write(`${token}\n`);
          } else {
            process.stdout.write(`${JSON.stringify({ id: user.id, email: user.email, role: roleName })}\n`);
          }
        } catch (err) {
          if (isCmsError(err)) throw new CliError(`${err.code}: ${err.message}`);
          throw err;
        }
      });
    });
}
