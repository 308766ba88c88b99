import { isCmsError } from '../../../core/errors.js';
import { newId } from '../../../core/ids.js';
import type { Kdb } from '../../../db/connect.js';
import type { CommentsTable } from '../../../db/tables-public.js';
import { revisionsOn } from '../../content/deps.js';
import { dyn, encodeData, newEntryRow, valueFields } from '../../content/rows.js';
import type { CollectionInfo } from '../../schema/model.js';
import { recountEntries } from '../../taxonomies/counts.js';
import { isPingback } from '../post-types.js';
import type { WxrItem } from '../wxr/model.js';
import type { Credit } from './authors.js';
import { commentRows } from './comments.js';
import type { ImportDeps, RunScope } from './deps.js';
import type { Tally } from './tally.js';
import type { TermRef } from './terms.js';

/** An item ready to be written: values already validated, slug chosen, owner and terms resolved. */
export interface PendingEntry {
  item: WxrItem;
  c: CollectionInfo;
  slug: string;
  data: Record<string, unknown>;
  published: boolean;
  date: string;
  credit: Credit;
  terms: TermRef[];
  thumbnailUrl: string | null;
  /** Exporter source: the item's own locale (default: the import's). */
  locale?: string;
  /** Exporter source: the translation group of the item's source, which the entry joins. */
  group?: string;
}

/** Where a source post ID landed (imported now, or matched by skipExisting). */
export interface Landed {
  collection: CollectionInfo;
  id: string;
  group: string;
  /** Matched by skipExisting, not written by this run (its comments are not added again). */
  existing?: boolean;
}

/** Rows per multi-row INSERT: well under SQLite's and PostgreSQL's bound-parameter limits. */
const INSERT_CHUNK = 100;

async function insertChunked(
  trx: Kdb,
  table: string,
  rows: Record<string, unknown>[],
  ignoreDuplicates = false,
): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    let q = dyn(trx)
      .insertInto(table)
      .values(rows.slice(i, i + INSERT_CHUNK));
    if (ignoreDuplicates) q = q.onConflict((oc: { doNothing(): unknown }) => oc.doNothing());
    await q.execute();
  }
}

/**
 * Writes entries in batches: one transaction per batch with multi-row inserts
 * of entries, revisions, byline credits, term assignments and comments, then
 * the content write listeners (search index, media fields) once for the
 * batch, and the term counts of the published entries. The entries are the
 * same rows the content service writes (system columns, encoded values,
 * revision pointers). A batch that fails is retried one entry at a time, so
 * one bad entry fails alone and is reported, never half-written.
 */
export class EntryWriter {
  private queue: PendingEntry[] = [];
  /** Slugs this run has taken, per collection: duplicates within the file get the source ID appended. */
  private readonly claimed = new Map<string, Set<string>>();
  readonly landed = new Map<string, Landed>();

  constructor(
    private readonly deps: ImportDeps,
    private readonly scope: RunScope,
    private readonly tally: Tally,
    private readonly opts: { skipExisting: boolean; batchSize: number; userIds: ReadonlyMap<string, string> },
    private readonly onTerms: (taxonomy: string, count: number) => void,
  ) {}

  /** A slug free within this run for the collection. */
  claim(c: CollectionInfo, slug: string, sourceId: string, locale = this.scope.locale): string {
    const key = `${c.slug}\0${locale}`;
    let set = this.claimed.get(key);
    if (!set) {
      set = new Set();
      this.claimed.set(key, set);
    }
    const out = set.has(slug) ? `${slug}-${sourceId}` : slug;
    set.add(out);
    return out;
  }

  async add(p: PendingEntry): Promise<void> {
    this.queue.push(p);
    if (this.queue.length >= this.opts.batchSize) await this.flush();
  }

