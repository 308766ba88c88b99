/**
 * Crash recovery of a WordPress import with media copy: the real server imports the theme unit
 * test data (58 posts, 21 pages, 37 attachments, menus, comments, nested categories and tags) over
 * REST as the admin import page does — analyze, prepare, execute with `?stream=1`, copy media,
 * rewrite URLs — with the export's upload host pointing at a local stand-in (`serveUploads`, reached
 * with `CMS_IMPORT_ALLOW_PRIVATE_HOSTS=1` as the media copy tests do). Each seed kills the server
 * with SIGKILL twice: once during execute (odd seeds while the terms are being created, once the
 * seed's share of them exists; even seeds once the posts are written and the pages not yet) and
 * once during the media copy (after the number of files the seed picks). After each restart the
 * operator does what docs/import.md says: analysis and the import again with `skipExisting`; the
 * media copy again (copied files are reused), then the rewrite with the URL map, the featured
 * images of the re-run's result and the copy's media IDs.
 *
 * The site must then equal a site that imported the same export without a crash (made in the test
 * process): the same entries by collection and slug (as many as the export has of each post type),
 * values, revisions, comments, terms, assignments, term counts, bylines and menus; every copied
 * file once in the library with the stand-in's bytes and hash; content URLs pointing at the copies,
 * featured images set; the consistency checker ok; and nothing left held (writes go through; the
 * downloads the kill cut are the only staged files left, and the media sweep removes them once an
 * hour old — the hour is passed at once by dating the files back).
 */
import { createHash } from 'node:crypto';
import { readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cms } from '../../src/index.js';
import { STAGED_GRACE_MS } from '../../src/services/media/sweeper.js';
import { describeEachDialect } from '../helpers/db.js';
import { mediaCms } from '../helpers/media.js';
import { fileCounts, serveUploads } from '../helpers/wxr.js';
import {
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

const EXPORT = 'themeunittestdata.wordpress.xml';

/** A REST request to `/_cms/api<path>`: to the server over HTTP, or to an in-process service. */
type Send = (path: string, init: RequestInit) => Promise<Response>;

const toServer =
  (server: Server): Send =>
  (path, init) =>
    fetch(`${server.url}/_cms/api${path}`, init);

const inProcess =
  (cms: Cms): Send =>
  (path, init) =>
    Promise.resolve(cms.app.request(`/_cms/api${path}`, init));

const sha256 = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const sha1 = (b: Buffer) => `sha1:${createHash('sha1').update(b).digest('hex')}`;

async function json(send: Send, token: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await send(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

function form(file: Buffer, fields: Record<string, string> = {}): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append('file', new Blob([file]), 'export.xml');
  return f;
}

/** The records of a newline-delimited JSON answer, as they arrive. */
async function* records(res: Response): AsyncGenerator<any> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      if (line.trim()) yield JSON.parse(line);
    }
  }
}

/** Analyze (writes nothing) and prepare every suggested post type, as the admin page's first steps. */
async function analyzeAndPrepare(send: Send, token: string, file: Buffer) {
  const analyzed = await send('/import/blogplatform/analyze', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form(file),
  });
  const analysis = ((await analyzed.json()) as any).data;
  expect(analyzed.status, JSON.stringify(analysis).slice(0, 500)).toBe(200);
  const prepared = await json(send, token, '/import/blogplatform/prepare', {
    postTypes: analysis.postTypes.map((pt: any) => ({ name: pt.name, collection: pt.collection, fields: pt.fields })),
  });
  expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
  return analysis;
}

/** A streamed request's records so far; `result` once the last one came. */
interface Streamed {
  records: any[];
  result: any | null;
  /** Set when the connection was cut before the result (the kill). */
  cut: string | null;
  done: Promise<void>;
}

function stream(res: Promise<Response>): Streamed {
  const out: Streamed = { records: [], result: null, cut: null, done: Promise.resolve() };
  out.done = (async () => {
    try {
      const answer = await res;
      if (answer.status !== 200) throw new Error(`${answer.status} ${await answer.text()}`);
      for await (const rec of records(answer)) {
        out.records.push(rec);
        if (rec.type === 'result') out.result = rec;
        if (rec.type === 'error') throw new Error(`error record: ${JSON.stringify(rec)}`);
      }
    } catch (err) {
      out.cut = (err as Error).message;
    }
  })();
  return out;
}

