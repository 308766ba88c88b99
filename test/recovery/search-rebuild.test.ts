/**
 * Crash recovery of a long search rebuild: the real server rebuilds the index of a collection of
 * over a thousand entries (CRASH_SEARCH_ENTRIES for more) in small steps while a client keeps
 * editing entries, and is killed with SIGKILL at a moment the seed picks (the crash must find the
 * rebuild in progress). After a restart on the same data the rebuild finishes by itself (the
 * background worker resumes it; nothing needs to be sent), the next seed starts a new rebuild over
 * the same index, and the index equals the content: one document per entry, each entry found by the
 * word only it holds, an edit acknowledged during the rebuild found by its new word and not by the
 * word it replaced, and the consistency checker reports ok.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemActor } from '../../src/auth/actor.js';
import { describeEachDialect } from '../helpers/db.js';
import { waitFor } from '../helpers/wait.js';
import {
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

const ENTRIES = Number(process.env.CRASH_SEARCH_ENTRIES ?? 1200);
/**
 * Entries per rebuild step: small, so the rebuild takes many steps and the kill lands inside it
 * (SQLite steps are several times faster than PostgreSQL's).
 */
const BATCH = { sqlite: 2, postgres: 8 };

/** A word for entry `n` that no other entry holds and no stemmer changes (no s, e, y, l, and no vowel-like endings). */
function word(n: number, prefix = 'zq'): string {
  const letters = 'bcdfghjkmnpqrtvwxz';
  let out = '';
  let v = n;
  do {
    out = letters[v % letters.length] + out;
    v = Math.floor(v / letters.length);
  } while (v > 0);
  return `${prefix}${out}`;
}

async function entriesOf(site: Site): Promise<string[]> {
  const cms = await site.open();
  const content = cms.services.content;
  await cms.services.schema.collections.create(systemActor, {
    slug: 'articles',
    label: 'Articles',
    fields: [
      { slug: 'title', label: 'Title', type: 'string', required: true, searchable: true },
      { slug: 'body', label: 'Body', type: 'text', searchable: true },
    ],
  });
  const ids: string[] = new Array(ENTRIES);
  // Four writers at once on PostgreSQL; SQLite has one writer, so more only wait for its lock.
  const lanes = site.dialect === 'postgres' ? 4 : 1;
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (let n = next++; n < ENTRIES; n = next++) {
        const created = await content.create(systemActor, 'articles', {
          data: { title: `Article ${word(n)}`, body: `A body about herons and ${word(n, 'kx')}` },
        });
        ids[n] = created.item.id;
      }
    }),
  );
  return ids;
}

/** The index's build state through the API. */
async function searchState(server: Server, token: string) {
  const res = await api(server, token, 'GET', '/search/stats?collection=articles');
  if (res.status !== 200) throw new Error(`stats: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.collections[0] as {
    state: string;
    documents: number | null;
    build: { done: number; total: number; reason: string } | null;
  };
}

async function found(server: Server, token: string, q: string): Promise<string[]> {
  const res = await api(server, token, 'GET', `/search?q=${q}&collection=articles`);
  if (res.status !== 200) throw new Error(`search ${q}: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.data.items as Array<{ id: string }>).map((i) => i.id);
}

