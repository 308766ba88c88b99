/**
 * Crash recovery of media usage activation: a site written without tracking (a few hundred entries
 * whose image fields, repeaters and Portable Text reference library images, made in-process and set
 * back to the pre-activation state with `asUpgradedSite`) is activated over REST on the real server,
 * which is killed with SIGKILL at a moment the seed picks while activation or historical indexing is
 * in progress (checked from the database after the kill). After a restart an operator finishes the
 * activation over REST as docs/media.md says: progress requests, waiting while a dead process's
 * lease is live (the server runs with a short `CMS_MEDIA_USAGE_LEASE_MS`, so the wait is seconds),
 * a confirmed retry when `lastErrorCode` is set, and a work item retry for a failed item. Then: the
 * state is active with complete coverage, the index equals what the content implies (the test's own
 * model and the checker's media-usage check), no row and no count was indexed twice, and writes are
 * accepted and tracked again. Each seed sets the site back to the pre-activation state (server
 * stopped) and activates it again.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemActor } from '../../src/auth/actor.js';
import type { Cms } from '../../src/index.js';
import type { TestCms } from '../helpers/cms.js';
import { postsCollection } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/db.js';
import { png, uploaded } from '../helpers/media.js';
import { asUpgradedSite, imageValue, usageSchema } from '../helpers/media-usage.js';
import { waitFor } from '../helpers/wait.js';
import {
  type Answer,
  api,
  checkReport,
  crashSeeds,
  findings,
  freshSite,
  kill9,
  rng,
  type Server,
  type Site,
  startServer,
  stopServer,
} from './harness.js';

const POSTS = 240;
const PAGES = 80;
const NOTES = 20;
/**
 * Entries per index step: small, so historical indexing takes well over the 40 progress answers a
 * seed may kill after (SQLite steps are several times faster than PostgreSQL's).
 */
const BATCH = { sqlite: 2, postgres: 4 };
/**
 * The lease the server claims work items with: a dead holder's item is claimable this soon. Longer
 * than a restart usually takes, so a lease the kill left is often still live for the operator.
 */
const LEASE_MS = 5_000;

/** Collection slug → entry ID → the `fieldSlug/mediaId` references its values hold. */
type Model = Map<string, Map<string, Set<string>>>;

function refer(model: Model, collection: string, entry: string, refs: string[]) {
  if (!model.has(collection)) model.set(collection, new Map());
  model.get(collection)!.set(entry, new Set(refs));
}

/** Make the content in the test process: posts with covers, galleries and Portable Text images; pages with a hero; notes without media. */
async function content(cms: TestCms, model: Model): Promise<any[]> {
  await usageSchema(cms);
  await postsCollection(cms, { slug: 'pages', fields: [{ slug: 'hero', label: 'Hero', type: 'image' }] });
  await postsCollection(cms, { slug: 'notes' });
  const pics: any[] = [];
  for (let i = 0; i < 6; i++) pics.push(await uploaded(cms, await png(10 + i, 10)));
  const r = rng(4242);
  const svc = cms.services.content;
  for (let n = 0; n < POSTS; n++) {
    const cover = pics[r.int(0, pics.length - 1)];
    const photos = Array.from({ length: r.int(0, 2) }, () => pics[r.int(0, pics.length - 1)]);
    const inStory = n % 3 === 0 ? [pics[r.int(0, pics.length - 1)]] : [];
    const data: Record<string, unknown> = {
      title: `Post ${n}`,
      // Every fifth post has no cover: not every entry references media.
      ...(n % 5 === 4 ? {} : { cover: imageValue(cover) }),
      gallery: photos.map((p) => ({ photo: imageValue(p) })),
      story: [
        { _type: 'block', _key: 'b', style: 'normal', children: [{ _type: 'span', _key: 's', text: `Story ${n}` }] },
        ...inStory.map((p, i) => ({ _type: 'image', _key: `i${i}`, asset: { _ref: p.id } })),
      ],
    };
    const { item } = await svc.create(systemActor, 'posts', { data });
    refer(model, 'posts', item.id, [
      ...(n % 5 === 4 ? [] : [`cover/${cover.id}`]),
      ...photos.map((p) => `gallery/${p.id}`),
      ...inStory.map((p) => `story/${p.id}`),
    ]);
  }
  for (let n = 0; n < PAGES; n++) {
    const hero = pics[n % pics.length];
    const { item } = await svc.create(systemActor, 'pages', { data: { title: `Page ${n}`, hero: imageValue(hero) } });
    refer(model, 'pages', item.id, [`hero/${hero.id}`]);
  }
  for (let n = 0; n < NOTES; n++) await svc.create(systemActor, 'notes', { data: { title: `Note ${n}` } });
  return pics;
}

