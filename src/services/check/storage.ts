import type { Kdb } from '../../db/connect.js';
import { DERIVED_KEY, type ListedObject, STORAGE_KEY, type Storage } from '../../storage/types.js';
import type { CheckDeps } from './index.js';
import { CHECK_BATCH, type Check, type CheckEnv, type FindingSink } from './model.js';

/**
 * An object younger than this is never judged an orphan. Every writer of the store puts the bytes
 * first and records their key right after: an upload or an import's copy is stored, then its row
 * inserted; a replace stores the new bytes, then points the row at them; a package file is
 * stored, then its transfer row updated. Between the two the object has no owner, for as long as
 * inspecting an image and one transaction take (seconds). A file store object keeps the time its
 * bytes were last written (a staged upload is moved, not rewritten), S3 the time it was stored,
 * so an object an hour old whose key no row names is not one on its way in. The owners are read
 * for each page of objects right before a repair deletes it, which leaves only a write that
 * stalled for an hour between its two steps.
 */
export const ORPHAN_GRACE_MS = 60 * 60_000;

/** Storage requests in flight at once (HEAD of each ready item's bytes, deletes of a repair). */
export const STORAGE_CONCURRENCY = 8;

/** Run `fn` on every item, at most `limit` at a time. */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Every ready item's bytes are in storage with the recorded size. A pending upload has no bytes
 * until its client sends them, so only ready items are asked for. Items that share bytes (a
 * deduplicated replace) share the key: each key is asked once per batch.
 */
async function itemBytes(db: Kdb, storage: Storage, batch: number, sink: FindingSink): Promise<void> {
  let after: string | null = null;
  for (;;) {
    let q = db
      .selectFrom('_cms_media')
      .select(['id', 'storage_key', 'size'])
      .where('status', '=', 'ready')
      .orderBy('id')
      .limit(batch);
    if (after !== null) q = q.where('id', '>', after);
    const rows = await q.execute();
    if (!rows.length) return;
    const sizes = new Map<string, number | null>();
    await eachLimited([...new Set(rows.map((r) => r.storage_key))], STORAGE_CONCURRENCY, async (key) => {
      sizes.set(key, (await storage.head(key))?.size ?? null);
    });
    const suspects = rows.filter((r) => sizes.get(r.storage_key) !== Number(r.size));
    if (suspects.length) {
      // A replace or delete since the batch was read moves a row off its old bytes before they go:
      // only a row that still names the same key, still ready, is reported.
      const still = await db
        .selectFrom('_cms_media')
        .select(['id', 'storage_key'])
        .where(
          'id',
          'in',
          suspects.map((r) => r.id),
        )
        .where('status', '=', 'ready')
        .execute();
      const now = new Map(still.map((r) => [r.id, r.storage_key]));
      for (const r of suspects) {
        if (now.get(r.id) !== r.storage_key) continue;
        const size = sizes.get(r.storage_key);
        if (size === null || size === undefined) {
          sink.add({
            code: 'MEDIA_FILE_MISSING',
            message: `the bytes of media item ${r.id} (${r.storage_key}) are not in storage; they cannot be derived from anything else: restore them from a backup, or replace or delete the item`,
            subject: r.id,
            repairable: false,
          });
        } else {
          sink.add({
            code: 'MEDIA_FILE_SIZE_MISMATCH',
            message: `the stored bytes of media item ${r.id} (${r.storage_key}) are ${size} bytes; the item records ${Number(r.size)}: restore them from a backup, or replace the file`,
            subject: r.id,
            repairable: false,
          });
        }
      }
    }
    after = rows[rows.length - 1]?.id ?? null;
    if (rows.length < batch) return;
  }
}

/** Of these original keys, those some row owns: a media item (any status) or a site package file it belongs to. */
async function ownedKeys(db: Kdb, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const media = await db
    .selectFrom('_cms_media')
    .select('storage_key as key')
    .where('storage_key', 'in', keys)
    .execute();
  const packages = await db
    .selectFrom('_cms_transfer_files')
    .select('storage_key as key')
    .where('storage_key', 'in', keys)
    // An export lists the library's files with owned = 0: it names them, the item owns them (a
    // delete of the item removes them as it would without the package); an import's upload
    // owns its file until the library takes it over.
    .where('owned', '=', 1)
    .execute();
  return new Set([...media, ...packages].map((r) => r.key as string));
}

