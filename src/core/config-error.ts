/**
 * An invalid configuration: start-up stops with this one line, naming the key or
 * environment variable at fault (`Invalid configuration: <key>: <message>`).
 * Its own module so the option files (config-*.ts) can throw it without importing config.ts.
 */
export class ConfigError extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(`Invalid configuration: ${key}: ${message}`);
    this.name = 'ConfigError';
  }
}
