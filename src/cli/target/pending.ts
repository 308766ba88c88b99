import { connect } from '../../db/connect.js';
import { pendingMigrations } from '../../db/migrate.js';
import { loadCliConfig } from '../config.js';
import type { Io } from '../io.js';

/** `cms migrate --dry-run`: open the database without migrating it and name what would run. */
export async function listPending(io: Io): Promise<string[]> {
  const config = await loadCliConfig(io);
  const database = connect(config.databaseUrl, { sqliteCacheSize: config.sqliteCacheSize });
  try {
    return await pendingMigrations(database);
  } finally {
    await database.close();
  }
}
