import { Command, CommanderError } from 'commander';
import { loginCommands } from './commands/login.js';
import { serverCommands } from './commands/server.js';
import { usersCommand } from './commands/users.js';
import { CliError } from './context.js';

/** `cms` command line: the same services as the REST API, on the configured database. */
export function buildProgram(): Command {
  const program = new Command('cms').description('Headless CMS command line').exitOverride();
  serverCommands(program);
  usersCommand(program);
  loginCommands(program);
  return program;
}

export async function runCli(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = err.exitCode;
      return;
    }
    if (err instanceof CliError) {
      process.stderr.write(`Error: ${err.message}\n`);
      process.exitCode = err.exitCode;
      return;
    }
    process.stderr.write(`Error: ${(err as Error).stack ?? err}\n`);
    process.exitCode = 1;
  }
}

await runCli(process.argv);
