import type { Command } from 'commander';
import { type CliContext, examples } from '../context.js';
import { UsageError } from '../errors.js';
import { wantsRemote } from '../target/select.js';

export function serverCommands(program: Command, ctx: CliContext): void {
  const localOnly = (cmd: Command, name: string) => {
    if (wantsRemote(ctx.io, ctx.globals(cmd))) throw new UsageError(`cms ${name} works on the local database only`);
  };
  examples(
    program
      .command('serve')
      .description('Start the service (same as npm start, without building)')
      .action(async (_opts: unknown, cmd: Command) => {
        localOnly(cmd, 'serve');
        const { serveMain } = await import('../../main.js');
        await serveMain();
      }),
    ['cms serve', 'PORT=8080 CMS_DATABASE_URL=postgres://cms@db/cms cms serve'],
  );
  examples(
    program
      .command('migrate')
      .description('Apply pending database migrations and exit (other commands do it too when they open the database)')
      .option('--dry-run', 'list the migrations that would run, one per line on stdout, and change nothing')
      .action(async (opts: { dryRun?: boolean }, cmd: Command) => {
        localOnly(cmd, 'migrate');
        if (opts.dryRun) {
          const { listPending } = await import('../target/pending.js');
          const names = await listPending(ctx.io);
          for (const n of names) ctx.io.stdout.write(`${n}\n`);
          ctx.io.stderr.write(names.length ? `${names.length} migration(s) would run\n` : 'Database is up to date\n');
          return;
        }
        const { openCms } = await import('../target/local.js');
        const cms = await openCms(ctx.io);
        await cms.close();
        ctx.io.stderr.write('Database is up to date\n');
      }),
    ['cms migrate', 'cms migrate --dry-run', 'CMS_DATABASE_URL=postgres://cms@db/cms cms migrate'],
  );
}
