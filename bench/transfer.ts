/**
 * `npm run bench:transfer`: a whole-site export and its import into an empty
 * site, on SQLite and on PostgreSQL, through the transfer service as the
 * REST routes call it.
 *
 * Per database: a fresh source site (temporary SQLite file in WAL mode, or a
 * fresh PostgreSQL schema) with `BENCH_TRANSFER_ENTRIES` published entries
 * of about 1 KB loaded straight into the entry table, one revision each, and
 * `BENCH_TRANSFER_MEDIA` small images uploaded through the media service;
 * then, each phase driven step by step the way a client drives it:
 *   - export: start + advance until complete (steps, slowest step), package
 *     size and files; the archive streamed to a file;
 *   - import into a second fresh site on the same database: every archive
 *     entry uploaded (checked against the manifest), analysis, execute +
 *     advance until complete (steps, slowest step);
 *   - this process's resident memory, sampled every 50 ms: its peak per phase.
 * Not part of `npm test`. See bench/README.md.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { extract } from 'tar-stream';
import { systemActor } from '../src/auth/actor.js';
import { newId } from '../src/core/ids.js';
import { createLogger } from '../src/core/log.js';
import { connect, type Database } from '../src/db/connect.js';
import { type Cms, createCms, resolveConfig } from '../src/index.js';
import { BENCH_PG_URL, pgAdmin } from './pg-admin.js';
import { corpus, paragraph } from './search-corpus.js';

const ENTRIES = Number(process.env.BENCH_TRANSFER_ENTRIES ?? 20_000);
const MEDIA = Number(process.env.BENCH_TRANSFER_MEDIA ?? 100);
const DBS = (process.env.BENCH_DB ?? 'sqlite,postgres').split(',').map((s) => s.trim()) as Array<'sqlite' | 'postgres'>;
const PG_URL = BENCH_PG_URL;
const RESULTS = fileURLToPath(new URL('./results/transfer-latest.json', import.meta.url));

const log = (msg: string) => process.stdout.write(`${msg}\n`);
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function open(db: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-bench-transfer-'));
  let database: Database | undefined;
  let schema: string | undefined;
  if (db === 'postgres') {
    schema = `bench_${newId().toLowerCase()}`;
    await pgAdmin(`create schema ${schema}`);
    database = connect(PG_URL, { schema });
  }
  const config = resolveConfig({
    dataDir,
    databaseUrl: db === 'postgres' ? PG_URL : `sqlite:${join(dataDir, 'cms.db')}`,
    logLevel: 'silent',
  });
  const cms = await createCms({ config, database, scheduler: false, logger: createLogger('silent') });
  return {
    cms,
    async close() {
      await cms.close();
      if (schema) await pgAdmin(`drop schema if exists ${schema} cascade`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Peak resident memory while `fn` runs, sampled every 50 ms. */
async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; rssPeakMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const t = performance.now();
  try {
    const value = await fn();
    return { value, ms: Math.round(performance.now() - t), rssPeakMb: mb(Math.max(peak, process.memoryUsage().rss)) };
  } finally {
    clearInterval(timer);
  }
}

/** Drive `step` until it says nothing is left; steps and the slowest one. */
async function drive(step: () => Promise<{ nextRequestInMs: number | null }>) {
  let steps = 0;
  let slowest = 0;
  for (;;) {
    const t = performance.now();
    const op = await step();
    slowest = Math.max(slowest, performance.now() - t);
    steps += 1;
    if (op.nextRequestInMs === null) return { steps, slowestStepMs: Math.round(slowest), op };
    if (op.nextRequestInMs > 0) await new Promise((r) => setTimeout(r, op.nextRequestInMs as number));
  }
}

