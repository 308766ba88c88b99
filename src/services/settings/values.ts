import { issuesError, type ValidationIssue } from '../../core/errors.js';
import { isStorableText } from '../../core/text.js';
import { MEDIA_SETTINGS } from './media-refs.js';

/**
 * The value rules of the site settings, without the database: what an update
 * may set each stored key to. The settings service applies them to every
 * update; a site package's setting records are judged by them too (the media
 * references they hold are checked against the library by the service alone,
 * since an import writes its media after its settings).
 */
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

/** Every stored settings key. */
export const SETTING_KEYS = [
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
export type SettingKey = (typeof SETTING_KEYS)[number];

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

/** Validate a partial update into the stored keys (null: back to the default). Throws VALIDATION_ERROR. */
export function settingValues(input: SettingsUpdate): Partial<Record<SettingKey, unknown>> {
  const issues: ValidationIssue[] = [];
  const values: Partial<Record<SettingKey, unknown>> = {};
  const text = (key: SettingKey, path: string[], value: string | null | undefined, max: number, required = false) => {
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

/** The update that sets one stored key to `value` (the shape settingValues reads). */
export function updateOf(key: SettingKey, value: string | null): SettingsUpdate {
  if (key.startsWith('seo.')) return { seo: { [key.slice(4)]: value } };
  return { [key]: value } as SettingsUpdate;
}
