import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadCliConfig } from '../config.js';
import { type CliContext, examples } from '../context.js';
import { ApiError, UsageError } from '../errors.js';
import { wantsRemote } from '../target/select.js';

async function refusals<T>(fn: () => Promise<T>): Promise<T> {
  const { BackupError } = await import('../../services/backup/index.js');
  try {
    return await fn();
  } catch (err) {
    if (err instanceof BackupError) throw new ApiError(err.code, err.message);
    throw err;
  }
}

export function backupCommands(program: Command, ctx: CliContext): void {
  examples(
    program
      .command('backup <dir>')
      .description('Copy a SQLite site (database and media) into an empty directory while the server runs')
      .action(async (dir: string, _opts: unknown, cmd: Command) => {
        if (wantsRemote(ctx.io, ctx.globals(cmd))) throw new UsageError('cms backup works on the local database only');
        const cfg = await loadCliConfig(ctx.io);
        const { connect } = await import('../../db/connect.js');
        const { backupSite } = await import('../../services/backup/index.js');
        const database = connect(cfg.databaseUrl, { sqliteCacheSize: cfg.sqliteCacheSize });
        try {
          const manifest = await refusals(() => backupSite(cfg, database, resolve(ctx.io.cwd, dir)));
          ctx.io.stdout.write(`${JSON.stringify(manifest)}\n`);
        } finally {
          await database.close();
        }
      }),
    ['cms backup backups/2026-12-02'],
  );
  examples(
    program
      .command('restore <dir>')
      .description('Restore a cms backup into an empty data directory')
      .action(async (dir: string, _opts: unknown, cmd: Command) => {
        if (wantsRemote(ctx.io, ctx.globals(cmd))) throw new UsageError('cms restore works on the local database only');
        const cfg = await loadCliConfig(ctx.io);
        const { restoreSite } = await import('../../services/backup/index.js');
        const manifest = await refusals(async () => restoreSite(cfg, resolve(ctx.io.cwd, dir)));
        ctx.io.stderr.write(`Restored the backup of ${manifest.createdAt} (${manifest.migrationLevel})\n`);
      }),
    ['CMS_DATA_DIR=/srv/new cms restore backups/2026-12-02'],
  );
}
