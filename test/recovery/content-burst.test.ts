/**
 * Crash recovery of content writes: concurrent clients create, update (with `_rev`), publish
 * entries with a reference field and assign terms against the real server, which is killed with
 * SIGKILL at a moment the seed picks. After a restart on the same data, everything the server
 * acknowledged (2xx) is there with at least the acknowledged version, nothing exists that no
 * client attempted, nothing is doubled, revision pointers resolve, every entry carries the
 * reference each write set, and the consistency checker reports ok.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../helpers/db.js';
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
  versionOfRev,
} from './harness.js';

const CLIENTS = 4;
const TAGS = ['news', 'sport', 'arts'];

/** REST set-up through the service in the test process, before the server first starts. */
async function setUp(site: Site): Promise<string[]> {
  const cms = await site.open();
  const call = async (method: string, path: string, body: unknown) => {
    const res = await cms.app.request(`/_cms/api${path}`, {
      method,
      headers: { authorization: `Bearer ${site.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as any;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  await call('POST', '/schema/collections', {
    slug: 'people',
    label: 'People',
    fields: [{ slug: 'name', label: 'Name', type: 'string', required: true }],
  });
  await call('POST', '/schema/collections', {
    slug: 'posts',
    label: 'Posts',
    fields: [
      { slug: 'title', label: 'Title', type: 'string', required: true },
      { slug: 'body', label: 'Body', type: 'text' },
      {
        slug: 'author',
        label: 'Author',
        type: 'reference',
        validation: { targetCollection: 'people', multiple: true },
      },
    ],
  });
  await call('POST', '/taxonomies', { name: 'tags', label: 'Tags', collections: ['posts'] });
  for (const label of TAGS) await call('POST', '/taxonomies/tags/terms', { label });
  const people: string[] = [];
  for (const name of ['Ann', 'Bob', 'Cy'])
    people.push((await call('POST', '/content/people', { data: { name } })).item.id);
  return people;
}

/** What one client did to one entry it created. */
interface Tracked {
  id: string;
  slug: string;
  /** Versions the server acknowledged, in the order the answers came. */
  ackedVersions: number[];
  publishedAcked: boolean;
  /** A write since the last publish: publishing an entry with nothing new is refused (INVALID_STATE). */
  unpublished: boolean;
  /** Term sets attempted, in order; `ackedTerms` is the index of the last acknowledged one. */
  termSets: string[][];
  ackedTerms: number;
}

interface Log {
  seed: number;
  /** Slugs of every create sent, acknowledged or not (by every seed so far). */
  attempted: Set<string>;
  tracked: Map<string, Tracked>;
  acks: number;
  failures: string[];
}

/** One client: writes until its connection is refused (the kill), recording what was acknowledged. */
async function client(server: Server, token: string, k: number, seed: number, people: string[], log: Log) {
  const r = rng(seed * 100 + k + 1);
  const mine: Tracked[] = [];
  const ack = (t: Tracked, res: Answer) => {
    t.ackedVersions.push(versionOfRev(res.body.data._rev));
    log.acks++;
  };
  for (let n = 0; ; n++) {
    try {
      const roll = r.next();
      if (mine.length === 0 || roll < 0.35) {
        const slug = `s${log.seed}-c${k}-${n}`;
        log.attempted.add(slug);
        const res = await api(server, token, 'POST', '/content/posts', {
          slug,
          data: { title: `Post ${slug}`, body: `body ${n}` },
          references: { author: [r.pick(people)] },
        });
        if (res.status !== 201) {
          log.failures.push(`create ${slug}: ${res.status} ${JSON.stringify(res.body)}`);
          continue;
        }
        const t: Tracked = {
          id: res.body.data.item.id,
          slug,
          ackedVersions: [],
          publishedAcked: false,
          unpublished: true,
          termSets: [],
          ackedTerms: -1,
        };
        ack(t, res);
        mine.push(t);
        log.tracked.set(t.id, t);
      } else {
        const t = r.pick(mine);
        const rev = () => {
          // The `_rev` of the last acknowledged write: this client is the only writer of its entries.
          const v = t.ackedVersions[t.ackedVersions.length - 1];
          return Buffer.from(`${t.id}.${v}`).toString('base64url');
        };
        if (roll < 0.6) {
          const res = await api(server, token, 'PUT', `/content/posts/${t.id}`, {
            data: { title: `Post ${t.slug} v${n}` },
            references: { author: [r.pick(people)] },
            _rev: rev(),
          });
          if (res.status === 200) {
            ack(t, res);
            t.unpublished = true;
          } else log.failures.push(`update ${t.slug}: ${res.status} ${JSON.stringify(res.body)}`);
        } else if (roll < 0.8 && t.unpublished) {
          const res = await api(server, token, 'POST', `/content/posts/${t.id}/publish`, { _rev: rev() });
          if (res.status === 200) {
            ack(t, res);
            t.publishedAcked = true;
            t.unpublished = false;
          } else log.failures.push(`publish ${t.slug}: ${res.status} ${JSON.stringify(res.body)}`);
        } else {
          const terms = TAGS.filter(() => r.next() < 0.5);
          t.termSets.push(terms);
          const res = await api(server, token, 'POST', `/content/posts/${t.id}/terms/tags`, { terms });
          if (res.status === 200) {
            t.ackedTerms = t.termSets.length - 1;
            log.acks++;
          } else log.failures.push(`terms ${t.slug}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
    } catch {
      // The connection was cut or refused: the server is gone. What was in flight stays unacknowledged.
      return;
    }
  }
}

describeEachDialect('crash during a burst of content writes', (dialect) => {
  // One site per database for all seeds: each seed kills the server the previous one restarted,
  // so a run pays one start per seed and the later seeds write on data that already survived a crash.
  let site: Site;
  let people: string[];
  let server: Server;
  /** Slugs of every create sent by any seed so far. */
  const attempted = new Set<string>();
  beforeAll(async () => {
    site = await freshSite(dialect);
    people = await setUp(site);
    server = await startServer(site);
  }, 120_000);
  afterAll(async () => {
    if (server) await stopServer(server);
    await site?.drop();
  });

  it.each(crashSeeds())(
    'seed %i: kill -9 mid-burst, restart: acknowledged writes kept, nothing doubled or invented, state consistent',
    async (seed) => {
      const log: Log = { seed, attempted, tracked: new Map(), acks: 0, failures: [] };
      const killAfterMs = rng(seed).int(200, 2500);
      const clients = Array.from({ length: CLIENTS }, (_, k) => client(server, site.adminToken, k, seed, people, log));
      await new Promise((done) => setTimeout(done, killAfterMs));
      await kill9(server);
      await Promise.all(clients);
      const context = `seed ${seed} (${dialect}), killed ${killAfterMs} ms into the burst after ${log.acks} acknowledged writes`;
      console.info(`[crash] content burst: ${context}; ${log.tracked.size} creates acknowledged`);
      // No refusal is expected: each client is the one writer of its entries and sends their latest `_rev`.
      expect(log.failures, context).toEqual([]);

      server = await startServer(site);
      const token = site.adminToken;

      for (const t of log.tracked.values()) {
        const got = await api(server, token, 'GET', `/content/posts/${t.id}`);
        expect(got.status, `${context}: acknowledged ${t.slug} is gone`).toBe(200);
        const item = got.body.data.item;
        const version = versionOfRev(got.body.data._rev);
        const acked = t.ackedVersions;
        expect(
          acked.every((v, i) => i === 0 || v > acked[i - 1]),
          `${context}: versions of ${t.slug} not increasing: ${acked}`,
        ).toBe(true);
        expect(version, `${context}: ${t.slug} lost an acknowledged write`).toBeGreaterThanOrEqual(acked.at(-1)!);
        // At most the writes sent after the last acknowledged one can have landed unacknowledged.
        expect(version - acked.at(-1)!, `${context}: ${t.slug} has writes nobody sent`).toBeLessThanOrEqual(1);
        if (t.publishedAcked) expect(item.status, `${context}: ${t.slug} publish lost`).toBe('published');
        expect(item.references.author.items, `${context}: ${t.slug} reference`).toHaveLength(1);
        expect(people).toContain(item.references.author.items[0].id);
        if (t.termSets.length) {
          const terms = await api(server, token, 'GET', `/content/posts/${t.id}/terms/tags`);
          expect(terms.status).toBe(200);
          const now = (terms.body.data.items as Array<{ slug: string }>).map((x) => x.slug).sort();
          // The last acknowledged set, or one sent after it whose answer the kill cut off.
          const possible = t.termSets.slice(Math.max(0, t.ackedTerms)).map((s) => [...s].sort());
          if (t.ackedTerms < 0) possible.push([]);
          expect(possible, `${context}: terms of ${t.slug}`).toContainEqual(now);
        }
      }

      const cms = await site.open();
      const rows = await cms.ctx.db
        .selectFrom('ec_posts' as never)
        .select(['id', 'slug', 'version', 'live_revision_id', 'draft_revision_id'] as never[])
        .execute();
      const slugs = (rows as Array<{ slug: string }>).map((r) => r.slug);
      expect(new Set(slugs).size, `${context}: doubled entries`).toBe(slugs.length);
      for (const slug of slugs) expect(attempted.has(slug), `${context}: ${slug} was never sent`).toBe(true);
      for (const row of rows as Array<Record<string, string | null>>) {
        for (const pointer of [row.live_revision_id, row.draft_revision_id]) {
          if (!pointer) continue;
          const rev = await cms.ctx.db
            .selectFrom('_cms_revisions')
            .select('entry_id')
            .where('id', '=', pointer)
            .executeTakeFirst();
          expect(rev?.entry_id, `${context}: ${row.slug} points at revision ${pointer}`).toBe(row.id);
        }
      }

      const report = await checkReport(site);
      expect(report.status, `${context}:\n${findings(report)}`).toBe('ok');

      // The restarted server takes writes again on what the crash interrupted.
      const any = [...log.tracked.values()][0];
      if (any) {
        const current = await api(server, token, 'GET', `/content/posts/${any.id}`);
        const after = await api(server, token, 'PUT', `/content/posts/${any.id}`, {
          data: { title: 'After the crash' },
          _rev: current.body.data._rev,
        });
        expect(after.status, `${context}: ${JSON.stringify(after.body)}`).toBe(200);
      }
    },
    120_000,
  );
});
