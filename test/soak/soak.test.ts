/**
 * Soak: concurrent clients run a mixed workload against the real server process for SOAK_SECONDS
 * (60 by default, as CI runs it; `SOAK_SECONDS=600 npx vitest run test/soak` is the documented long
 * run): reads, lists, searches, updates with `_rev`, publishes, creates, uploads and comments.
 * Afterwards: no answer was a 5xx or went missing; every refused write was a 409 with a stated code;
 * every acknowledged create is there and every entry holds exactly the last acknowledged version;
 * the consistency checker finds nothing. Requests, conflicts, p50/p99 and the server's RSS (and its
 * slope after warm-up) are printed; with 5 minutes or more the slope must be under 20 MB a minute.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { resolveConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/log.js';
import { createCms } from '../../src/index.js';
import { describeEachDialect, freshDatabase } from '../helpers/db.js';
import { imageValue } from '../helpers/media-usage.js';
import { pgUrlWithSchema } from '../helpers/process.js';
import { rng, versionOfRev } from '../helpers/seeded.js';
import { startServer } from '../helpers/server-process.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CLIENTS = 8;
const SEED_ENTRIES = 20;
const COLLECTION = 'soak';

type Op = 'get' | 'list' | 'search' | 'update' | 'publish' | 'create' | 'upload' | 'comment';
const WEIGHTS: Array<[Op, number]> = [
  ['get', 22],
  ['list', 14],
  ['search', 10],
  ['update', 22],
  ['publish', 8],
  ['create', 10],
  ['upload', 5],
  ['comment', 9],
];
/** Refusals a client of this workload may meet, by operation: anything else fails the run. */
const EXPECTED_REFUSALS: Partial<Record<Op, Record<number, string[]>>> = {
  update: { 409: ['REV_CONFLICT'] },
  publish: { 409: ['REV_CONFLICT', 'INVALID_STATE'] },
  comment: { 429: ['RATE_LIMITED'] },
};

interface Known {
  rev: string;
  version: number;
}

function pick(rnd: () => number): Op {
  const total = WEIGHTS.reduce((n, [, w]) => n + w, 0);
  let r = rnd() * total;
  for (const [op, w] of WEIGHTS) {
    r -= w;
    if (r < 0) return op;
  }
  return 'get';
}

/** Resident memory of the server: the process tree under the child (the tsx wrapper and the server). */
function treeRssMb(pid: number): number {
  let kb = 0;
  const visit = (p: number) => {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0);
      for (const c of readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) {
        visit(Number(c));
      }
    } catch {
      // The process ended between listing and reading.
    }
  };
  visit(pid);
  return kb / 1024;
}

/** Least-squares slope of (seconds, MB) samples, in MB per minute. */
function slopePerMinute(samples: Array<[number, number]>): number {
  const n = samples.length;
  if (n < 2) return 0;
  const mx = samples.reduce((s, [x]) => s + x, 0) / n;
  const my = samples.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of samples) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den ? (num / den) * 60 : 0;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

