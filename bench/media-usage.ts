/**
 * What media usage tracking costs (npm run bench:media-usage): the time
 * `includeUsage=1` adds to a media list page of 50, and the time index
 * maintenance adds to a content write (a create with image, repeater and
 * rich-text references), measured in one process against the same site with
 * tracking on and off. SQLite on a file; CMS_BENCH_PG_URL adds PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { systemActor } from '../src/auth/actor.js';
import { resolveConfig } from '../src/core/config.js';
import { createLogger } from '../src/core/log.js';
import { connect } from '../src/db/connect.js';
import { type Cms, createCms } from '../src/index.js';

const ITEMS = 200;
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);

async function req(cms: Cms, token: string, method: string, path: string, body?: unknown) {
  const res = await cms.app.request(`/_cms/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as any;
}

async function timeIt(n: number, run: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await run(i);
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await run(i);
  return Number(process.hrtime.bigint() - started) / 1e6 / n;
}

async function site(url: string, dir: string) {
  let database: ReturnType<typeof connect>;
  if (url.startsWith('postgres')) {
    const schema = `bench_usage_${Date.now()}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    database = connect(url, { schema });
  } else database = connect(url);
  const cms = await createCms({
    config: resolveConfig({ dataDir: dir, logLevel: 'silent' }),
    database,
    scheduler: false,
    logger: createLogger('silent'),
  });
  const { user } = await cms.services.users.create(null, { email: 'admin@example.test', name: 'Admin' });
  const { token } = await cms.services.tokens.create(null, { userId: user.id, name: 'bench' });
  await req(cms, token, 'POST', '/schema/collections', {
    slug: 'posts',
    label: 'Posts',
    fields: [
      { slug: 'title', label: 'Title', type: 'string', required: true },
      { slug: 'cover', label: 'Cover', type: 'image' },
      {
        slug: 'gallery',
        label: 'Gallery',
        type: 'repeater',
        validation: { subFields: [{ slug: 'photo', label: 'Photo', type: 'image' }] },
      },
      { slug: 'story', label: 'Story', type: 'portableText' },
    ],
  });
  const items: any[] = [];
  for (let i = 0; i < ITEMS; i++) {
    const png = await sharp({
      create: { width: 8, height: 8, channels: 3, background: { r: i % 256, g: i >> 8, b: 7 } },
    })
      .png()
      .toBuffer();
    // Through the service (the MCP upload path): the bench measures reads and writes, not uploads.
    const res = await cms.services.media.uploadBase64(systemActor, {
      data: png.toString('base64'),
      filename: `i${i}.png`,
    });
    items.push(res.item);
  }
  const image = (it: any) => ({ id: it.id, provider: 'local', src: it.url, mimeType: it.mimeType });
  const entry = (i: number) => ({
    data: {
      title: `Entry ${i}`,
      cover: image(items[i % ITEMS]),
      gallery: [{ photo: image(items[(i + 1) % ITEMS]) }, { photo: image(items[(i + 2) % ITEMS]) }],
      story: [{ _type: 'image', _key: 'k', asset: { _ref: items[(i + 3) % ITEMS].id } }],
    },
  });
  return { cms, token, entry, close: () => cms.close() };
}

async function measure(label: string, url: string) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-usage-'));
  const s = await site(url, dir);
  for (let i = 0; i < ENTRIES; i++) await req(s.cms, s.token, 'POST', '/content/posts', s.entry(i));
  console.error(`${label}: seeded`);
  const plain = await timeIt(ROUNDS, () => req(s.cms, s.token, 'GET', '/media?limit=50'));
  const withUsage = await timeIt(ROUNDS, () => req(s.cms, s.token, 'GET', '/media?limit=50&includeUsage=1'));
  let n = ENTRIES;
  const create = () => req(s.cms, s.token, 'POST', '/content/posts', s.entry(n++));
  const writes = async (state: string) => {
    await s.cms.ctx.db.updateTable('_cms_media_usage_state').set({ state }).execute();
    s.cms.services.mediaUsage.forgetState();
    return timeIt(ROUNDS, create);
  };
  // Tracking off (as on a site before activation; a write then reads the state row), then on, then
  // off and on again: the mean of each pair evens out drift of a busy machine.
  const offA = await writes('expanded');
  const onA = await writes('active');
  const offB = await writes('expanded');
  const onB = await writes('active');
  const untracked = (offA + offB) / 2;
  const tracked = (onA + onB) / 2;
  await s.close();
  rmSync(dir, { recursive: true, force: true });
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  console.log(`\n${label} (${ENTRIES} entries, ${ITEMS} items, mean of ${ROUNDS})`);
  console.log(`  GET /media?limit=50              ${ms(plain)}`);
  console.log(
    `  GET /media?limit=50&includeUsage=1 ${ms(withUsage)}  (+${ms(withUsage - plain)}, ×${(withUsage / plain).toFixed(2)})`,
  );
  console.log(`  create, tracking off             ${ms(untracked)}`);
  console.log(
    `  create, tracking on              ${ms(tracked)}  (+${ms(tracked - untracked)}, ×${(tracked / untracked).toFixed(2)})`,
  );
}

// A server always has its socket open; here nothing else keeps the event loop alive between awaits.
const keepAlive = setInterval(() => {}, 1000);
const dir = mkdtempSync(join(tmpdir(), 'bench-usage-db-'));
await measure('SQLite', `sqlite:${join(dir, 'bench.db')}`);
rmSync(dir, { recursive: true, force: true });
if (process.env.CMS_BENCH_PG_URL) await measure('PostgreSQL', process.env.CMS_BENCH_PG_URL);
clearInterval(keepAlive);