describeEachDialect('crash during a search rebuild', (dialect) => {
  let site: Site;
  let server: Server;
  let ids: string[];
  /** Entry index → the word its title holds now (edits replace the first word). */
  const titleWord = new Map<number, string>();
  beforeAll(async () => {
    site = await freshSite(dialect, { CMS_SEARCH_REBUILD_BATCH: String(BATCH[dialect]) });
    const t0 = Date.now();
    ids = await entriesOf(site);
    const t1 = Date.now();
    for (let n = 0; n < ENTRIES; n++) titleWord.set(n, word(n));
    // The first index is built in the test process, in the default (large) steps: only the
    // rebuilds the server runs need small ones.
    const { search } = (await site.open()).services;
    let built = await search.enable(systemActor, { collection: 'articles', weights: { title: 5, body: 1 } });
    while (built.state === 'building') built = await search.rebuild(systemActor, 'articles');
    expect(built).toMatchObject({ state: 'ready', documents: ENTRIES });
    console.info(
      `[crash] search set-up (${dialect}): ${ENTRIES} entries in ${t1 - t0} ms, first build ${Date.now() - t1} ms`,
    );
    server = await startServer(site);
  }, 240_000);
  afterAll(async () => {
    if (server) await stopServer(server);
    await site?.drop();
  });

  it.each(crashSeeds())(
    'seed %i: kill -9 mid-rebuild, restart: the rebuild finishes by itself and the index equals the content',
    async (seed) => {
      const r = rng(seed);
      const token = site.adminToken;
      // A seeded time after the build is seen in progress (read from the database by the test
      // process, so a busy machine's slow start does not move the kill before the build), short of
      // its end (seconds).
      const killAfterMs = r.int(0, 700);
      const watcher = await site.open();
      const rebuild = api(server, token, 'POST', '/search/rebuild', { collection: 'articles' }).catch(() => null);
      // An editor keeps writing while the index is rebuilt: the rebuild must not lose these edits.
      // It sends one edit at a time, so at most one is unanswered when the kill comes.
      const edited = new Set<number>();
      let inFlight: { n: number; word: string } | null = null;
      let stop = false;
      const refused: string[] = [];
      const editor = (async () => {
        for (let k = 0; !stop; k++) {
          const n = r.int(0, ENTRIES - 1);
          const fresh = word(seed * 10_000 + k, 'wv');
          inFlight = { n, word: fresh };
          try {
            const res = await api(server, token, 'PUT', `/content/articles/${ids[n]}`, {
              data: { title: `Article ${fresh}` },
            });
            if (res.status !== 200) {
              refused.push(`edit ${n}: ${res.status} ${JSON.stringify(res.body)}`);
              return;
            }
          } catch (err) {
            // The kill cut the connection; before the kill a failed request is a finding.
            if (!stop) refused.push(`edit ${n}: ${(err as Error).message}`);
            return;
          }
          inFlight = null;
          titleWord.set(n, fresh);
          edited.add(n);
        }
      })();
      const inProgress = async () =>
        (await watcher.services.search.stats(systemActor, 'articles')).collections[0].build?.reason === 'rebuild';
      const watchUntil = Date.now() + 60_000;
      while (!(await inProgress()) && Date.now() < watchUntil) await new Promise((done) => setTimeout(done, 5));
      await new Promise((done) => setTimeout(done, killAfterMs));
      stop = true;
      await kill9(server);
      await Promise.all([rebuild, editor]);
      expect(refused, `seed ${seed} (${dialect}): edits during the rebuild`).toEqual([]);
      // The state the crash left, read before anything runs again: the kill must have cut the build.
      const cms = await site.open();
      const left = (await cms.services.search.stats(systemActor, 'articles')).collections[0];
      const context = `seed ${seed} (${dialect}): killed ${killAfterMs} ms after the rebuild was seen in progress, at ${left.build?.done ?? '-'}/${left.build?.total ?? '-'} after ${edited.size} acknowledged edits`;
      console.info(`[crash] search rebuild: ${context}`);
      expect(left.build?.reason, `${context}: the rebuild was not in progress at the kill`).toBe('rebuild');

      server = await startServer(site);
      // The background worker resumes the rebuild from where its last committed step left it.
      await waitFor(async () => (await searchState(server, token)).state === 'ready', {
        what: `${context}: the interrupted rebuild to finish after the restart`,
        timeoutMs: 120_000,
        intervalMs: 250,
      });

      // The edit whose answer the kill cut off may or may not have landed: the content decides.
      const cut = inFlight as { n: number; word: string } | null;
      if (cut) {
        const row = await cms.services.content.get(systemActor, 'articles', ids[cut.n]);
        if ((row.item.data as { title: string }).title === `Article ${cut.word}`) {
          titleWord.set(cut.n, cut.word);
          edited.add(cut.n);
        }
      }

      const state = await searchState(server, token);
      expect(state.documents, context).toBe(ENTRIES);
      for (const n of edited) {
        expect(await found(server, token, titleWord.get(n)!), `${context}: edited entry ${n} by its title`).toEqual([
          ids[n],
        ]);
        expect(await found(server, token, word(n)), `${context}: edited entry ${n} by its old title`).toEqual([]);
      }
      for (let i = 0; i < 25; i++) {
        const n = r.int(0, ENTRIES - 1);
        expect(await found(server, token, titleWord.get(n)!), `${context}: entry ${n}`).toEqual([ids[n]]);
        expect(await found(server, token, word(n, 'kx')), `${context}: entry ${n} by its body`).toEqual([ids[n]]);
      }
      const report = await checkReport(site);
      expect(report.status, `${context}:\n${findings(report)}`).toBe('ok');
    },
    240_000,
  );
});