  async flush(): Promise<void> {
    const queue = this.queue;
    this.queue = [];
    const byCollection = new Map<string, PendingEntry[]>();
    for (const p of queue) {
      const key = `${p.c.slug}\0${p.locale ?? this.scope.locale}`;
      const list = byCollection.get(key) ?? [];
      list.push(p);
      byCollection.set(key, list);
    }
    for (const list of byCollection.values()) {
      const fresh = await this.dropExisting(list);
      if (!fresh.length) continue;
      try {
        await this.write(fresh);
      } catch (err) {
        if (fresh.length === 1) this.fail(fresh[0], err);
        else {
          for (const p of fresh) {
            try {
              await this.write([p]);
            } catch (e) {
              this.fail(p, e);
            }
          }
        }
      }
    }
  }

  private fail(p: PendingEntry, err: unknown): void {
    if (!isCmsError(err)) this.deps.ctx.log.error({ err, sourceId: p.item.postId }, 'import: entry write failed');
    const code = isCmsError(err) ? err.code : 'WRITE_FAILED';
    const message = isCmsError(err) ? err.message : 'The entry could not be written';
    this.tally.failed(p.item, p.c.slug, code, message);
    this.tally.commentsSkipped('entry_not_imported', p.item.comments.length);
  }

  /** Entries whose slug already exists in the locale: skipped (skipExisting) or failed, never written twice. */
  private async dropExisting(list: PendingEntry[]): Promise<PendingEntry[]> {
    const c = list[0].c;
    const locale = list[0].locale ?? this.scope.locale;
    const existing = new Map<string, { id: string; translation_group: string }>();
    for (let i = 0; i < list.length; i += 500) {
      const rows: Array<{ id: string; slug: string; translation_group: string }> = await dyn(this.deps.ctx.db)
        .selectFrom(c.table)
        .select(['id', 'slug', 'translation_group'])
        .where('locale', '=', locale)
        .where(
          'slug',
          'in',
          list.slice(i, i + 500).map((p) => p.slug),
        )
        .execute();
      for (const r of rows) existing.set(r.slug, r);
    }
    const fresh: PendingEntry[] = [];
    for (const p of list) {
      const hit = existing.get(p.slug);
      if (!hit) {
        fresh.push(p);
        continue;
      }
      if (this.opts.skipExisting) {
        this.tally.skipped(p.item.postType, c.slug, 'exists');
        this.tally.commentsSkipped('exists', p.item.comments.length);
        this.landed.set(p.item.postId, { collection: c, id: hit.id, group: hit.translation_group, existing: true });
        // A run cut short after writing the entry (a crash, a failed media step) left it waiting for its
        // image too: the rewrite fills the field only while it is empty, so listing it again is safe.
        if (p.thumbnailUrl) this.awaitImage(c, hit.id, p.thumbnailUrl);
      } else {
        this.tally.failed(
          p.item,
          c.slug,
          'ALREADY_EXISTS',
          `Slug "${p.slug}" is already used by a ${locale} entry of "${c.slug}" (use skipExisting to re-run)`,
        );
        this.tally.commentsSkipped('entry_not_imported', p.item.comments.length);
      }
    }
    return fresh;
  }

