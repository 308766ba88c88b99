import { expect } from 'vitest';
import type { Cms } from '../../src/index.js';
import { call, type TestCms } from './cms.js';
import { postsCollection } from './content.js';
import { type MediaCms, png, uploaded } from './media.js';

/** Turn tracking off as a site written before tracking existed would have it (the index empty). */
export async function asUpgradedSite(cms: Cms) {
  await cms.ctx.db.deleteFrom('_cms_media_usage').execute();
  await cms.ctx.db.deleteFrom('_cms_media_usage_collections').execute();
  await cms.ctx.db.deleteFrom('_cms_media_usage_work').execute();
  await cms.ctx.db.updateTable('_cms_media_usage_state').set({ state: 'expanded', activated_at: null }).execute();
  cms.services.mediaUsage.forgetState();
}

/** Send progress requests until activation and historical indexing are done. */
export async function driveActivation(cms: Cms, token: string, between?: (state: string) => Promise<void>) {
  for (let i = 0; i < 500; i++) {
    const res = await call(cms, 'POST', '/admin/media-usage/progress', { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (between) await between(res.body.data.state);
    if (res.body.data.nextRequestInMs === null) return res.body.data;
  }
  throw new Error('activation did not finish');
}

/** An image value as the admin's picker writes it. */
export const imageValue = (item: any) => ({
  id: item.id,
  provider: 'local',
  src: item.url,
  alt: '',
  width: item.width,
  height: item.height,
  mimeType: item.mimeType,
});

/** A `figure` block type and a `posts` collection with every kind of indexed source. */
export async function usageSchema(cms: TestCms, slug = 'posts') {
  const types = await call(cms, 'GET', '/schema/block-types/figure', { token: cms.adminToken });
  if (types.status === 404) {
    const made = await call(cms, 'POST', '/schema/block-types', {
      token: cms.adminToken,
      body: { slug: 'figure', label: 'Figure', fields: [{ slug: 'picture', label: 'Picture', type: 'image' }] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  }
  return postsCollection(cms, {
    slug,
    fields: [
      { slug: 'cover', label: 'Cover', type: 'image' },
      { slug: 'attachment', label: 'Attachment', type: 'file' },
      {
        slug: 'gallery',
        label: 'Gallery',
        type: 'repeater',
        validation: { subFields: [{ slug: 'photo', label: 'Photo', type: 'image' }] },
      },
      { slug: 'content', label: 'Content', type: 'blocks', validation: { allowedTypes: ['figure'] } },
      { slug: 'story', label: 'Story', type: 'portableText' },
    ],
  });
}

/** `count` images in the library (distinct bytes). */
export async function images(cms: MediaCms, count: number): Promise<any[]> {
  const out = [];
  for (let i = 0; i < count; i++) out.push(await uploaded(cms, await png(10 + i, 10)));
  return out;
}

/** Every page of `GET /media/{id}/usage` (small pages, to walk the cursor). */
export async function usagePages(cms: TestCms, id: string, token = cms.adminToken, limit = 2) {
  const items: any[] = [];
  const settings: string[][] = [];
  let cursor: string | undefined;
  let coverage: string | undefined;
  for (let i = 0; i < 100; i++) {
    const res = await call(cms, 'GET', `/media/${id}/usage?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, {
      token,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    items.push(...res.body.data.items);
    settings.push(res.body.data.siteSettings.map((s: any) => s.setting).sort());
    coverage = res.body.data.coverage;
    cursor = res.body.data.nextCursor;
    if (!cursor) break;
  }
  return { items, settings, coverage };
}

/**
 * Compare what the API answers with the expected set of referencing rows
 * per item (and the settings selecting it): `usage.count` on the list and
 * on a single read, and every page of the usage operation.
 */
export async function expectUsage(
  cms: TestCms,
  items: any[],
  expected: Map<string, Set<string>>,
  settings: Map<string, string[]> = new Map(),
  coverage = 'complete',
) {
  const list = await call(cms, 'GET', '/media?includeUsage=1&limit=100', { token: cms.adminToken });
  expect(list.status).toBe(200);
  const byId = new Map(list.body.data.items.map((i: any) => [i.id, i]));
  for (const item of items) {
    const rows = [...(expected.get(item.id) ?? [])].sort();
    const chosen = [...(settings.get(item.id) ?? [])].sort();
    const listed = byId.get(item.id) as any;
    expect(listed.usage, `list usage of ${item.filename}`).toEqual({ count: rows.length + chosen.length, coverage });
    const pages = await usagePages(cms, item.id);
    expect(pages.items.map((r) => r.id).sort(), `usage pages of ${item.filename}`).toEqual(rows);
    // Settings are on every page.
    for (const s of pages.settings) expect(s).toEqual(chosen);
  }
}

/** A mutable model of the expected index: item → referencing entry rows. */
export function model() {
  const m = new Map<string, Set<string>>();
  return {
    m,
    set(entry: string, items: any[]) {
      for (const s of m.values()) s.delete(entry);
      for (const it of items) {
        if (!m.has(it.id)) m.set(it.id, new Set());
        m.get(it.id)!.add(entry);
      }
    },
    drop(entry: string) {
      for (const s of m.values()) s.delete(entry);
    },
  };
}