/** Execute with `?stream=1`, as the admin page's Import step. */
function execute(send: Send, token: string, file: Buffer, config: Record<string, unknown>): Streamed {
  return stream(
    send('/import/blogplatform/execute?stream=1', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form(file, { config: JSON.stringify(config) }),
    }),
  );
}

/** Copy the attachments the execute result listed (streamed, the default), as the admin page's Media step. */
function copyMedia(send: Send, token: string, attachments: any[]): Streamed {
  return stream(
    send('/import/blogplatform/media', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ attachments: attachments.map((a) => ({ ...a, sourceId: String(a.sourceId) })) }),
    }),
  );
}

async function finished(s: Streamed, what: string) {
  await s.done;
  expect(s.cut, `${what}: ${s.cut}`).toBeNull();
  expect(s.result, `${what}: no result record`).not.toBeNull();
  return s.result;
}

/** The URL rewrite with the copy's map and media IDs and the execute result's featured images. */
async function rewrite(send: Send, token: string, executed: any, copied: any) {
  const res = await json(send, token, '/import/blogplatform/rewrite-urls', {
    urlMap: copied.urlMap,
    featuredImages: executed.media.featuredImages,
    mediaIds: copied.mediaIds,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** Entry row columns that say when a run wrote, not what it wrote. */
const RUN_COLUMNS = new Set(['id', 'translation_group', 'live_revision_id', 'draft_revision_id', 'updated_at']);

/**
 * What the import made, read from the database without IDs: entries by collection and slug (values,
 * revisions, comments, byline, terms), terms, term counts, menus, bylines and media by content hash.
 * Media IDs in values become `media:<sha256>`, and the site's own address `SITE`, so two sites compare.
 */
async function siteState(cms: Cms) {
  const db = cms.ctx.db;
  const rows = async (q: ReturnType<typeof sql<Record<string, any>>>) => (await q.execute(db)).rows;
  const media = await rows(sql`select * from _cms_media order by content_hash`);
  const bylines = await rows(sql`select id, display_name, slug from _cms_bylines order by slug`);
  const users = await rows(sql`select id, email from _cms_users`);
  // IDs a value may hold, by what they name: media by content hash, bylines by slug, users by email.
  const named = new Map<string, string>([
    ...media.map((m): [string, string] => [m.id, `media:${m.content_hash}`]),
    ...media.map((m): [string, string] => [m.storage_key, `stored:${m.content_hash}`]),
    ...bylines.map((b): [string, string] => [b.id, `byline:${b.slug}`]),
    ...users.map((u): [string, string] => [u.id, `user:${u.email}`]),
  ]);
  const idPattern = new RegExp([...named.keys()].map((k) => k.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'g');
  const norm = (v: unknown): unknown => {
    // PostgreSQL answers JSON columns parsed: normalised through their text.
    if (v !== null && typeof v === 'object') return JSON.parse(norm(JSON.stringify(v)) as string);
    if (typeof v !== 'string') return v;
    return v.replace(/https?:\/\/localhost:\d+/g, 'SITE').replace(idPattern, (id) => named.get(id) as string);
  };
  const collections = await rows(sql`select id, slug from _cms_collections order by slug`);
  const bylineName = new Map(bylines.map((b) => [b.id as string, b.slug as string]));
  const terms = await rows(sql`select * from _cms_terms order by taxonomy, slug`);
  const termByGroup = new Map(terms.map((t) => [t.translation_group as string, `${t.taxonomy}/${t.slug}`]));
  const entryByGroup = new Map<string, string>();
  const entries: Record<string, Record<string, unknown>> = {};
  const perCollection: Record<string, number> = {};
  for (const c of collections) {
    const list = await rows(sql`select * from ${sql.table(`ec_${c.slug}`)} order by slug, locale`);
    perCollection[c.slug] = list.length;
    // Each table read once per collection, grouped by entry.
    const by = <T extends Record<string, any>>(list: T[], key: string) => {
      const out = new Map<string, T[]>();
      for (const x of list) out.set(x[key], [...(out.get(x[key]) ?? []), x]);
      return out;
    };
    const revisionsOf = by(
      await rows(
        sql`select id, entry_id, kind, slug, data, bylines from _cms_revisions where collection_id = ${c.id} order by id`,
      ),
      'entry_id',
    );
    const commentsOf = by(
      await rows(
        sql`select entry_id, status, author_name, author_email, author_url, body, created_at, parent_id is null as top from _cms_comments where collection = ${c.slug} order by created_at, body`,
      ),
      'entry_id',
    );
    const creditsOf = by(
      await rows(sql`select entry_id, byline_id, position from _cms_entry_bylines order by position`),
      'entry_id',
    );
    const termsOf = by(
      await rows(sql`select entry_group, term_group from _cms_content_terms where collection_id = ${c.id}`),
      'entry_group',
    );
    for (const e of list) {
      const key = `${c.slug}/${e.slug}/${e.locale}`;
      entryByGroup.set(e.translation_group, key);
      const revisions = revisionsOf.get(e.id) ?? [];
      const comments = (commentsOf.get(e.id) ?? []).map(({ entry_id: _e, ...x }) => x);
      const credits = creditsOf.get(e.id) ?? [];
      const assigned = termsOf.get(e.translation_group) ?? [];
      const values: Record<string, unknown> = {};
      for (const [col, v] of Object.entries(e)) {
        if (RUN_COLUMNS.has(col)) continue;
        if (col === 'primary_byline_id') values[col] = v ? bylineName.get(v as string) : v;
        else values[col] = norm(v);
      }
      entries[key] = {
        values,
        live: revisions.findIndex((x) => x.id === e.live_revision_id),
        draft: revisions.findIndex((x) => x.id === e.draft_revision_id),
        revisions: revisions.map(({ id: _id, entry_id: _entry, ...x }) => ({
          ...x,
          data: norm(x.data),
          bylines: norm(x.bylines),
        })),
        comments: comments.map((x) => ({ ...x, top: Boolean(x.top) })),
        bylines: credits.map((b) => bylineName.get(b.byline_id)),
        terms: assigned.map((a) => termByGroup.get(a.term_group)).sort(),
      };
    }
  }
  const counts = (await rows(sql`select * from _cms_term_counts`))
    .filter((r) => Number(r.count) !== 0)
    .map((r) => ({
      term: termByGroup.get(r.term_group),
      collection: collections.find((c) => c.id === r.collection_id)?.slug,
      locale: r.locale,
      count: Number(r.count),
    }))
    .sort((a, b) => `${a.term}/${a.collection}`.localeCompare(`${b.term}/${b.collection}`));
  const menus = [];
  for (const m of await rows(sql`select * from _cms_menus order by name`)) {
    const items = await rows(sql`select * from _cms_menu_items where menu_id = ${m.id} order by position, label`);
    const itemKey = new Map(items.map((i) => [i.id as string, `${i.position}:${i.label}`]));
    menus.push({
      name: m.name,
      label: m.label,
      items: items
        .map((i) => ({
          at: `${i.position}:${i.label}`,
          parent: i.parent_id ? itemKey.get(i.parent_id) : null,
          kind: i.kind,
          url: norm(i.url),
          target: i.target_group
            ? i.kind === 'term'
              ? termByGroup.get(i.target_group)
              : entryByGroup.get(i.target_group)
            : null,
          newTab: Boolean(i.open_in_new_tab),
        }))
        .sort((a, b) => `${a.parent}/${a.at}`.localeCompare(`${b.parent}/${b.at}`)),
    });
  }
  return {
    perCollection,
    entries,
    terms: terms.map((t) => ({
      taxonomy: t.taxonomy,
      slug: t.slug,
      label: t.label,
      description: t.description,
      parent: t.parent_group ? termByGroup.get(t.parent_group) : null,
      position: t.position,
    })),
    counts,
    menus,
    bylines: bylines.map((b) => ({ name: b.display_name, slug: b.slug })),
    media: media.map((m) => ({
      status: m.status,
      filename: m.filename,
      mime: m.mime_type,
      size: Number(m.size),
      width: m.width,
      height: m.height,
      alt: m.alt,
      caption: m.caption,
      hash: m.content_hash,
      importKey: m.import_key,
    })),
  };
}

type State = Awaited<ReturnType<typeof siteState>>;

/** The term counts the content implies: published, not deleted entries per assigned term. */
function impliedCounts(state: State) {
  const out = new Map<string, number>();
  for (const [key, e] of Object.entries(state.entries)) {
    const values = e.values as Record<string, unknown>;
    if (values.status !== 'published' || values.deleted_at) continue;
    for (const t of e.terms as string[]) {
      const k = `${t}/${key.split('/')[0]}`;
      out.set(k, (out.get(k) ?? 0) + 1);
    }
  }
  return [...out].map(([k, n]) => ({ key: k, count: n })).sort((a, b) => a.key.localeCompare(b.key));
}

/** Every string in a value, with the object key it is held under. */
function* strings(v: unknown, key = ''): Generator<[string, string]> {
  if (typeof v === 'string') {
    if (v.startsWith('{') || v.startsWith('[')) {
      try {
        yield* strings(JSON.parse(v), key);
        return;
      } catch {
        // Not JSON: plain text.
      }
    }
    yield [key, v];
  } else if (Array.isArray(v)) for (const x of v) yield* strings(x, key);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) yield* strings(x, k);
}

function stagedFiles(dataDir: string): string[] {
  try {
    return readdirSync(join(dataDir, 'tmp', 'uploads'));
  } catch {
    return [];
  }
}

describeEachDialect('crash during a WordPress import with media copy', (dialect) => {
  let uploads: Awaited<ReturnType<typeof serveUploads>>;
  let file: Buffer;
  /** The stand-in's bytes per attachment URL it serves. */
  const served = new Map<string, Buffer>();
  let reference: { state: State; executed: any; copied: any; rewritten: any };

  beforeAll(async () => {
    const t0 = Date.now();
    uploads = await serveUploads();
    file = uploads.themeData();
    // The same import without a crash, in the test process: what the crashed site must end up as.
    const cms = await mediaCms(dialect, 'file', { config: { importAllowPrivateHosts: true } });
    const send = inProcess(cms);
    await analyzeAndPrepare(send, cms.adminToken, file);
    const executed = await finished(execute(send, cms.adminToken, file, {}), 'reference execute');
    const copied = await finished(copyMedia(send, cms.adminToken, executed.media.attachments), 'reference copy');
    const rewritten = await rewrite(send, cms.adminToken, executed, copied);
    reference = { state: await siteState(cms), executed, copied, rewritten };
    for (const url of Object.keys(copied.urlMap)) {
      const res = await fetch(url);
      served.set(url, Buffer.from(await res.arrayBuffer()));
    }
    console.info(
      `[crash] wordpress import set-up (${dialect}): reference import of ${executed.items} items, ${copied.imported} files copied, ${rewritten.updatedEntries} entries rewritten in ${Date.now() - t0} ms`,
    );
  }, 120_000);
  afterAll(async () => {
    await uploads?.close();
  });

  it('the reference import is the export: every entry, file and featured image', () => {
    const counts = fileCounts(EXPORT).byType;
    const { state, executed, copied, rewritten } = reference;
    expect(executed.success, JSON.stringify(executed.errors)).toBe(true);
    expect(state.perCollection).toEqual({ posts: counts.post.total, pages: counts.page.total });
    // Every attachment the stand-in serves (it answers image paths) is one library item.
    expect(copied.imported + copied.reused).toBe(Object.keys(copied.urlMap).length);
    expect(state.media).toHaveLength(new Set(Object.values(copied.mediaIds)).size);
    expect(rewritten.errors).toEqual([]);
    expect(rewritten.featuredImages.failed).toEqual([]);
    expect(rewritten.featuredImages.set).toBe(executed.media.featuredImages.length);
  });

  it.each(crashSeeds(2))(
    'seed %i: kill -9 during execute and during the media copy, re-run as docs/import.md says: the site equals an uncrashed import',
    async (seed) => {
      const r = rng(seed);
      const t0 = Date.now();
      const phases: string[] = [];
      let lap = t0;
      const phase = (name: string) => {
        phases.push(`${name} ${Date.now() - lap} ms`);
        lap = Date.now();
      };
      const site: Site = await freshSite(dialect, { CMS_IMPORT_ALLOW_PRIVATE_HOSTS: '1' });
      let server: Server | undefined;
      try {
        const token = site.adminToken;
        const cms = await site.open();
        const count = async (table: string) => {
          try {
            return Number(
              (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(cms.ctx.db)).rows[0].n,
            );
          } catch {
            return 0;
          }
        };
        const left = async () =>
          `${await count('_cms_terms')} terms, ${await count('ec_posts')} posts, ${await count('ec_pages')} pages, ${await count('_cms_comments')} comments, ${await count('_cms_menus')} menus`;

        server = await startServer(site);
        await analyzeAndPrepare(toServer(server), token, file);

        phase('start');
        // (a) The kill during execute, at a point the seed picks, watched from the test process (the
        // database's rows) so the watch does not wait on the busy server: while the terms are being
        // created (a share of them exists), or once the first collection's entries are written (one
        // transaction per collection and batch) while the next is not.
        const aim = seed % 2 === 0 ? 'entries' : 'terms';
        const share = r.int(5, 95) / 100;
        const termsTotal = reference.state.terms.length;
        const first = execute(toServer(server), token, file, {});
        let ended = false;
        void first.done.then(() => (ended = true));
        const reached = async () => {
          if (aim === 'terms') return (await count('_cms_terms')) >= Math.ceil(share * termsTotal);
          return (await count('ec_posts')) + (await count('ec_pages')) > 0;
        };
        while (!ended && !(await reached())) await new Promise((done) => setTimeout(done, 2));
        await kill9(server);
        await first.done;
        const aimed = aim === 'terms' ? `${Math.round(share * 100)}% of the ${termsTotal} terms` : aim;
        let context = `seed ${seed} (${dialect}): execute killed aiming at ${aimed}, leaving ${await left()}`;
        console.info(`[crash] wordpress import: ${context}`);
        // The kill must cut the import, or the scenario tested nothing.
        expect(first.result, `${context}: execute finished before the kill`).toBeNull();
        expect(first.cut, context).not.toBeNull();
        // Execute spools the upload into the media staging directory: the kill leaves that one file,
        // for the media sweep to remove (below).
        expect(stagedFiles(site.dataDir), `${context}: the killed execute's spool`).toHaveLength(1);

        phase('first execute and kill');
        // The operator: analysis and the import again, with skipExisting.
        server = await startServer(site);
        await analyzeAndPrepare(toServer(server), token, file);
        const executed = await finished(execute(toServer(server), token, file, { skipExisting: true }), context);
        expect(executed.success, `${context}: ${JSON.stringify(executed.errors)}`).toBe(true);
        expect(executed.items, context).toBe(reference.executed.items);
        expect(executed.imported + executed.skipped, context).toBe(
          reference.executed.imported + reference.executed.skipped,
        );
        expect(executed.media.attachments, context).toEqual(reference.executed.media.attachments);

        phase('restart and re-run');
        // (b) The kill during the media copy, after a number of files the seed picks.
        const attachments = executed.media.attachments;
        const killAfter = r.int(1, attachments.length - 4);
        const extraMs = r.int(0, 10);
        const firstCopy = copyMedia(toServer(server), token, attachments);
        let copyEnded = false;
        void firstCopy.done.then(() => (copyEnded = true));
        while (!copyEnded && firstCopy.records.length < killAfter) await new Promise((done) => setTimeout(done, 2));
        if (extraMs) await new Promise((done) => setTimeout(done, extraMs));
        await kill9(server);
        await firstCopy.done;
        const copiedBefore = firstCopy.records.filter((x) => x.status === 'imported').length;
        context += `; media copy killed after ${firstCopy.records.length} of ${attachments.length} files (+${extraMs} ms): ${await count('_cms_media')} library items, ${copiedBefore} answered as copied, ${stagedFiles(site.dataDir).length} staged files left`;
        console.info(`[crash] wordpress import: ${context}`);
        expect(firstCopy.result, `${context}: the copy finished before the kill`).toBeNull();
        // The downloads the kill cut are left in the staging directory; the media sweep (every five
        // minutes) removes staged files untouched for an hour. That hour passes for them at once.
        const leftovers = stagedFiles(site.dataDir).sort();
        const hourAgo = new Date(Date.now() - STAGED_GRACE_MS - 1000);
        for (const name of leftovers) utimesSync(join(site.dataDir, 'tmp', 'uploads', name), hourAgo, hourAgo);

        phase('copy and kill');
        // The operator: Copy again (copied files are reused), then the rewrite.
        server = await startServer(site);
        const copied = await finished(copyMedia(toServer(server), token, attachments), context);
        expect(copied.imported + copied.reused, context).toBe(reference.copied.imported + reference.copied.reused);
        expect(copied.failed.map((f: any) => f.url).sort(), context).toEqual(
          reference.copied.failed.map((f: any) => f.url).sort(),
        );
        expect(Object.keys(copied.urlMap).sort(), context).toEqual(Object.keys(reference.copied.urlMap).sort());
        const rewritten = await rewrite(toServer(server), token, executed, copied);
        expect(rewritten.errors, context).toEqual([]);
        expect(rewritten.featuredImages.failed, context).toEqual([]);

        phase('restart, copy, rewrite');
        // Nothing doubled or lost: the export's entries per post type, once each.
        const state = await siteState(cms);
        const counts = fileCounts(EXPORT).byType;
        expect(state.perCollection, context).toEqual({ posts: counts.post.total, pages: counts.page.total });
        expect(Object.keys(state.entries).sort(), context).toEqual(Object.keys(reference.state.entries).sort());
        for (const [key, entry] of Object.entries(reference.state.entries)) {
          expect(state.entries[key], `${context}: ${key}`).toEqual(entry);
        }
        expect(state.terms, context).toEqual(reference.state.terms);
        expect(state.bylines, context).toEqual(reference.state.bylines);
        expect(state.menus, context).toEqual(reference.state.menus);

        // Every copied file once, with the stand-in's bytes and their hashes.
        expect(state.media, context).toEqual(reference.state.media);
        expect(new Set(state.media.map((m) => m.hash)).size, context).toBe(state.media.length);
        for (const [url, mediaId] of Object.entries(copied.mediaIds as Record<string, string>)) {
          const bytes = served.get(url)!;
          const row = await cms.ctx.db
            .selectFrom('_cms_media')
            .selectAll()
            .where('id', '=', mediaId)
            .executeTakeFirst();
          expect(row?.content_hash, `${context}: ${url}`).toBe(sha256(bytes));
          expect(row?.import_key, `${context}: ${url}`).toBe(sha1(bytes));
          const res = await fetch(`${server.url}/_cms/api/media/file/${mediaId}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          expect(res.status, `${context}: ${url}`).toBe(200);
          expect(sha256(Buffer.from(await res.arrayBuffer())), `${context}: ${url}`).toBe(sha256(bytes));
        }

        // Content points at the copies: no copied URL is left in entries but as an image's `sourceUrl`.
        const copiedUrls = Object.keys(copied.urlMap);
        const stale: string[] = [];
        for (const [key, entry] of Object.entries(state.entries)) {
          for (const [holder, s] of strings([entry.values, entry.revisions])) {
            if (holder === 'sourceUrl') continue;
            for (const u of copiedUrls) if (s.includes(u)) stale.push(`${key} ${holder}: ${u}`);
          }
        }
        expect(stale, `${context}: copied URLs left in content`).toEqual([]);
        const featured = executed.media.featuredImages as Array<{ collection: string; entryId: string; url: string }>;
        expect(featured.length, context).toBe(reference.executed.media.featuredImages.length);
        for (const f of featured) {
          const got = await fetch(`${server.url}/_cms/api/content/${f.collection}/${f.entryId}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          const item = ((await got.json()) as any).data.item;
          expect(item.data.featured_image?.id, `${context}: featured image of ${item.slug}`).toBe(
            copied.mediaIds[f.url],
          );
        }

        // Term counts are what the content implies, and the same as the uncrashed import's.
        expect(state.counts, context).toEqual(reference.state.counts);
        expect(
          state.counts.map((c) => ({ key: `${c.term}/${c.collection}`, count: c.count })),
          context,
        ).toEqual(impliedCounts(state));

        phase('comparison');
        const report = await checkReport(site);
        expect(report.status, `${context}:\n${findings(report)}`).toBe('ok');

        phase('checker');
        // Nothing left held: no hold, no staged download, writes accepted.
        const hold = await cms.ctx.db
          .selectFrom('_cms_meta')
          .select('key')
          .where('key', '=', 'transfer_import')
          .execute();
        expect(hold, context).toEqual([]);
        expect(stagedFiles(site.dataDir).sort(), `${context}: staged files besides the killed downloads`).toEqual(
          leftovers,
        );
        const swept = await cms.services.media.sweeper.runOnce();
        expect(swept.staged, context).toBe(leftovers.length);
        expect(stagedFiles(site.dataDir), `${context}: staged downloads left`).toEqual([]);
        const write = await json(toServer(server), token, '/content/posts', { data: { title: `After seed ${seed}` } });
        expect(write.status, `${context}: ${JSON.stringify(write.body)}`).toBe(201);
        console.info(`[crash] wordpress import: ${context}: recovered in ${Date.now() - t0} ms (${phases.join(', ')})`);
      } finally {
        if (server) await stopServer(server);
        await site.drop();
      }
    },
    150_000,
  );
});