async function buildSource(cms: Cms) {
  const actor = systemActor;
  await cms.services.schema.collections.create(actor, {
    slug: 'bench',
    label: 'Bench',
    supports: ['drafts', 'revisions'],
    fields: [
      { slug: 'title', label: 'Title', type: 'string', required: true },
      { slug: 'body', label: 'Body', type: 'text' },
      { slug: 'meta', label: 'Meta', type: 'json' },
    ],
  });
  const text = corpus(20_000);
  const start = Date.parse('2025-01-01T00:00:00.000Z');
  const db = cms.database.db as any;
  const collectionId = (await cms.services.schema.snapshot()).collections.get('bench')?.id;
  for (let i = 0; i < ENTRIES; i += 500) {
    const entries = [];
    const revisions = [];
    for (let k = i; k < Math.min(ENTRIES, i + 500); k++) {
      const at = new Date(start + k * 60_000).toISOString();
      const id = newId();
      const revision = newId();
      const title = text.sentence(3, 7).slice(0, -1);
      const body = paragraph(text, 1000);
      const meta = JSON.stringify({ n: k, tags: ['a', 'b'] });
      entries.push({
        id,
        slug: `entry-${k}`,
        status: 'published',
        locale: 'en',
        translation_group: newId(),
        created_at: at,
        updated_at: at,
        published_at: at,
        version: 1,
        live_revision_id: revision,
        title,
        body,
        meta: cms.database.dialect === 'postgres' ? JSON.parse(meta) : meta,
      });
      revisions.push({
        id: revision,
        collection_id: collectionId,
        entry_id: id,
        slug: `entry-${k}`,
        data: JSON.stringify({ title, body, meta: JSON.parse(meta) }),
        refs: null,
        bylines: null,
        kind: 'publish',
        created_by: null,
        created_at: at,
      });
    }
    await db.insertInto('ec_bench').values(entries).execute();
    await db.insertInto('_cms_revisions').values(revisions).execute();
  }
  for (let i = 0; i < MEDIA; i++) {
    const bytes = await sharp({
      create: { width: 64, height: 48, channels: 3, background: { r: i % 256, g: (i * 7) % 256, b: (i * 13) % 256 } },
    })
      .png()
      .toBuffer();
    await cms.services.media.uploadBase64(actor, { data: bytes.toString('base64'), filename: `image-${i}.png` });
  }
}

