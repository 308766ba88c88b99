/**
 * The media copy's second step: point entries at the copied files. Every entry
 * of the chosen collections is read in id order, a batch at a time; in its
 * Portable Text, text, string, image and file fields (live values, the live
 * revision and a pending draft) each URL of the map is replaced. Only entries
 * with a match are written, each batch in one transaction with the usual write
 * listeners (search index, media checks, usage), and the row's version moves on
 * so an editor holding the old `_rev` gets a conflict instead of undoing it.
 * The same request sets the featured images the import listed (featured-images.ts).
 */
import { type Actor, requirePermission } from '../../../auth/actor.js';
import { isoNow } from '../../../core/clock.js';
import { isCmsError, issuesError, type ValidationIssue } from '../../../core/errors.js';
import type { Kdb } from '../../../db/connect.js';
import { blockLookup } from '../../content/deps.js';
import type { EntryRow } from '../../content/model.js';
import { decodeData, dyn } from '../../content/rows.js';
import type { FieldType } from '../../fields/types.js';
import { checkUrl } from '../../fields/url.js';
import type { BlockTypeVersionLookup } from '../../fields/value-context.js';
import { validateEntryData } from '../../fields/values.js';
import type { CollectionInfo, FieldInfo } from '../../schema/model.js';
import type { MediaCopyDeps } from './deps.js';
import { type FeaturedImage, type FeaturedResult, setFeaturedImages } from './featured-images.js';
import { UrlRewriter, urlKey } from './url-rewrite.js';
import { writeEntryRow } from './write-row.js';

const REWRITTEN: ReadonlySet<FieldType> = new Set(['portableText', 'text', 'string', 'image', 'file']);

export interface RewriteInput {
  urlMap: Record<string, string>;
  /** Collection slugs; omitted: every collection. */
  collections?: string[];
  /** The import's `media.featuredImages`: entries whose image field waits for a copied file. */
  featuredImages?: FeaturedImage[];
  /** The copy's `mediaIds` (source URL → library item ID), for the featured images. */
  mediaIds?: Record<string, string>;
}

export interface RewriteError {
  collection: string;
  /** The entries of the batch that was rolled back. */
  entryIds: string[];
  code: string;
  message: string;
}

export interface RewriteResult {
  updatedEntries: number;
  rewrittenUrls: number;
  byCollection: Record<string, { updatedEntries: number; rewrittenUrls: number }>;
  errors: RewriteError[];
  /** The featured images set from `featuredImages` (a URL that was not copied is a failure). */
  featuredImages: FeaturedResult;
}

const MAX_ERRORS = 100;

function targetCollections(all: Map<string, CollectionInfo>, slugs: string[] | undefined): CollectionInfo[] {
  if (!slugs) return [...all.values()];
  const unknown = slugs
    .map((slug, i) => ({ slug, i }))
    .filter(({ slug }) => !all.has(slug))
    .map(({ slug, i }) => ({ path: ['collections', i], code: 'not_found', message: `no collection "${slug}"` }));
  if (unknown.length) throw issuesError('Unknown collection', unknown);
  return [...new Set(slugs)].map((s) => all.get(s) as CollectionInfo);
}

/**
 * Keys must be absolute http(s) URLs (nothing else could match); values must
 * be http(s) URLs or paths of this site: they land in links and image sources.
 */
function checkUrlMap(urlMap: Record<string, string>): Record<string, string> {
  const issues: ValidationIssue[] = [];
  for (const [from, to] of Object.entries(urlMap)) {
    if (urlKey(from) === null) {
      issues.push({ path: ['urlMap', from], code: 'invalid_url', message: 'the old URL must be an http(s) URL' });
      continue;
    }
    const problem = /^(https?:\/\/|\/(?!\/))/i.test(to)
      ? checkUrl(to)
      : 'must be an http(s) URL or a path of this site';
    if (problem) issues.push({ path: ['urlMap', from], code: 'invalid_url', message: problem });
  }
  if (issues.length) throw issuesError('Invalid URL map', issues.slice(0, 50));
  return urlMap;
}

/** The rewritten values of the given fields; `changes` holds only fields that changed, `counts` their URLs. */
function rewriteData(rw: UrlRewriter, fields: FieldInfo[], data: Record<string, unknown>) {
  const changes: Record<string, unknown> = {};
  const counts: Record<string, number> = {};
  let count = 0;
  for (const f of fields) {
    const r = rw.value(data[f.slug]);
    if (!r.count) continue;
    changes[f.slug] = r.value;
    counts[f.slug] = r.count;
    count += r.count;
  }
  return { changes, counts, count };
}

/** URLs of a draft's fields that differ from the live values (the same value is one URL, not two). */
function draftOnly(counts: Record<string, number>, draft: Record<string, unknown>, live: Record<string, unknown>) {
  let n = 0;
  for (const [slug, c] of Object.entries(counts)) {
    if (JSON.stringify(draft[slug]) !== JSON.stringify(live[slug] ?? null)) n += c;
  }
  return n;
}

/** One collection's rewrite: what every batch of it needs. */
interface Pass {
  c: CollectionInfo;
  fields: FieldInfo[];
  rw: UrlRewriter;
  blockTypes: BlockTypeVersionLookup;
}

/**
 * The rewritten values, checked like any update (a longer URL can break a
 * string's maximum length): the validated changes, or the reason to skip.
 */
function checked(p: Pass, data: Record<string, unknown>) {
  const r = rewriteData(p.rw, p.fields, data);
  if (!r.count) return { ...r, valid: r.changes };
  const valid = validateEntryData(p.fields, r.changes, { mode: 'update', blockTypes: p.blockTypes, previous: data });
  return { ...r, valid };
}

