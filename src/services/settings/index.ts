import { type Actor, requirePermission } from '../../auth/actor.js';
import { issuesError, type ValidationIssue } from '../../core/errors.js';
import { isStorableText } from '../../core/text.js';
import type { Kdb } from '../../db/connect.js';
import { inTransaction, type ServiceContext } from '../context.js';
import { siteUrl } from '../seo/site-url.js';
import { checkMediaReferences, MEDIA_SETTINGS, settingsSelecting } from './media-refs.js';
import { settingsStore } from './store.js';

export { MEDIA_SETTINGS, type MediaSetting } from './media-refs.js';

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

export interface SettingsUpdate {
  title?: string;
  tagline?: string | null;
  logo?: string | null;
  favicon?: string | null;
  timezone?: string;
  siteUrl?: string | null;
  seo?: {
    defaultOgImage?: string | null;
    titleSeparator?: string | null;
    description?: string | null;
  };
}

/** What sign-in pages, mails and the admin's top bar show. */
export interface SiteIdentity {
  title: string;
  tagline: string | null;
  timezone: string;
}

const KEYS = [
  'title',
  'tagline',
  'logo',
  'favicon',
  'timezone',
  'siteUrl',
  'seo.defaultOgImage',
  'seo.titleSeparator',
  'seo.description',
] as const;

const DEFAULT_TIMEZONE = 'UTC';
const DEFAULT_SEPARATOR = '|';

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A time zone the runtime knows (IANA name or UTC), in its canonical spelling. */
export function canonicalTimezone(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** An absolute http(s) origin with an optional path; no credentials, query or fragment; no trailing slash. */
function checkSiteUrl(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (!/^https?:$/.test(url.protocol) || !/^https?:\/\//i.test(value)) return null;
  if (url.username || url.password || url.search || url.hash || value.includes('\\')) return null;
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/**
 * Site settings: the one owner of the site's title and tagline (the setup
 * wizard writes through it), its images, time zone and public address.
 * Editors read them; Admins change them.
 */
export function createSettingsService(ctx: ServiceContext) {
  const store = settingsStore(ctx);

  async function load(db: Kdb = ctx.db): Promise<SiteSettings> {
    const v = await store.read(KEYS, db);
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

  /** Validate a partial update into the stored keys (null: back to the default). */
  async function toValues(input: SettingsUpdate): Promise<Record<string, unknown>> {
    const issues: ValidationIssue[] = [];
    const values: Record<string, unknown> = {};
    const text = (key: string, path: string[], value: string | null | undefined, max: number, required = false) => {
      if (value === undefined) return;
      const trimmed = value === null ? '' : value.trim();
      if (!isStorableText(trimmed)) {
        issues.push({ path, code: 'invalid_text', message: 'must not contain NUL characters or unpaired surrogates' });
      } else if (required && !trimmed) issues.push({ path, code: 'required', message: 'must not be empty' });
      else if ([...trimmed].length > max) issues.push({ path, code: 'too_big', message: `at most ${max} characters` });
      else values[key] = trimmed || null;
    };
    text('title', ['title'], input.title, 200, true);
    text('tagline', ['tagline'], input.tagline, 500);
    text('seo.titleSeparator', ['seo', 'titleSeparator'], input.seo?.titleSeparator, 10);
    text('seo.description', ['seo', 'description'], input.seo?.description, 500);
    if (input.timezone !== undefined) {
      const zone = canonicalTimezone(input.timezone);
      if (!zone)
        issues.push({
          path: ['timezone'],
          code: 'invalid_timezone',
          message: 'must be an IANA time zone such as Europe/Paris',
        });
      else values.timezone = zone;
    }
    if (input.siteUrl !== undefined) {
      if (input.siteUrl === null || input.siteUrl === '') values.siteUrl = null;
      else {
        const url = checkSiteUrl(input.siteUrl);
        if (!url) {
          issues.push({
            path: ['siteUrl'],
            code: 'invalid_url',
            message: 'must be an absolute http(s) address without credentials, query or fragment',
          });
        } else values.siteUrl = url;
      }
    }
    const media = {
      logo: input.logo,
      favicon: input.favicon,
      'seo.defaultOgImage': input.seo?.defaultOgImage,
    };
    for (const key of MEDIA_SETTINGS) if (media[key] !== undefined) values[key] = media[key] || null;
    if (issues.length) throw issuesError('Invalid settings', issues);
    return values;
  }

  async function update(actor: Actor, input: SettingsUpdate): Promise<SiteSettings> {
    requirePermission(actor, 'settings:manage');
    const values = await toValues(input);
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
      store.write(await toValues({ title: identity.title, tagline: identity.tagline }), db),
    /** The public site's address: the siteUrl setting, else the service's publicUrl (what sitemaps use). */
    siteUrl: async (db: Kdb = ctx.db) => (await siteUrl({ config: ctx.config, db })) ?? ctx.config.publicUrl,
    /** Media settings selecting an item (media usage reads stored settings on each request). */
    selecting: (mediaId: string, db: Kdb = ctx.db) => settingsSelecting(db, mediaId),
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
