import type { Actor } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { issuesError, notFound } from '../../core/errors.js';
import type { SeoTable } from '../../db/tables-public.js';
import { assertCanEdit, assertCanPublish, assertVisible, requireReader } from '../content/access.js';
import type { EntryRow } from '../content/model.js';
import { loadRow } from '../content/rows.js';
import type { ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
import type { CollectionInfo } from '../schema/model.js';
import { seoText } from './entry-rules.js';

/**
 * Entry-level SEO: title, description, canonical URL and `noindex`, one
 * object per entry (each translation has its own), kept in `_cms_seo` beside
 * the entry rather than as fields of every collection.
 */
export interface EntrySeo {
  collection: string;
  contentId: string;
  title: string | null;
  description: string | null;
  canonical: string | null;
  noindex: boolean;
  updatedAt: string | null;
}

export interface EntrySeoInput {
  title?: string | null;
  description?: string | null;
  canonical?: string | null;
  noindex?: boolean;
}

const view = (c: CollectionInfo, id: string, r: SeoTable | undefined): EntrySeo => ({
  collection: c.slug,
  contentId: id,
  title: r?.title ?? null,
  description: r?.description ?? null,
  canonical: r?.canonical ?? null,
  noindex: Boolean(r?.noindex),
  updatedAt: r?.updated_at ?? null,
});

export function entrySeoOps(ctx: ServiceContext, schema: SchemaService) {
  const db = ctx.db;

  async function entry(collection: string, id: string): Promise<{ c: CollectionInfo; row: EntryRow | undefined }> {
    const c = (await schema.snapshot()).collections.get(collection);
    if (!c) throw notFound(`Collection "${collection}"`);
    return { c, row: await loadRow(db, c, id) };
  }

  const read = (c: CollectionInfo, id: string) =>
    db
      .selectFrom('_cms_seo')
      .selectAll()
      .where('collection', '=', c.slug)
      .where('entry_id', '=', id)
      .executeTakeFirst();

  /** Readable by whoever may read the entry (published entries: every reader). */
  async function get(actor: Actor, collection: string, id: string): Promise<EntrySeo> {
    requireReader(actor);
    const { c, row } = await entry(collection, id);
    assertVisible(actor, row, c);
    return view(c, id, await read(c, id));
  }

  /**
   * Changing SEO needs the right to edit the entry; on a live entry, the
   * right to publish it, since it changes the live page (and the sitemap) at once.
   */
  async function update(actor: Actor, collection: string, id: string, input: EntrySeoInput): Promise<EntrySeo> {
    requireReader(actor);
    const { c, row } = await entry(collection, id);
    const r = assertVisible(actor, row, c);
    if (!c.supports.includes('seo')) {
      throw issuesError('SEO is not enabled for this collection', [
        { path: ['collection'], code: 'seo_disabled', message: `add "seo" to the supports of "${c.slug}" first` },
      ]);
    }
    if (r.status === 'published' && r.deleted_at === null) assertCanPublish(actor, r);
    else assertCanEdit(actor, r);
    const now = isoNow(ctx.clock);
    const current = await read(c, id);
    const next = {
      title: input.title === undefined ? (current?.title ?? null) : seoText(input.title),
      description: input.description === undefined ? (current?.description ?? null) : seoText(input.description),
      canonical: input.canonical === undefined ? (current?.canonical ?? null) : seoText(input.canonical),
      noindex: input.noindex === undefined ? (current?.noindex ?? 0) : input.noindex ? 1 : 0,
      updated_at: now,
    };
    await db
      .insertInto('_cms_seo')
      .values({ collection: c.slug, entry_id: id, ...next })
      .onConflict((oc) => oc.columns(['collection', 'entry_id']).doUpdateSet(next))
      .execute();
    return view(c, id, await read(c, id));
  }

  return { get, update };
}
