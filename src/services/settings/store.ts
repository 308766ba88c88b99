import { isoNow } from '../../core/clock.js';
import type { Kdb } from '../../db/connect.js';
import type { ServiceContext } from '../context.js';

/**
 * Raw site settings in the `_cms_settings` key/value table: one row per
 * setting, keyed by its name (`title`, `seo.defaultOgImage` …), JSON values.
 * Only the settings service writes here.
 */
export function settingsStore(ctx: ServiceContext) {
  async function read(keys: readonly string[], db: Kdb = ctx.db): Promise<Record<string, unknown>> {
    const rows = await db
      .selectFrom('_cms_settings')
      .select(['key', 'value'])
      .where('key', 'in', [...keys])
      .execute();
    const out: Record<string, unknown> = {};
    for (const r of rows) out[r.key] = JSON.parse(r.value);
    return out;
  }

  /** Upsert each value; null removes the setting (it reads as its default again). */
  async function write(values: Record<string, unknown>, db: Kdb = ctx.db): Promise<void> {
    const now = isoNow(ctx.clock);
    for (const [key, value] of Object.entries(values)) {
      if (value === null || value === undefined) {
        await db.deleteFrom('_cms_settings').where('key', '=', key).execute();
        continue;
      }
      const json = JSON.stringify(value);
      await db
        .insertInto('_cms_settings')
        .values({ key, value: json, updated_at: now })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: now }))
        .execute();
    }
  }

  return { read, write };
}

export type SettingsStore = ReturnType<typeof settingsStore>;

/** One stored setting's value (undefined when unset), for domains that read a setting without the service. */
export async function storedSetting(db: Kdb, key: string): Promise<unknown> {
  const row = await db.selectFrom('_cms_settings').select('value').where('key', '=', key).executeTakeFirst();
  return row ? JSON.parse(row.value) : undefined;
}
