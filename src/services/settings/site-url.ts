import type { ServiceContext } from '../context.js';
import { storedSetting } from './store.js';

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

/**
 * The site's front end, where previews open: the `siteUrl` setting alone.
 * Unlike siteUrl() it never falls back to `publicUrl`, the service's own
 * address, which serves no pages of the site: without the setting there is
 * no front end to preview on (the admin says so). Locales are paths under
 * it, from the collection's URL pattern (i18n rule 1), so one origin serves
 * every locale.
 */
export async function frontendUrl(ctx: Pick<ServiceContext, 'db'>): Promise<string | null> {
  const setting = await storedSetting(ctx.db, 'siteUrl');
  return typeof setting === 'string' && setting ? setting.replace(/\/+$/, '') : null;
}
