import type { ContentDeps } from './deps.js';
import type { ContentItem } from './model.js';

/**
 * Entries as reads answer them: the stored values plus what other domains present on them
 * (hooks.presentValues: the image fields' `srcset`). Made from the values already read, so it
 * adds no statement to a published read; the schema snapshot is the cached one.
 */
export function shownOps(deps: ContentDeps) {
  async function present<T extends ContentItem>(items: T[]): Promise<T[]> {
    if (!deps.hooks.presentsValues || !items.length) return items;
    const snap = await deps.schema.snapshot();
    return items.map((item) => {
      const c = snap.collections.get(item.type);
      const data = c ? deps.hooks.presented(c.fields, item.data, snap) : item.data;
      return data === item.data ? item : { ...item, data };
    });
  }

  return {
    one: async <R extends { item: ContentItem }>(read: R): Promise<R> => ({
      ...read,
      item: (await present([read.item]))[0],
    }),
    many: async <R extends { items: ContentItem[] }>(read: R): Promise<R> => ({
      ...read,
      items: await present(read.items),
    }),
  };
}
