/**
 * The media copy's featured images: the import listed, per entry, the source
 * URL of its thumbnail (`media.featuredImages`); once the copy has mapped
 * those URLs to library items (`mediaIds`), each entry's image field gets the
 * item's value, built by the same builder the admin's media picker uses.
 *
 * An entry is written only when its field is empty: a field that already
 * holds the item is left alone (reruns change nothing, no version churn) and
 * a field an editor has since pointed elsewhere is kept. Each write goes
 * through the usual update path: checks, save hooks, the row's version moves
 * on (stale edits conflict), the live revision and a pending draft get the
 * value too, and the write listeners (media checks, usage index) run in the
 * same transaction. A URL that was not copied leaves the entry without an
 * image and is reported with its URL.
 */
import type { Actor } from '../../../auth/actor.js';
import { isoNow } from '../../../core/clock.js';
import { isCmsError } from '../../../core/errors.js';
import type { Kdb } from '../../../db/connect.js';
import type { EntryRow } from '../../content/model.js';
import { decodeData, dyn } from '../../content/rows.js';
import { type LibraryItem, mediaValue } from '../../fields/media-value.js';
import type { BlockTypeVersionLookup } from '../../fields/value-context.js';
import { validateEntryData } from '../../fields/values.js';
import type { CollectionInfo, FieldInfo, SchemaSnapshot } from '../../schema/model.js';
import type { MediaCopyDeps } from './deps.js';
import { urlKey } from './url-rewrite.js';
import { writeEntryRow } from './write-row.js';

export interface FeaturedImage {
  collection: string;
  entryId: string;
  field: string;
  /** The attachment's source URL (a key of the copy's `mediaIds`). */
  url: string;
}

export interface FeaturedFailure extends FeaturedImage {
  code: string;
  message: string;
}

export interface FeaturedResult {
  /** Entries whose image field was set now. */
  set: number;
  /** Entries whose field already held the copied item (an earlier run). */
  unchanged: number;
  /** Entries whose field holds another value (chosen since): not overwritten. */
  kept: number;
  failed: FeaturedFailure[];
}

/** Entries per transaction; a batch that fails is retried one entry at a time. */
const BATCH = 100;

