import { ConfigError, loadConfig } from '../../core/config.js';
import { connect } from '../../db/connect.js';
import { pendingMigrations } from '../../db/migrate.js';
import { UsageError } from '../errors.js';
import type { Io } from '../io.js';

/** `cms migrate --dry-run`: open the database without migrating it and name what would run. */
export async function listPending(io: Io): Promise<string[]> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(io.env as NodeJS.ProcessEnv, io.cwd);
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
  const database = connect(config.databaseUrl, { sqliteCacheSize: config.sqliteCacheSize });
  try {
    return await pendingMigrations(database);
  } finally {
    await database.close();
  }
}