/** The index as `collection/entry/fieldSlug/mediaId` strings, one per distinct reference, and any key stored twice. */
async function indexRows(cms: Cms): Promise<{ refs: string[]; doubled: string[]; rows: number }> {
  const snap = await cms.services.schema.snapshot();
  const rows = await cms.ctx.db.selectFrom('_cms_media_usage').selectAll().execute();
  const seen = new Map<string, number>();
  const refs = new Set<string>();
  for (const row of rows) {
    const c = snap.collectionsById.get(row.collection_id);
    const field = c?.fields.find((f) => f.id === row.field_id);
    refs.add(`${c?.slug ?? row.collection_id}/${row.entry_id}/${field?.slug ?? row.field_id}/${row.media_id}`);
    const key = `${row.collection_id}/${row.entry_id}/${row.field_id}/${row.media_id}/${row.locale}/${row.live}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return {
    refs: [...refs].sort(),
    doubled: [...seen].filter(([, n]) => n > 1).map(([k]) => k),
    rows: rows.length,
  };
}

function expectedRefs(model: Model): string[] {
  const out: string[] = [];
  for (const [collection, entries] of model)
    for (const [entry, refs] of entries) for (const ref of refs) out.push(`${collection}/${entry}/${ref}`);
  return out.sort();
}

/** What the crash left, read from the database before anything runs again. */
async function leftover(cms: Cms) {
  const state = await cms.ctx.db.selectFrom('_cms_media_usage_state').selectAll().executeTakeFirstOrThrow();
  const work = await cms.ctx.db.selectFrom('_cms_media_usage_work').selectAll().execute();
  const prepared = await cms.ctx.db.selectFrom('_cms_media_usage_collections').selectAll().execute();
  const at = new Date().toISOString();
  const open = work.filter((w) => w.status === 'pending' || w.status === 'running');
  return {
    state: state.state,
    lastErrorCode: state.last_error_code,
    prepared: prepared.length,
    open: open.length,
    leased: work.filter((w) => w.status === 'running' && w.lease_expires_at !== null && w.lease_expires_at > at).length,
    /** Each held lease's length as claimed (its end less the claim's time): the server's configured lease. */
    leaseLengths: work
      .filter((w) => w.status === 'running')
      .map((w) => Date.parse(w.lease_expires_at ?? '') - Date.parse(w.updated_at)),
    /** The items the dead process held, with when their leases end. */
    held: work
      .filter((w) => w.status === 'running' && w.lease_expires_at !== null)
      .map((w) => ({ id: w.id, version: w.version, expires: w.lease_expires_at as string })),
    done: work.filter((w) => w.status === 'done').length,
  };
}

/** An operator's log of finishing activation after the restart. */
interface Operated {
  requests: number;
  leaseWaits: number;
  confirmedRetries: number;
  workRetries: number;
}

/**
 * Finish activation as docs/media.md tells an operator: progress requests one at a time while they
 * answer `nextRequestInMs: 0`; when it is more (a lease the dead process held), ask again once it
 * may have passed (waitFor's polling, not a fixed sleep); when `lastErrorCode` is set, one confirmed
 * retry; a failed work item is run again through the work retry. Any other answer fails the test.
 */
async function operate(server: Server, token: string, context: string): Promise<{ progress: any; log: Operated }> {
  const log: Operated = { requests: 0, leaseWaits: 0, confirmedRetries: 0, workRetries: 0 };
  const unexpected: string[] = [];
  const note = (what: string, res: Answer) => unexpected.push(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  const progress = await waitFor(
    async () => {
      for (let i = 0; i < 2_000 && !unexpected.length; i++) {
        const res = await api(server, token, 'POST', '/admin/media-usage/progress');
        log.requests++;
        const p = res.body?.data;
        if (res.status === 409 && res.body?.error?.details?.lastErrorCode) {
          const retry = await api(server, token, 'POST', '/admin/media-usage/activation', {
            writersDrained: true,
            retry: true,
          });
          log.confirmedRetries++;
          if (retry.status !== 200) note('confirmed retry', retry);
          continue;
        }
        if (res.status !== 200) {
          note('progress', res);
          break;
        }
        if (p.lastErrorCode) continue;
        if (p.nextRequestInMs === 0) continue;
        if (p.nextRequestInMs === null) {
          if (p.state === 'active' && p.coverage === 'complete') return p;
          // Indexing stopped on a failed item: run it again, as the admin page's "Run again" does.
          const work = await api(server, token, 'GET', '/admin/media-usage/work?limit=100');
          if (work.status !== 200) note('work list', work);
          const failed = (work.body?.data?.items ?? []).filter((w: any) => w.status === 'failed');
          if (!failed.length) note('progress ended without complete coverage', res);
          for (const w of failed) {
            const again = await api(server, token, 'POST', '/admin/media-usage/work/retry', {
              id: w.id,
              version: w.version,
            });
            log.workRetries++;
            if (again.status !== 200) note('work retry', again);
          }
          continue;
        }
        // Another (dead) process holds a lease: ask again once it may have ended.
        log.leaseWaits++;
        return false;
      }
      return unexpected.length ? { unexpected } : false;
    },
    { what: `${context}: activation to finish after the restart`, timeoutMs: 60_000, intervalMs: 100 },
  );
  expect(unexpected, `${context}: answers the operator did not expect`).toEqual([]);
  return { progress, log };
}

describeEachDialect('crash during media usage activation', (dialect) => {
  let site: Site;
  let server: Server | undefined;
  let cms: TestCms;
  let pics: any[];
  const model: Model = new Map();
  beforeAll(async () => {
    site = await freshSite(dialect, {
      CMS_MEDIA_USAGE_BATCH: String(BATCH[dialect]),
      CMS_MEDIA_USAGE_LEASE_MS: String(LEASE_MS),
    });
    const t0 = Date.now();
    cms = Object.assign(await site.open(), { adminToken: site.adminToken }) as TestCms;
    pics = await content(cms, model);
    console.info(
      `[crash] media usage set-up (${dialect}): ${POSTS + PAGES + NOTES} entries, ${expectedRefs(model).length} references in ${Date.now() - t0} ms`,
    );
  }, 120_000);
  afterAll(async () => {
    if (server) await stopServer(server);
    await site?.drop();
  });

  it.each(crashSeeds(2))(
    'seed %i: kill -9 during activation, restart: the operator finishes it and the index equals the content',
    async (seed) => {
      const t0 = Date.now();
      const r = rng(seed);
      const token = site.adminToken;
      // Each seed activates a site written without tracking: the server is stopped while the state is set back.
      if (server) await stopServer(server);
      await asUpgradedSite(cms);
      server = await startServer(site);
      const live = server;

      const started = await api(live, token, 'POST', '/admin/media-usage/activation', { writersDrained: true });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      expect(started.body.data.state).toBe('activating');

      // The kill point, a few milliseconds into a progress request: odd seeds in the first (which
      // prepares the collections, state activating), even seeds after 1 to 40 answers (historical indexing).
      const killAfter = seed % 2 ? 0 : r.int(1, 40);
      const extraMs = r.int(0, 15);
      let answers = 0;
      let last: any = null;
      let stop = false;
      const refused: string[] = [];
      const driver = (async () => {
        while (!stop) {
          try {
            const res = await api(live, token, 'POST', '/admin/media-usage/progress');
            if (res.status !== 200) {
              refused.push(`progress: ${res.status} ${JSON.stringify(res.body)}`);
              return;
            }
            answers++;
            last = res.body.data;
            if (last.nextRequestInMs === null) return;
          } catch (err) {
            // The kill cut the connection; before the kill a failed request is a finding.
            if (!stop) refused.push(`progress: ${(err as Error).message}`);
            return;
          }
        }
      })();
      let ended = false;
      void driver.then(() => (ended = true));
      await waitFor(() => answers >= killAfter || ended, {
        what: `seed ${seed} (${dialect}): ${killAfter} progress answers`,
        timeoutMs: 60_000,
        intervalMs: 5,
      });
      if (extraMs) await new Promise((done) => setTimeout(done, extraMs));
      stop = true;
      await kill9(live);
      await driver;
      expect(refused, `seed ${seed} (${dialect}): progress requests before the kill`).toEqual([]);

      const left = await leftover(cms);
      const rowsLeft = (await indexRows(cms)).rows;
      const context = `seed ${seed} (${dialect}): killed after ${answers} progress answers (+${extraMs} ms): state ${left.state}, ${left.prepared}/3 collections prepared, work ${left.done} done, ${left.open} open (${left.leased} under a live lease), ${rowsLeft} index rows`;
      // The kill must find activation or historical indexing unfinished, or the scenario tested nothing.
      expect(
        left.state === 'activating' || (left.state === 'active' && left.open > 0),
        `${context}: activation was not in progress at the kill`,
      ).toBe(true);

      for (const ms of left.leaseLengths) expect(ms, `${context}: the lease the server claimed with`).toBe(LEASE_MS);

      server = await startServer(site);
      const restarted = server;
      if (left.state === 'activating') {
        // The gate survives the restart: writes stay refused until activation is over.
        const blocked = await api(restarted, token, 'POST', '/content/posts', { data: { title: 'Too early' } });
        expect(blocked.status, `${context}: a write before activation finished`).toBe(503);
        expect(blocked.body.error.code).toBe('MEDIA_USAGE_ACTIVATION_IN_PROGRESS');
      }
      // An operator who retries an item the dead process held, while its lease is live (by a margin
      // for a busy machine), is told to wait: the lease is honoured across the restart.
      let leaseRefusals = 0;
      for (const h of left.held) {
        if (Date.parse(h.expires) - Date.now() < 1_000) continue;
        const early = await api(restarted, token, 'POST', '/admin/media-usage/work/retry', {
          id: h.id,
          version: h.version,
        });
        expect(early.status, `${context}: retry under a live lease: ${JSON.stringify(early.body)}`).toBe(409);
        expect(early.body.error).toMatchObject({ code: 'WORK_LEASE_ACTIVE', details: { leaseExpiresAt: h.expires } });
        leaseRefusals++;
      }
      const { progress, log } = await operate(restarted, token, context);
      const summary = `${context}; after the restart ${leaseRefusals} retries refused under the live lease, ${log.requests} progress requests, ${log.leaseWaits} answers to wait for a lease, ${log.confirmedRetries} confirmed retries, ${log.workRetries} work retries`;
      console.info(`[crash] media usage activation: ${summary} (${Date.now() - t0} ms)`);
      expect(progress).toMatchObject({ state: 'active', coverage: 'complete', lastErrorCode: null });
      const expected = expectedRefs(model);
      const byCollection = new Map(progress.collections.map((c: any) => [c.collection, c]));
      for (const slug of ['posts', 'pages', 'notes']) {
        const entries = model.get(slug);
        const referencing = [...(entries?.values() ?? [])].filter((s) => s.size > 0).length;
        const references = [...(entries?.values() ?? [])].reduce((n, s) => n + s.size, 0);
        // Counts accumulate step by step: a step the crash cut and ran again must not count twice.
        expect(byCollection.get(slug), `${summary}: coverage of ${slug}`).toMatchObject({
          status: 'complete',
          skipped: 0,
          lastErrorCode: null,
          // Notes have no media field: nothing to index.
          ...(entries ? { entries: entries.size, referencing, references } : {}),
        });
      }
      const work = await api(restarted, token, 'GET', '/admin/media-usage/work?limit=100');
      expect(work.body.data.backlog, summary).toBe('none');
      expect(
        work.body.data.items.map((w: any) => `${w.kind} ${w.collection} ${w.status}`).sort(),
        `${summary}: work items`,
      ).toEqual(['index pages done', 'index posts done']);

      const index = await indexRows(cms);
      expect(index.doubled, `${summary}: index rows stored twice`).toEqual([]);
      expect(index.refs, `${summary}: the index against the content`).toEqual(expected);
      expect(index.rows, `${summary}: one row per reference`).toBe(expected.length);
      const report = await checkReport(site);
      expect(report.status, `${summary}:\n${findings(report)}`).toBe('ok');
      const usageCheck = report.checks.find((c) => c.id === 'media-usage');
      expect(usageCheck?.status, `${summary}: the checker's media-usage check`).toBe('ok');

      // Writes are open again, and tracked.
      const pic = pics[seed % pics.length];
      const write = await api(restarted, token, 'POST', '/content/pages', {
        data: { title: `After seed ${seed}`, hero: imageValue(pic) },
      });
      expect(write.status, `${summary}: a write after activation: ${JSON.stringify(write.body)}`).toBe(201);
      refer(model, 'pages', write.body.data.item.id, [`hero/${pic.id}`]);
      expect((await indexRows(cms)).refs, `${summary}: the write after activation is tracked`).toEqual(
        expectedRefs(model),
      );
    },
    180_000,
  );
});
