import type { CmsConfig } from '../core/config.js';
import { UsageError } from './errors.js';
import type { Io } from './io.js';

/**
 * The server's configuration as the local commands read it: a configuration error is wrong usage
 * (exit 2). Imported on use, so `cms --help` and remote commands load no server code.
 */
export async function loadCliConfig(io: Io): Promise<CmsConfig> {
  const { ConfigError, loadConfig } = await import('../core/config.js');
  try {
    return loadConfig(io.env as NodeJS.ProcessEnv, io.cwd);
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
}
