import { pino } from 'pino';
import { ConfigError, loadConfig } from '../core/config.js';
import { createLogger } from '../core/log.js';
import { type Cms, createCms } from '../index.js';

/** Errors a command reports as one line on stderr with a non-zero exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/**
 * Open the service on the database the server would use (same environment and
 * config file). Logs go to stderr so stdout carries only the command's output.
 */
export async function openCms(): Promise<Cms> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(err.message, 2);
    throw err;
  }
  const level = config.logLevel === 'info' ? 'warn' : config.logLevel;
  return createCms({ config, logger: createLogger(level, pino.destination(2)) });
}

export async function withCms<T>(fn: (cms: Cms) => Promise<T>): Promise<T> {
  const cms = await openCms();
  try {
    return await fn(cms);
  } finally {
    await cms.close();
  }
}