interface Job extends FeaturedImage {
  c: CollectionInfo;
  f: FieldInfo;
  item: LibraryItem;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What one entry's write did (failures are thrown as CmsError). */
type Outcome = 'set' | 'unchanged' | 'kept' | 'missing';

function failure(x: FeaturedImage, code: string, message: string): FeaturedFailure {
  return { collection: x.collection, entryId: x.entryId, field: x.field, url: x.url, code, message };
}

/** The jobs that can run, and the failures known before any write (unknown target, file not copied). */
async function plan(
  deps: MediaCopyDeps,
  actor: Actor,
  snap: SchemaSnapshot,
  list: FeaturedImage[],
  mediaIds: Record<string, string>,
): Promise<{ jobs: Job[]; failed: FeaturedFailure[] }> {
  const byKey = new Map<string, string>();
  for (const [url, id] of Object.entries(mediaIds)) {
    const key = urlKey(url.trim());
    if (key) byKey.set(key, id);
  }
  const items = new Map<string, LibraryItem | null>();
  const seen = new Set<string>();
  const jobs: Job[] = [];
  const failed: FeaturedFailure[] = [];
  for (const x of list) {
    // One value per entry field: the same entry listed twice (two chunks of a run) is one job.
    const key = `${x.collection}\0${x.entryId}\0${x.field}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const c = snap.collections.get(x.collection);
    const f = c?.fields.find((y) => y.slug === x.field);
    if (!c || !f || f.type !== 'image' || f.column === null) {
      failed.push(failure(x, 'NOT_FOUND', `"${x.collection}" has no image field "${x.field}"`));
      continue;
    }
    const k = urlKey(x.url.trim());
    const mediaId = k ? byKey.get(k) : undefined;
    if (!mediaId) {
      failed.push(failure(x, 'MEDIA_NOT_COPIED', `${x.url} was not copied into the media library`));
      continue;
    }
    if (!items.has(mediaId)) {
      try {
        items.set(mediaId, await deps.media.get(actor, mediaId));
      } catch (err) {
        if (!isCmsError(err)) throw err;
        items.set(mediaId, null);
      }
    }
    const item = items.get(mediaId);
    if (!item) {
      failed.push(failure(x, 'MEDIA_NOT_FOUND', `Media item ${mediaId} (copied from ${x.url}) does not exist`));
      continue;
    }
    jobs.push({ ...x, c, f, item });
  }
  return { jobs, failed };
}

/** Set one entry's field inside the caller's transaction. */
async function setOne(
  deps: MediaCopyDeps,
  trx: Kdb,
  actor: Actor,
  blockTypes: BlockTypeVersionLookup,
  job: Job,
): Promise<Outcome> {
  const { ctx } = deps;
  const { c, f } = job;
  let q = dyn(trx).selectFrom(c.table).selectAll().where('id', '=', job.entryId);
  if (ctx.dialect === 'postgres') q = q.forUpdate();
  const row: EntryRow | undefined = await q.executeTakeFirst();
  if (!row || row.deleted_at) return 'missing';
  const values = decodeData(c, row);
  const current = values[f.slug];
  if (current !== null && current !== undefined) {
    return isObject(current) && current.id === job.item.id ? 'unchanged' : 'kept';
  }
  const change = validateEntryData(
    c.fields,
    { [f.slug]: mediaValue('image', job.item, null) },
    {
      mode: 'update',
      blockTypes,
      previous: values,
    },
  );
  await deps.content.hooks.runBeforeSave({
    collection: c.slug,
    operation: 'update',
    entryId: row.id,
    locale: row.locale,
    data: { ...values, ...change },
    actor,
  });
  // The live revision mirrors the row; a pending draft is what the editor publishes next: both get the image.
  let before: Record<string, unknown> = values;
  for (const revId of new Set([row.live_revision_id, row.draft_revision_id])) {
    if (!revId) continue;
    const rev = await trx.selectFrom('_cms_revisions').select('data').where('id', '=', revId).executeTakeFirst();
    if (!rev) continue;
    const data = JSON.parse(rev.data) as Record<string, unknown>;
    if (revId === row.draft_revision_id) before = data;
    if (data[f.slug] !== null && data[f.slug] !== undefined) continue;
    await trx
      .updateTable('_cms_revisions')
      .set({ data: JSON.stringify({ ...data, ...change }) })
      .where('id', '=', revId)
      .execute();
  }
  await writeEntryRow(deps, trx, c, row, change, actor, isoNow(ctx.clock), before);
  return 'set';
}

function fromError(job: Job, err: unknown, deps: MediaCopyDeps): FeaturedFailure {
  if (!isCmsError(err)) deps.ctx.log.error({ err, entryId: job.entryId }, 'setting a featured image failed');
  return isCmsError(err)
    ? failure(job, err.code, err.message)
    : failure(job, 'INTERNAL_ERROR', 'The entry could not be updated');
}

export async function setFeaturedImages(
  deps: MediaCopyDeps,
  actor: Actor,
  snap: SchemaSnapshot,
  blockTypes: BlockTypeVersionLookup,
  input: { featuredImages: FeaturedImage[]; mediaIds: Record<string, string> },
): Promise<FeaturedResult> {
  const { jobs, failed } = await plan(deps, actor, snap, input.featuredImages, input.mediaIds);
  const result: FeaturedResult = { set: 0, unchanged: 0, kept: 0, failed };
  const tally = (job: Job, out: Outcome) => {
    if (out === 'missing') result.failed.push(failure(job, 'NOT_FOUND', `Entry ${job.entryId} does not exist`));
    else result[out]++;
  };
  const runBatch = (batch: Job[]) =>
    deps.ctx.db.transaction().execute(async (trx) => {
      const outs: Outcome[] = [];
      for (const job of batch) outs.push(await setOne(deps, trx, actor, blockTypes, job));
      return outs;
    });
  for (let i = 0; i < jobs.length; i += BATCH) {
    const batch = jobs.slice(i, i + BATCH);
    try {
      const outs = await runBatch(batch);
      batch.forEach((job, j) => {
        tally(job, outs[j]);
      });
    } catch {
      // The batch rolled back: each entry again on its own, so one refusal fails alone and is reported.
      for (const job of batch) {
        try {
          tally(job, (await runBatch([job]))[0]);
        } catch (err) {
          result.failed.push(fromError(job, err, deps));
        }
      }
    }
  }
  return result;
}