/** Of these item IDs, those with a row (any status: a pending item's derivatives cannot exist, but cost nothing to keep). */
async function existingItems(db: Kdb, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('_cms_media').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

const itemOfDerived = (key: string) => key.slice('derived/'.length, 'derived/'.length + 26);

/**
 * One listed page of objects: those no row owns are reported; with `repair`, an original is
 * deleted and a gone item's derivatives go with their prefix. The owners are read for each page
 * after it is listed and right before its deletes, so an object that gained an owner while the
 * store was being listed is kept.
 */
async function judge(
  env: CheckEnv<CheckDeps>,
  page: ListedObject[],
  reportedPrefixes: Set<string>,
  sink: FindingSink,
): Promise<void> {
  const { ctx, repair } = env;
  const storage = env.deps.media.storage;
  const originals = page.filter((o) => STORAGE_KEY.test(o.key));
  const derived = page.filter((o) => DERIVED_KEY.test(o.key));
  for (const o of page) {
    if (STORAGE_KEY.test(o.key) || DERIVED_KEY.test(o.key)) continue;
    sink.add({
      code: 'STORAGE_OBJECT_ORPHANED',
      message: `${o.key} (${o.size} bytes) is not a name the media service writes; nothing owns it, and it is left for an operator to look at and remove`,
      subject: o.key,
      repairable: false,
    });
  }

  const owned = await ownedKeys(ctx.db, [...new Set(originals.map((o) => o.key))]);
  const orphans = originals.filter((o) => !owned.has(o.key));
  const items = await existingItems(ctx.db, [...new Set(derived.map((o) => itemOfDerived(o.key)))]);
  const gone = [
    ...new Set(
      derived
        .map((o) => itemOfDerived(o.key))
        .filter((id) => !items.has(id) && !reportedPrefixes.has(`derived/${id}/`)),
    ),
  ];

  if (repair) {
    await eachLimited(orphans, STORAGE_CONCURRENCY, (o) => storage.delete(o.key));
    await eachLimited(gone, STORAGE_CONCURRENCY, (id) => storage.deletePrefix(`derived/${id}/`));
  }

  for (const o of orphans) {
    sink.add({
      code: 'STORAGE_OBJECT_ORPHANED',
      message: `${o.key} (${o.size} bytes, stored ${o.modifiedAt.toISOString()}) belongs to no media item and no site package`,
      subject: o.key,
      repairable: true,
      repaired: repair,
    });
  }
  for (const id of gone) {
    reportedPrefixes.add(`derived/${id}/`);
    sink.add({
      code: 'STORAGE_OBJECT_ORPHANED',
      message: `derived/${id}/ holds image derivatives of media item ${id}, which no longer exists`,
      subject: `derived/${id}/`,
      repairable: true,
      repaired: repair,
    });
  }
}

/**
 * Objects in storage that nothing owns, judged `batch` at a time as `Storage.list` yields them.
 * Objects younger than ORPHAN_GRACE_MS are not judged at all (not reported): one of them may be
 * an upload in flight, and a report that the next run takes back tells an operator nothing.
 */
async function unownedObjects(env: CheckEnv<CheckDeps>, batch: number, sink: FindingSink): Promise<void> {
  const storage = env.deps.media.storage;
  // Object times come from the file system or the bucket, so they are compared with the wall
  // clock, not with the service's clock.
  const cutoff = Date.now() - ORPHAN_GRACE_MS;
  const reportedPrefixes = new Set<string>();
  let page: ListedObject[] = [];
  for await (const o of storage.list()) {
    if (o.modifiedAt.getTime() > cutoff) continue;
    page.push(o);
    if (page.length >= batch) {
      await judge(env, page, reportedPrefixes, sink);
      page = [];
    }
  }
  if (page.length) await judge(env, page, reportedPrefixes, sink);
}

/**
 * Media bytes against media rows: every ready item's file is in storage with its recorded size
 * (a missing or different file cannot be repaired: the bytes are gone), and every stored object
 * older than the grace period belongs to a media item, a site package file, or (under
 * `derived/<id>/`) to an item that still exists; a repair deletes those that do not. The store
 * (a bucket's key prefix) is assumed to hold this site's objects only.
 */
export const storageCheck = storageCheckOf(CHECK_BATCH);

/** The check reading `batch` rows or objects a step (tests walk the step boundaries with a small one). */
export function storageCheckOf(batch: number): Check<CheckDeps> {
  return {
    id: 'storage',
    title: 'Media files in storage against the media library',
    async run(env, sink) {
      await itemBytes(env.ctx.db, env.deps.media.storage, batch, sink);
      await unownedObjects(env, batch, sink);
    },
  };
}