async function rewriteBatch(
  deps: MediaCopyDeps,
  trx: Kdb,
  actor: Actor,
  p: Pass,
  ids: string[],
): Promise<{ updated: number; urls: number; skipped: RewriteError[] }> {
  const { ctx } = deps;
  const { c } = p;
  let q = dyn(trx).selectFrom(c.table).selectAll().where('id', 'in', ids);
  if (ctx.dialect === 'postgres') q = q.forUpdate();
  const rows: EntryRow[] = await q.execute();
  const revIds = rows.flatMap((r) => [r.live_revision_id, r.draft_revision_id]).filter((x): x is string => !!x);
  const revisions = revIds.length
    ? await trx.selectFrom('_cms_revisions').select(['id', 'data']).where('id', 'in', revIds).execute()
    : [];
  const revById = new Map(revisions.map((r) => [r.id, r.data]));
  const now = isoNow(ctx.clock);
  const out = { updated: 0, urls: 0, skipped: [] as RewriteError[] };
  for (const row of rows) {
    const values = decodeData(c, row);
    let live: ReturnType<typeof checked>;
    // The live revision mirrors the row; a pending draft holds what the editor will publish next.
    const revs: Array<{ id: string; data: Record<string, unknown>; r: ReturnType<typeof checked> }> = [];
    try {
      live = checked(p, values);
      for (const revId of new Set([row.live_revision_id, row.draft_revision_id])) {
        const raw = revId ? revById.get(revId) : undefined;
        if (!revId || raw === undefined) continue;
        const data = JSON.parse(raw) as Record<string, unknown>;
        const r = checked(p, data);
        if (r.count) revs.push({ id: revId, data, r });
      }
      if (live.count) {
        // Save hooks (plugins) see the rewrite as the update it is, and may refuse it.
        await deps.content.hooks.runBeforeSave({
          collection: c.slug,
          operation: 'update',
          entryId: row.id,
          locale: row.locale,
          data: { ...values, ...live.valid },
          actor,
        });
      }
    } catch (err) {
      if (!isCmsError(err)) throw err;
      // This entry keeps its old URLs; the rest of the batch goes on.
      out.skipped.push({ collection: c.slug, entryIds: [row.id], code: err.code, message: err.message });
      continue;
    }
    if (!live.count && !revs.length) continue;
    let count = live.count;
    for (const rev of revs) {
      await trx
        .updateTable('_cms_revisions')
        .set({ data: JSON.stringify({ ...rev.data, ...rev.r.valid }) })
        .where('id', '=', rev.id)
        .execute();
      if (rev.id === row.draft_revision_id && rev.id !== row.live_revision_id) {
        count += draftOnly(rev.r.counts, rev.data, values);
      }
    }
    await writeEntryRow(deps, trx, c, row, live.valid, actor, now);
    out.updated++;
    out.urls += count;
  }
  return out;
}

export async function rewriteUrls(
  deps: MediaCopyDeps,
  actor: Actor,
  input: RewriteInput,
  opts: { batchSize?: number } = {},
): Promise<RewriteResult> {
  requirePermission(actor, 'import:execute');
  const snap = await deps.schema.snapshot();
  const collections = targetCollections(snap.collections, input.collections);
  const rw = new UrlRewriter(checkUrlMap(input.urlMap));
  const blockTypes = blockLookup(snap);
  const result: RewriteResult = {
    updatedEntries: 0,
    rewrittenUrls: 0,
    byCollection: {},
    errors: [],
    featuredImages: { set: 0, unchanged: 0, kept: 0, failed: [] },
  };
  if (input.featuredImages?.length) {
    result.featuredImages = await setFeaturedImages(deps, actor, snap, blockTypes, {
      featuredImages: input.featuredImages,
      mediaIds: input.mediaIds ?? {},
    });
  }
  if (rw.size === 0) return result;
  const batchSize = opts.batchSize ?? 200;
  const db = deps.ctx.db;
  for (const c of collections) {
    const fields = c.fields.filter((f) => f.column !== null && REWRITTEN.has(f.type));
    if (!fields.length) continue;
    const pass: Pass = { c, fields, rw, blockTypes };
    const tally = { updatedEntries: 0, rewrittenUrls: 0 };
    result.byCollection[c.slug] = tally;
    let after = '';
    for (;;) {
      const page: Array<{ id: string }> = await dyn(db)
        .selectFrom(c.table)
        .select('id')
        .where('id', '>', after)
        .orderBy('id')
        .limit(batchSize)
        .execute();
      if (!page.length) break;
      const ids = page.map((r) => r.id);
      after = ids[ids.length - 1];
      try {
        const done = await db.transaction().execute((trx) => rewriteBatch(deps, trx, actor, pass, ids));
        tally.updatedEntries += done.updated;
        tally.rewrittenUrls += done.urls;
        for (const e of done.skipped) if (result.errors.length < MAX_ERRORS) result.errors.push(e);
      } catch (err) {
        // The batch rolled back as a whole; the others stand. Unexpected failures are logged, not hidden.
        if (!isCmsError(err))
          deps.ctx.log.error({ err, collection: c.slug }, 'rewriting media URLs failed for a batch');
        if (result.errors.length < MAX_ERRORS) {
          result.errors.push({
            collection: c.slug,
            entryIds: ids,
            code: isCmsError(err) ? err.code : 'INTERNAL_ERROR',
            message: isCmsError(err) ? err.message : 'The entries could not be updated',
          });
        }
      }
      if (page.length < batchSize) break;
    }
    result.updatedEntries += tally.updatedEntries;
    result.rewrittenUrls += tally.rewrittenUrls;
  }
  return result;
}
