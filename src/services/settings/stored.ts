import { fitted, refuse, ruleProblem, type StoredRow, type StoredVerdict } from '../stored-record.js';
import { MEDIA_SETTINGS, type MediaSetting, mediaIdIssues } from './media-refs.js';
import { SETTING_KEYS, type SettingKey, settingValues, updateOf } from './values.js';

const KEYS: ReadonlySet<string> = new Set(SETTING_KEYS);
const MEDIA: ReadonlySet<string> = new Set(MEDIA_SETTINGS);

export const SETTING_NORMALISED = 'setting_normalised';

/**
 * A site setting from elsewhere (a site package), judged by the rules an
 * update of that key applies (settingValues): text trimmed and within its
 * limits, a time zone the runtime knows in its canonical spelling, a site
 * URL that is an http(s) address. A media setting must hold a media ID; that
 * the item exists is not asked here, since an import writes its media after
 * its settings. A key this release does not have is refused: nothing would
 * read it, and no update could have written it. A value changed on the way
 * (trimmed, canonical spelling) is reported as `setting_normalised`.
 */
export function storedSiteSetting(row: StoredRow): StoredVerdict {
  const key = String(row.key);
  if (!KEYS.has(key)) return refuse(row, `key "${key}" is not a setting of this release`);
  const value: unknown = JSON.parse(String(row.value));
  if (value !== null && typeof value !== 'string') return refuse(row, `${key}: the value must be text`);
  let values: Partial<Record<SettingKey, unknown>> = {};
  const problem = ruleProblem(() => {
    values = settingValues(updateOf(key as SettingKey, value));
  });
  if (problem) return refuse(row, problem);
  if (MEDIA.has(key)) {
    const [issue] = mediaIdIssues({ [key as MediaSetting]: value });
    if (issue) return refuse(row, `${key}: ${issue.message}`);
  }
  return fitted(row, { ...row, value: JSON.stringify(values[key as SettingKey] ?? null) }, SETTING_NORMALISED);
}