  private async write(list: PendingEntry[]): Promise<void> {
    const { ctx } = this.deps;
    const { actor, now } = this.scope;
    const c = list[0].c;
    const locale = list[0].locale ?? this.scope.locale;
    const withRevisions = revisionsOn(c);
    const columns = valueFields(c).map((f) => f.column as string);
    const entryRows: Record<string, unknown>[] = [];
    const revisionRows: Record<string, unknown>[] = [];
    const creditRows: Record<string, unknown>[] = [];
    const termRows: Record<string, unknown>[] = [];
    const comments: CommentsTable[] = [];
    const termCounts = new Map<string, number>();
    const landed: Array<[string, Landed]> = [];
    const featured: Array<{ id: string; url: string }> = [];
    const commentsSkipped: Record<string, number> = {};
    const commentsChanged: Record<string, number> = {};
    const add = (to: Record<string, number>, from: Record<string, number>) => {
      for (const [k, n] of Object.entries(from)) to[k] = (to[k] ?? 0) + n;
    };
    const counted: string[] = [];
    for (const p of list) {
      const id = newId();
      const group = p.group ?? newId();
      const row = newEntryRow({
        id,
        slug: p.slug,
        locale,
        group,
        authorId: p.credit.authorId,
        now: p.date,
        published: p.published,
      });
      const values = encodeData(ctx.dialect, c, p.data);
      for (const col of columns) if (!Object.hasOwn(values, col)) values[col] = null;
      if (p.credit.bylineId) {
        row.primary_byline_id = p.credit.bylineId;
        creditRows.push({
          collection_id: c.id,
          entry_id: id,
          byline_id: p.credit.bylineId,
          position: 0,
          role_label: null,
        });
      }
      if (withRevisions) {
        const revId = newId();
        revisionRows.push({
          id: revId,
          collection_id: c.id,
          entry_id: id,
          slug: p.slug,
          data: JSON.stringify(p.data),
          refs: null,
          bylines: p.credit.bylineId ? JSON.stringify([{ bylineId: p.credit.bylineId }]) : null,
          kind: p.published ? 'publish' : 'save',
          created_by: actor.userId,
          created_at: now,
        });
        if (p.published) row.live_revision_id = revId;
      }
      entryRows.push({ ...row, ...values });
      const seen = new Set<string>();
      for (const t of p.terms) {
        if (seen.has(t.group)) continue;
        seen.add(t.group);
        termRows.push({
          collection_id: c.id,
          entry_group: group,
          term_group: t.group,
          taxonomy: t.taxonomy,
          position: seen.size - 1,
          created_at: now,
        });
        termCounts.set(t.taxonomy, (termCounts.get(t.taxonomy) ?? 0) + 1);
      }
      if (p.published && seen.size) counted.push(id);
      if (p.item.comments.length) {
        if (c.supports.includes('comments')) {
          const made = commentRows(p.item.comments, c.slug, id, p.date, this.opts.userIds);
          comments.push(...made.rows);
          add(commentsSkipped, made.skipped);
          add(commentsChanged, made.changed);
        } else {
          // As the analysis counts them: pingbacks are never imported, the rest for want of comments.
          const pingbacks = p.item.comments.filter((x) => isPingback(x.type)).length;
          add(commentsSkipped, { pingback: pingbacks, comments_disabled: p.item.comments.length - pingbacks });
        }
      }
      if (p.thumbnailUrl) featured.push({ id, url: p.thumbnailUrl });
      landed.push([p.item.postId, { collection: c, id, group }]);
    }
    const ids = entryRows.map((r) => r.id as string);
    await ctx.db.transaction().execute(async (trx) => {
      await insertChunked(trx, c.table, entryRows);
      if (revisionRows.length) await insertChunked(trx, '_cms_revisions', revisionRows);
      if (creditRows.length) await insertChunked(trx, '_cms_entry_bylines', creditRows);
      // A translation joins a group that may already carry the term: the assignment is the group's, once.
      if (termRows.length) await insertChunked(trx, '_cms_content_terms', termRows, true);
      if (comments.length) await insertChunked(trx, '_cms_comments', comments as unknown as Record<string, unknown>[]);
      await this.deps.content.hooks.runAfterWrite(trx, {
        kind: 'create',
        collection: c,
        ids,
        group: entryRows[0].translation_group as string,
        actor,
        now,
      });
      // Term counts are of published entries; the listener counts one group per change, so count the batch here.
      await recountEntries(trx, c, counted);
    });
    // Only once the batch is committed does it count as imported.
    for (const p of list) this.tally.imported(p.item.postType, c.slug);
    for (const [sourceId, l] of landed) this.landed.set(sourceId, l);
    for (const [taxonomy, n] of termCounts) this.onTerms(taxonomy, n);
    this.tally.result.comments.imported += comments.length;
    for (const [reason, n] of Object.entries(commentsSkipped)) this.tally.commentsSkipped(reason, n);
    add(this.tally.result.comments.changed, commentsChanged);
    for (const f of featured) this.awaitImage(c, f.id, f.url);
  }

  /** List the entry for the media step, which sets its `featured_image` field to the copy of `url`. */
  private awaitImage(c: CollectionInfo, entryId: string, url: string): void {
    const field = c.fields.find((f) => f.slug === 'featured_image' && f.type === 'image');
    if (field) this.tally.result.media.featuredImages.push({ collection: c.slug, entryId, field: field.slug, url });
  }
}
