import type { Actor } from '../../auth/actor.js';
import { can } from '../../auth/actor.js';
import type { Kdb } from '../../db/connect.js';
import { MEDIA_SETTINGS } from '../settings/media-refs.js';

/**
 * Media usage as the library reports it. The usage index (a separate
 * component) plugs in a `UsageSource`; until one is installed the library
 * answers honestly that nothing has been indexed: coverage `never`.
 */
export const COVERAGE = ['complete', 'never', 'running', 'partial', 'failed', 'stale', 'unknown'] as const;
export type Coverage = (typeof COVERAGE)[number];

export interface MediaUsage {
  /** Distinct referencing rows plus selecting site settings; null for callers who may not read drafts. */
  count: number | null;
  coverage: Coverage;
}

export interface UsageReference {
  collection: string;
  id: string;
  locale: string;
  title: string | null;
  status: string;
}

export interface UsagePage {
  items: UsageReference[];
  nextCursor?: string;
  coverage: Coverage;
}

export interface UsageSource {
  /** Indexed reference counts of these items (site settings are added by the library). */
  counts(db: Kdb, ids: string[]): Promise<{ coverage: Coverage; counts: Map<string, number> }>;
  /** One page of the entries referencing the item, as the actor may see them. */
  references(db: Kdb, actor: Actor, id: string, cursor: string | undefined, limit: number): Promise<UsagePage>;
}

/** Nothing indexed yet. */
export const noUsageIndex: UsageSource = {
  async counts() {
    return { coverage: 'never', counts: new Map() };
  },
  async references() {
    return { items: [], coverage: 'never' };
  },
};

/**
 * The site settings that can select a media item (spec: logo, favicon,
 * seo.defaultOgImage), each stored under its own key (settings/store.ts).
 */
const SETTING_PATHS: ReadonlyArray<{ name: string; key: string; path: string[] }> = MEDIA_SETTINGS.map((name) => ({
  name,
  key: name,
  path: [],
}));

/** A setting selects an item by its ID, or by an image value `{ id, … }`. */
function selectedId(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string') {
    return (value as { id: string }).id;
  }
  return null;
}

/** Settings selecting each item, read from the stored settings on every call. */
export async function settingsSelecting(db: Kdb, ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!ids.length) return out;
  const rows = await db
    .selectFrom('_cms_settings')
    .select(['key', 'value'])
    .where(
      'key',
      'in',
      SETTING_PATHS.map((s) => s.key),
    )
    .execute();
  const stored = new Map(rows.map((r) => [r.key, r.value]));
  for (const s of SETTING_PATHS) {
    const raw = stored.get(s.key);
    if (raw === undefined) continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      continue;
    }
    for (const step of s.path)
      value = value && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined;
    const id = selectedId(value);
    if (id && ids.includes(id)) out.set(id, [...(out.get(id) ?? []), s.name]);
  }
  return out;
}

/** `usage` of each item as this actor may see it. */
export async function usageFor(
  db: Kdb,
  source: UsageSource,
  actor: Actor,
  ids: string[],
): Promise<Map<string, MediaUsage>> {
  const out = new Map<string, MediaUsage>();
  if (!ids.length) return out;
  const { coverage, counts } = await source.counts(db, ids);
  const settings = await settingsSelecting(db, ids);
  const drafts = can(actor, 'content:read_drafts');
  for (const id of ids) {
    const count = (counts.get(id) ?? 0) + (settings.get(id)?.length ?? 0);
    out.set(id, { count: drafts ? count : null, coverage });
  }
  return out;
}
