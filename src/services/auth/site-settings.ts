import { isoNow } from '../../core/clock.js';
import type { Kdb } from '../../db/connect.js';
import type { ServiceContext } from '../context.js';

/**
 * The site's identity (title, tagline) in the `_cms_settings` key/value table
 * (JSON values). The setup wizard writes it; the settings API builds on the same table.
 */
export interface SiteIdentity {
  title: string;
  tagline: string | null;
}

export function siteSettingsStore(ctx: ServiceContext) {
  async function read(keys: string[], db: Kdb = ctx.db): Promise<Record<string, unknown>> {
    const rows = await db.selectFrom('_cms_settings').select(['key', 'value']).where('key', 'in', keys).execute();
    const out: Record<string, unknown> = {};
    for (const r of rows) out[r.key] = JSON.parse(r.value);
    return out;
  }

  async function write(values: Record<string, unknown>, db: Kdb = ctx.db): Promise<void> {
    const now = isoNow(ctx.clock);
    for (const [key, value] of Object.entries(values)) {
      await db
        .insertInto('_cms_settings')
        .values({ key, value: JSON.stringify(value), updated_at: now })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: now }))
        .execute();
    }
  }

  /** Title and tagline, or null before setup. */
  async function site(db: Kdb = ctx.db): Promise<SiteIdentity | null> {
    const v = await read(['title', 'tagline'], db);
    if (typeof v.title !== 'string') return null;
    return { title: v.title, tagline: typeof v.tagline === 'string' && v.tagline ? v.tagline : null };
  }

  /** The name mails and passkey prompts use. */
  async function siteName(db: Kdb = ctx.db): Promise<string> {
    return (await site(db))?.title ?? 'CMS';
  }

  return { read, write, site, siteName };
}

export type SiteSettingsStore = ReturnType<typeof siteSettingsStore>;
