import type { ServiceContext } from '../context.js';
import { storedSetting } from '../settings/store.js';

/**
 * The public site's base URL, for absolute links in sitemaps, hreflang
 * alternates and same-site redirect checks; null when the site has none.
 *
 * This is the one place that decides it: the `siteUrl` site setting (read
 * from the stored settings on each call, so every process agrees at once),
 * else the configured `publicUrl`.
 */
export async function siteUrl(ctx: Pick<ServiceContext, 'config' | 'db'>): Promise<string | null> {
  const setting = await storedSetting(ctx.db, 'siteUrl');
  const url = typeof setting === 'string' && setting ? setting : ctx.config.publicUrl;
  return url ? url.replace(/\/+$/, '') : null;
}
