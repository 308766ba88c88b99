import { type Actor, requirePermission } from '../../auth/actor.js';
import type { Kdb } from '../../db/connect.js';
import { inTransaction, type ServiceContext } from '../context.js';
import { checkMediaReferences, MEDIA_SETTINGS, settingsSelecting } from './media-refs.js';
import { siteUrl } from './site-url.js';
import { settingsStore } from './store.js';
import { SETTING_KEYS, type SettingsUpdate, settingValues } from './values.js';

export { MEDIA_SETTINGS, type MediaSetting } from './media-refs.js';
export { canonicalTimezone, type SettingsUpdate } from './values.js';

/** The site settings as every door shows them (defaults filled in). */
export interface SiteSettings {
  /** null until the setup wizard (or an Admin) names the site. */
  title: string | null;
  tagline: string | null;
  /** Media item IDs. */
  logo: string | null;
  favicon: string | null;
  /** IANA time zone; the admin's date-time picker works in it. */
  timezone: string;
  /** The public site's address (sitemaps, hreflang); null: the service's publicUrl is used. */
  siteUrl: string | null;
  seo: {
    defaultOgImage: string | null;
    titleSeparator: string;
    description: string | null;
  };
}

/** What sign-in pages, mails and the admin's top bar show. */
export interface SiteIdentity {
  title: string;
  tagline: string | null;
  timezone: string;
}

const DEFAULT_TIMEZONE = 'UTC';
const DEFAULT_SEPARATOR = '|';

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * Site settings: the one owner of the site's title and tagline (the setup
 * wizard writes through it), its images, time zone and public address.
 * Editors read them; Admins change them.
 */
export function createSettingsService(ctx: ServiceContext) {
  const store = settingsStore(ctx);

  async function load(db: Kdb = ctx.db): Promise<SiteSettings> {
    const v = await store.read(SETTING_KEYS, db);
    return {
      title: str(v.title),
      tagline: str(v.tagline),
      logo: str(v.logo),
      favicon: str(v.favicon),
      timezone: str(v.timezone) ?? DEFAULT_TIMEZONE,
      siteUrl: str(v.siteUrl),
      seo: {
        defaultOgImage: str(v['seo.defaultOgImage']),
        titleSeparator: str(v['seo.titleSeparator']) ?? DEFAULT_SEPARATOR,
        description: str(v['seo.description']),
      },
    };
  }

  async function get(actor: Actor): Promise<SiteSettings> {
    requirePermission(actor, 'settings:read');
    return load();
  }

  async function update(actor: Actor, input: SettingsUpdate): Promise<SiteSettings> {
    requirePermission(actor, 'settings:manage');
    const values = settingValues(input);
    return inTransaction(ctx.db, async (trx) => {
      // In the writing transaction, so the items cannot be deleted between the check and the write.
      const media: Partial<Record<(typeof MEDIA_SETTINGS)[number], string | null>> = {};
      for (const key of MEDIA_SETTINGS) if (typeof values[key] === 'string') media[key] = values[key] as string;
      await checkMediaReferences(trx, media);
      await store.write(values, trx);
      return load(trx);
    });
  }

  /** Title, tagline and time zone, or null before setup (no permission: sign-in pages show them). */
  async function site(db: Kdb = ctx.db): Promise<SiteIdentity | null> {
    const s = await load(db);
    if (s.title === null) return null;
    return { title: s.title, tagline: s.tagline, timezone: s.timezone };
  }

  return {
    get,
    update,
    site,
    /** The name mails and passkey prompts use. */
    siteName: async (db: Kdb = ctx.db) => (await site(db))?.title ?? 'CMS',
    /** The setup wizard's step one, inside its transaction. */
    writeIdentity: async (identity: { title: string; tagline: string | null }, db: Kdb) =>
      store.write(settingValues({ title: identity.title, tagline: identity.tagline }), db),
    /** The public site's address: the siteUrl setting, else the service's publicUrl (what sitemaps use). */
    siteUrl: async (db: Kdb = ctx.db) => (await siteUrl({ config: ctx.config, db })) ?? ctx.config.publicUrl,
    /** Media settings selecting an item (media usage reads stored settings on each request). */
    selecting: (mediaId: string, db: Kdb = ctx.db) => settingsSelecting(db, mediaId),
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