async function run(db: 'sqlite' | 'postgres') {
  log(`\n== ${db}: ${ENTRIES.toLocaleString('en')} entries, ${MEDIA} media`);
  const source = await open(db);
  const target = await open(db);
  const work = mkdtempSync(join(tmpdir(), 'cms-bench-transfer-pkg-'));
  try {
    const built = await measured(() => buildSource(source.cms));
    log(`source built in ${(built.ms / 1000).toFixed(1)} s`);
    const exports = source.cms.services.transfer.exports;
    const exported = await measured(async () => {
      const started = await exports.start(systemActor, { comments: true });
      return drive(() => exports.advance(systemActor, started.id));
    });
    const op = exported.value.op as Awaited<ReturnType<typeof exports.get>>;
    log(
      `export: ${(exported.ms / 1000).toFixed(1)} s, ${exported.value.steps} steps (slowest ${exported.value.slowestStepMs} ms), ${op.totals?.files.count} files, ${mb(op.totals?.files.bytes ?? 0)} MB, rss peak ${exported.rssPeakMb} MB`,
    );
    const archivePath = join(work, 'site.tar');
    const downloaded = await measured(async () => {
      const archive = await exports.archive(systemActor, op.id);
      await pipeline(archive.body, createWriteStream(archivePath));
      return statSync(archivePath).size;
    });
    log(`archive: ${mb(downloaded.value)} MB in ${(downloaded.ms / 1000).toFixed(1)} s`);

    const imports = target.cms.services.transfer.imports;
    const created = await imports.create(systemActor);
    const uploaded = await measured(async () => {
      const ex = extract();
      const done = new Promise<void>((resolve, reject) => {
        ex.on('entry', (header, stream, next) => {
          imports
            .upload(systemActor, created.id, header.name, Readable.from(stream), header.size ?? null)
            .then(() => next(), reject);
        });
        ex.on('finish', resolve);
        ex.on('error', reject);
      });
      await pipeline(createReadStream(archivePath), ex as unknown as NodeJS.WritableStream);
      await done;
    });
    log(`upload: ${(uploaded.ms / 1000).toFixed(1)} s, rss peak ${uploaded.rssPeakMb} MB`);
    const analyzed = await measured(() => drive(() => imports.analyze(systemActor, created.id)));
    const plan = await imports.plan(systemActor, created.id);
    if (!plan.executable) throw new Error(`plan blocked: ${JSON.stringify(plan.blockers)}`);
    log(
      `analysis: ${(analyzed.ms / 1000).toFixed(1)} s, ${analyzed.value.steps} steps, rss peak ${analyzed.rssPeakMb} MB`,
    );
    const executed = await measured(async () => {
      await imports.execute(systemActor, created.id, {
        packageDigest: plan.packageDigest,
        planDigest: plan.planDigest,
      });
      return drive(() => imports.advance(systemActor, created.id));
    });
    const receipt = await imports.receipt(systemActor, created.id);
    log(
      `import: ${(executed.ms / 1000).toFixed(1)} s, ${executed.value.steps} steps (slowest ${executed.value.slowestStepMs} ms), ${receipt.records.entries} entries, rss peak ${executed.rssPeakMb} MB`,
    );
    return {
      db,
      entries: ENTRIES,
      media: MEDIA,
      export: {
        ms: exported.ms,
        steps: exported.value.steps,
        slowestStepMs: exported.value.slowestStepMs,
        rssPeakMb: exported.rssPeakMb,
      },
      package: {
        files: op.totals?.files.count,
        bytes: op.totals?.files.bytes,
        archiveBytes: downloaded.value,
        archiveMs: downloaded.ms,
      },
      upload: { ms: uploaded.ms, rssPeakMb: uploaded.rssPeakMb },
      analysis: { ms: analyzed.ms, steps: analyzed.value.steps },
      import: {
        ms: executed.ms,
        steps: executed.value.steps,
        slowestStepMs: executed.value.slowestStepMs,
        rssPeakMb: executed.rssPeakMb,
      },
      records: receipt.records,
    };
  } finally {
    await source.close();
    await target.close();
    rmSync(work, { recursive: true, force: true });
  }
}

const before = loadavg()[0];
const results: Array<Awaited<ReturnType<typeof run>>> = [];
for (const db of DBS) results.push(await run(db));
const after = loadavg()[0];

log('\n| | SQLite | PostgreSQL |\n|---|---|---|');
const cell = (db: string, f: (r: (typeof results)[number]) => string) => {
  const r = results.find((x) => x.db === db);
  return r ? f(r) : '—';
};
const row = (label: string, f: (r: (typeof results)[number]) => string) =>
  log(`| ${label} | ${cell('sqlite', f)} | ${cell('postgres', f)} |`);
row(
  'export (steps, slowest step)',
  (r) => `${(r.export.ms / 1000).toFixed(1)} s (${r.export.steps}, ${r.export.slowestStepMs} ms)`,
);
row('package (files)', (r) => `${mb(r.package.bytes ?? 0)} MB (${r.package.files})`);
row('archive download', (r) => `${(r.package.archiveMs / 1000).toFixed(1)} s`);
row('upload', (r) => `${(r.upload.ms / 1000).toFixed(1)} s`);
row('analysis (steps)', (r) => `${(r.analysis.ms / 1000).toFixed(1)} s (${r.analysis.steps})`);
row(
  'import (steps, slowest step)',
  (r) => `${(r.import.ms / 1000).toFixed(1)} s (${r.import.steps}, ${r.import.slowestStepMs} ms)`,
);
row(
  'rss peak: export / upload / import',
  (r) => `${r.export.rssPeakMb} / ${r.upload.rssPeakMb} / ${r.import.rssPeakMb} MB`,
);
log(`\nload average ${before.toFixed(2)} → ${after.toFixed(2)}`);
await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
writeFileSync(RESULTS, JSON.stringify({ at: new Date().toISOString(), loadavg: { before, after }, results }, null, 2));
log(`results: ${RESULTS}`);