describeEachDialect('soak', (dialect) => {
  it(
    `${SECONDS} s of mixed load loses nothing, answers no 5xx, keeps memory flat and leaves the site consistent`,
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'cms-soak-'));
      const tdb = dialect === 'postgres' ? await freshDatabase('postgres') : null;
      const databaseUrl = tdb ? pgUrlWithSchema(tdb.url, tdb.schema!) : `sqlite:${join(dataDir, 'cms.db')}`;
      const seed = Number(process.env.SOAK_SEED ?? Date.now() % 100_000);
      const rnd = rng(seed).next;
      const known = new Map<string, Known>();
      const created = new Set<string>();
      const media: Array<Record<string, unknown>> = [];
      let token = '';

      // Set-up in this process on the same database: an Admin, the collection, published entries.
      {
        const cms = await createCms({
          config: resolveConfig({ dataDir, databaseUrl, logLevel: 'silent' }),
          logger: createLogger('silent'),
          scheduler: false,
        });
        try {
          const { user } = await cms.services.users.create(null, { email: 'admin@example.test', name: 'Admin' });
          ({ token } = await cms.services.tokens.create(null, { userId: user.id, name: 'soak' }));
          const actor = (await cms.services.tokens.authenticate(token))!;
          await cms.services.schema.collections.create(actor, {
            slug: COLLECTION,
            label: 'Soak',
            supports: ['drafts', 'revisions', 'search', 'comments'],
            fields: [
              { slug: 'title', label: 'Title', type: 'string', required: true, searchable: true },
              { slug: 'body', label: 'Body', type: 'text', searchable: true },
              { slug: 'cover', label: 'Cover', type: 'image' },
            ],
          } as never);
          for (let i = 0; i < SEED_ENTRIES; i++) {
            const { item } = await cms.services.content.create(actor, COLLECTION, {
              data: { title: `Seed ${i}`, body: 'heron egret bittern' },
            } as never);
            const published = await cms.services.content.publish(actor, COLLECTION, item.id, {});
            created.add(item.id);
            known.set(item.id, { rev: published._rev, version: versionOfRev(published._rev) });
          }
        } finally {
          await cms.close();
        }
      }

      const server = await startServer({ CMS_DATA_DIR: dataDir, CMS_DATABASE_URL: databaseUrl, CMS_LOG_LEVEL: 'warn' });
      const api = `${server.url}/_cms/api`;
      const auth = { authorization: `Bearer ${token}` };
      const json = { ...auth, 'content-type': 'application/json' };
      const failures: string[] = [];
      const latencies: number[] = [];
      const counts: Record<string, number> = {};
      let conflicts = 0;
      const rss: Array<[number, number]> = [];
      const started = performance.now();
      const pid = server.child.pid!;
      const sampler = setInterval(() => rss.push([(performance.now() - started) / 1000, treeRssMb(pid)]), 1000);

      const seeded = [...known.keys()];
      const ids = () => [...known.keys()];
      const anyId = () => {
        const all = ids();
        return all[Math.floor(rnd() * all.length)] as string;
      };
      /** Keep the newest revision a client has seen for an entry (answers can arrive out of order). */
      const learn = (id: string, body: any) => {
        const rev = body?.data?._rev;
        if (typeof rev !== 'string') return;
        const version = versionOfRev(rev);
        const k = known.get(id);
        if (!k || version > k.version) known.set(id, { rev, version });
      };

      async function request(
        op: Op,
        method: string,
        path: string,
        init: RequestInit = {},
      ): Promise<{ status: number; body: any }> {
        const t0 = performance.now();
        let res: Response;
        try {
          res = await fetch(`${api}${path}`, { method, ...init, signal: AbortSignal.timeout(30_000) });
        } catch (err) {
          failures.push(`${op} ${method} ${path}: no answer (${(err as Error).message})`);
          return { status: 0, body: null };
        }
        const text = await res.text();
        latencies.push(performance.now() - t0);
        counts[op] = (counts[op] ?? 0) + 1;
        let body: any = null;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          failures.push(`${op} ${method} ${path}: ${res.status} with a body that is not JSON`);
        }
        if (res.status >= 500) failures.push(`${op} ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
        else if (res.status >= 400) {
          const allowed = EXPECTED_REFUSALS[op]?.[res.status] ?? [];
          if (!allowed.includes(body?.error?.code))
            failures.push(`${op} ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
          if (res.status === 409) conflicts++;
        }
        return { status: res.status, body };
      }

      async function one(op: Op, client: number, n: number): Promise<void> {
        switch (op) {
          case 'get': {
            const id = anyId();
            const r = await request(op, 'GET', `/content/${COLLECTION}/${id}`, { headers: auth });
            if (r.status === 200) learn(id, r.body);
            return;
          }
          case 'list':
            await request(op, 'GET', `/content/${COLLECTION}?limit=50`, { headers: auth });
            return;
          case 'search':
            await request(op, 'GET', `/search?q=${rnd() < 0.5 ? 'heron' : `c${client}`}&limit=20`, { headers: auth });
            return;
          case 'update':
          case 'publish': {
            const id = anyId();
            const k = known.get(id)!;
            const cover = media.length && rnd() < 0.3 ? media[Math.floor(rnd() * media.length)] : undefined;
            const body =
              op === 'update'
                ? {
                    _rev: k.rev,
                    data: { title: `c${client} n${n}`, body: `heron c${client}`, ...(cover ? { cover } : {}) },
                  }
                : { _rev: k.rev };
            const path = op === 'update' ? `/content/${COLLECTION}/${id}` : `/content/${COLLECTION}/${id}/publish`;
            const r = await request(op, op === 'update' ? 'PUT' : 'POST', path, {
              headers: json,
              body: JSON.stringify(body),
            });
            if (r.status === 200) learn(id, r.body);
            else if (r.status === 409) {
              // A stale _rev: read again, as an editor's client would, before the next write.
              const fresh = await request('get', 'GET', `/content/${COLLECTION}/${id}`, { headers: auth });
              if (fresh.status === 200) learn(id, fresh.body);
            }
            return;
          }
          case 'create': {
            const r = await request(op, 'POST', `/content/${COLLECTION}`, {
              headers: json,
              body: JSON.stringify({ data: { title: `c${client} new ${n}`, body: 'bittern' } }),
            });
            if (r.status === 201) {
              created.add(r.body.data.item.id);
              learn(r.body.data.item.id, r.body);
            }
            return;
          }
          case 'upload': {
            const png = await sharp({
              create: {
                width: 8,
                height: 8,
                channels: 3,
                background: { r: client * 30, g: n % 256, b: (n * 7) % 256 },
              },
            })
              .png()
              .toBuffer();
            const form = new FormData();
            form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), `c${client}-${n}.png`);
            const r = await request(op, 'POST', '/media', { headers: auth, body: form });
            const item = r.body?.data?.item;
            if (item && r.status < 300) {
              media.push(imageValue(item));
            }
            return;
          }
          case 'comment': {
            // Comments go to published entries: the seeded ones stay published (updates stage drafts).
            const id = seeded[Math.floor(rnd() * seeded.length)] as string;
            await request(op, 'POST', `/comments/${COLLECTION}/${id}`, {
              headers: json,
              body: JSON.stringify({ body: `Comment ${client}/${n}` }),
            });
            return;
          }
        }
      }

      const deadline = started + SECONDS * 1000;
      try {
        await Promise.all(
          Array.from({ length: CLIENTS }, async (_, client) => {
            for (let n = 0; performance.now() < deadline && failures.length < 20; n++) await one(pick(rnd), client, n);
          }),
        );
        clearInterval(sampler);

        // Everything acknowledged is there, each entry at exactly its last acknowledged version.
        const seen = new Map<string, number>();
        let cursor: string | null = null;
        do {
          const res = await fetch(`${api}/content/${COLLECTION}?limit=100${cursor ? `&cursor=${cursor}` : ''}`, {
            headers: auth,
          });
          const page = (await res.json()) as any;
          for (const item of page.data.items) seen.set(item.id, 0);
          cursor = page.data.nextCursor ?? null;
        } while (cursor);
        for (const id of seen.keys()) {
          const one = (await (await fetch(`${api}/content/${COLLECTION}/${id}`, { headers: auth })).json()) as any;
          seen.set(id, versionOfRev(one.data._rev));
        }
        const lost = [...created].filter((id) => !seen.has(id));
        const unknown = [...seen.keys()].filter((id) => !created.has(id));
        const behind = [...known]
          .filter(([id, k]) => seen.get(id) !== k.version)
          .map(([id, k]) => `${id}: ${seen.get(id)} ≠ ${k.version}`);

        const check = (await (await fetch(`${api}/admin/check`, { headers: auth })).json()) as any;
        const total = latencies.length;
        const sorted = [...latencies].sort((a, b) => a - b);
        const warm = rss.filter(([t]) => t >= SECONDS * 0.2);
        const slope = slopePerMinute(warm);
        console.log(
          `soak [${dialect}] seed ${seed}: ${total} requests in ${SECONDS} s (${Math.round(total / SECONDS)}/s) ${JSON.stringify(counts)}; ` +
            `${conflicts} conflicts (409); p50 ${percentile(sorted, 0.5).toFixed(1)} ms, p99 ${percentile(sorted, 0.99).toFixed(1)} ms; ` +
            `RSS ${warm[0]?.[1].toFixed(0)} → ${rss.at(-1)?.[1].toFixed(0)} MB, slope ${slope.toFixed(1)} MB/min; ` +
            `${created.size} entries, ${media.length} uploads; check ${check.data?.status}`,
        );
        expect(failures, `seed ${seed}`).toEqual([]);
        expect(lost, 'acknowledged creates missing').toEqual([]);
        expect(unknown, 'entries nobody created').toEqual([]);
        expect(behind, 'entries not at their last acknowledged version').toEqual([]);
        expect(
          check.data?.status,
          JSON.stringify(check.data?.checks?.filter((c: any) => c.status === 'problems')),
        ).toBe('ok');
        if (SECONDS >= 300) expect(slope).toBeLessThan(20);
      } finally {
        clearInterval(sampler);
        server.child.kill('SIGTERM');
        await server.exited;
        rmSync(dataDir, { recursive: true, force: true });
        await tdb?.drop();
      }
    },
    (SECONDS + 180) * 1000,
  );
});
