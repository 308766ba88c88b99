import type { Command } from 'commander';
import { serveMain } from '../../main.js';
import { withCms } from '../context.js';

export function serverCommands(program: Command): void {
  program
    .command('serve')
    .description('Start the service (same as npm start)')
    .action(async () => {
      await serveMain();
    });
  program
    .command('migrate')
    .description('Apply pending database migrations and exit')
    .action(async () => {
      await withCms(async () => {
        process.stderr.write('Database is up to date\n');
      });
    });
}
