import { CommanderError } from 'commander';
import { ApiError, CliError, describeApiError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './errors.js';
import { type Io, processIo } from './io.js';
import { buildProgram } from './program.js';

const SUCCESS_CODES = new Set(['commander.helpDisplayed', 'commander.version']);

/**
 * Run the command line and return its exit code: 0 success, 1 failure, 2
 * usage (commander's own parse errors included). Errors are printed once on
 * stderr; API errors with their code, message and the fields at fault.
 */
export async function runCli(argv: string[], io: Io = processIo()): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (err) {
    if (err instanceof CommanderError) return SUCCESS_CODES.has(err.code) ? EXIT_OK : EXIT_USAGE;
    if (err instanceof ApiError) {
      io.stderr.write(`Error: ${describeApiError(err)}\n`);
      return EXIT_FAILURE;
    }
    if (err instanceof CliError) {
      io.stderr.write(`Error: ${err.message}\n`);
      return err.exitCode;
    }
    io.stderr.write(`Error: ${(err as Error)?.stack ?? String(err)}\n`);
    return EXIT_FAILURE;
  }
}
