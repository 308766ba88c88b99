import { issuesError, type ValidationIssue } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';

/** Settings that select a media item (spec: they count as usage of the item). */
export const MEDIA_SETTINGS = ['logo', 'favicon', 'seo.defaultOgImage'] as const;
export type MediaSetting = (typeof MEDIA_SETTINGS)[number];

const MEDIA_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** The shape rule of a media reference: each ID must look like a media ID (no database needed). */
export function mediaIdIssues(refs: Partial<Record<MediaSetting, string | null>>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const [setting, id] of Object.entries(refs)) {
    if (id === null || id === undefined || MEDIA_ID.test(id)) continue;
    issues.push({ path: setting.split('.'), code: 'invalid_media_id', message: 'must be the ID of a media item' });
  }
  return issues;
}

/**
 * The one place where media references in settings are checked: each ID must
 * have the shape of a media ID and name a ready item of the library
 * (`_cms_media`), read inside the caller's transaction so a concurrent delete
 * cannot slip between the check and the write.
 */
export async function checkMediaReferences(db: Kdb, refs: Partial<Record<MediaSetting, string | null>>): Promise<void> {
  const issues = mediaIdIssues(refs);
  const wanted = new Map<string, string[]>();
  for (const [setting, id] of Object.entries(refs)) {
    if (id === null || id === undefined || !MEDIA_ID.test(id)) continue;
    wanted.set(id, [...(wanted.get(id) ?? []), setting]);
  }
  if (wanted.size) {
    const rows = await db
      .selectFrom('_cms_media')
      .select(['id', 'status'])
      .where('id', 'in', [...wanted.keys()])
      .execute();
    const ready = new Set(rows.filter((r) => r.status === 'ready').map((r) => r.id));
    for (const [id, settings] of wanted) {
      if (ready.has(id)) continue;
      for (const setting of settings) {
        issues.push({ path: setting.split('.'), code: 'not_found', message: `media item ${id} is not in the library` });
      }
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
