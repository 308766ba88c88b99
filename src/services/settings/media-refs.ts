import { issuesError, type ValidationIssue } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';

/** Settings that select a media item (spec: they count as usage of the item). */
export const MEDIA_SETTINGS = ['logo', 'favicon', 'seo.defaultOgImage'] as const;
export type MediaSetting = (typeof MEDIA_SETTINGS)[number];

const MEDIA_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/**
 * The one place where media references in settings are checked. Today: the
 * shape of a media ID. When the media library's table exists, this is where
 * each ID must also name a ready item of `_cms_media` (same issues, same paths).
 */
export async function checkMediaReferences(
  _db: Kdb,
  refs: Partial<Record<MediaSetting, string | null>>,
): Promise<void> {
  const issues: ValidationIssue[] = [];
  for (const [setting, id] of Object.entries(refs)) {
    if (id === null || id === undefined) continue;
    if (!MEDIA_ID.test(id)) {
      issues.push({ path: setting.split('.'), code: 'invalid_media_id', message: 'must be the ID of a media item' });
    }
  }
  if (issues.length) throw issuesError('Invalid media references', issues);
}

/** The media settings that select `mediaId` (for media usage), read from the stored settings. */
export async function settingsSelecting(db: Kdb, mediaId: string): Promise<Array<{ setting: MediaSetting }>> {
  const rows = await db
    .selectFrom('_cms_settings')
    .select('key')
    .where('key', 'in', [...MEDIA_SETTINGS])
    .where('value', '=', JSON.stringify(mediaId))
    .execute();
  return rows.map((r) => ({ setting: r.key as MediaSetting }));
}
