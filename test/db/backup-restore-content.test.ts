/**
 * Backups that bring a whole site back, on each database by its documented procedure
 * (docs/operations.md "Backup and restore"): SQLite with `cms backup` / `cms restore` while the
 * site runs; PostgreSQL with `pg_dump --format=custom` and `pg_restore --no-owner` into an empty
 * database plus a copy of the storage directory. The restored site serves the same entries
 * (values, versions, drafts, terms), the same media bytes, and passes the consistency checker.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { systemActor } from '../../src/auth/actor.js';
import { resolveConfig } from '../../src/core/config.js';
import { newId } from '../../src/core/ids.js';
import { createLogger } from '../../src/core/log.js';
import { type Cms, createCms } from '../../src/index.js';
import { runIn } from '../helpers/cli.js';
import { PG_URL, postgresAvailable } from '../helpers/db.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cms-backup-content-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function open(dataDir: string, databaseUrl: string): Promise<Cms> {
  return createCms({
    config: resolveConfig({ dataDir, databaseUrl, logLevel: 'silent' }),
    logger: createLogger('silent'),
    scheduler: false,
  });
}

type Call = (method: string, path: string, body?: unknown) => Promise<any>;

function caller(cms: Cms, token: string): Call {
  return async (method, path, body) => {
    const res = await cms.app.request(`/_cms/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as any;
    expect(res.status, `${method} ${path}: ${JSON.stringify(json)}`).toBeLessThan(300);
    return json.data;
  };
}

/** A small site through the API: a collection with an image field, terms, published entries, a draft, two images. */
async function buildSite(cms: Cms): Promise<string> {
  const { user } = await cms.services.users.create(null, { email: 'admin@example.test', name: 'Admin' });
  const { token } = await cms.services.tokens.create(null, { userId: user.id, name: 'backup' });
  const api = caller(cms, token);
  await api('POST', '/schema/collections', {
    slug: 'birds',
    label: 'Birds',
    supports: ['drafts', 'revisions', 'search'],
    fields: [
      { slug: 'title', label: 'Title', type: 'string', required: true, searchable: true },
      { slug: 'cover', label: 'Cover', type: 'image' },
    ],
  });
  await api('POST', '/taxonomies', { name: 'habitat', label: 'Habitat', collections: ['birds'] });
  await api('POST', '/taxonomies/habitat/terms', { label: 'Wetland' });
  const images = [];
  for (const [i, color] of [
    [0, { r: 200, g: 20, b: 20 }],
    [1, { r: 20, g: 200, b: 20 }],
  ] as const) {
    const png = await sharp({ create: { width: 16 + i, height: 12, channels: 3, background: color } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), `bird-${i}.png`);
    const res = await cms.app.request('/_cms/api/media', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(res.status).toBe(201);
    images.push(((await res.json()) as any).data.item);
  }
  for (const [i, name] of ['Heron', 'Egret', 'Bittern'].entries()) {
    const img = images[i % 2];
    const { item, _rev } = await api('POST', '/content/birds', {
      data: {
        title: name,
        cover: { id: img.id, provider: 'local', src: img.url, alt: name, width: img.width, height: img.height },
      },
    });
    await api('POST', `/content/birds/${item.id}/terms/habitat`, { terms: ['wetland'] });
    const published = await api('POST', `/content/birds/${item.id}/publish`, { _rev });
    if (i === 0) await api('PUT', `/content/birds/${item.id}`, { _rev: published._rev, data: { title: 'Grey heron' } });
  }
  return token;
}

/** What a reader of the site sees: every entry (with its draft and terms), the term count, every media file's bytes. */
async function facts(cms: Cms, token: string) {
  const api = caller(cms, token);
  const list = await api('GET', '/content/birds?limit=100&orderBy=createdAt&order=asc');
  const entries = [];
  for (const e of list.items) {
    const one = await api('GET', `/content/birds/${e.id}`);
    const terms = await api('GET', `/content/birds/${e.id}/terms/habitat`);
    entries.push({
      id: e.id,
      status: one.item.status,
      data: one.item.data,
      rev: one._rev,
      hasDraft: one.item.hasDraft,
      terms: terms.items.map((t: any) => t.slug),
    });
  }
  const media = [];
  for (const m of (await api('GET', '/media?limit=100')).items) {
    const res = await cms.app.request(new URL(m.url, 'http://localhost').pathname);
    expect(res.status).toBe(200);
    media.push({
      id: m.id,
      alt: m.alt,
      sha: createHash('sha256')
        .update(Buffer.from(await res.arrayBuffer()))
        .digest('hex'),
    });
  }
  const count = (await api('GET', '/taxonomies/habitat/terms/wetland')).count;
  return { entries, media: media.sort((a, b) => a.id.localeCompare(b.id)), count };
}

async function expectSame(restored: Cms, token: string, before: Awaited<ReturnType<typeof facts>>) {
  expect(await facts(restored, token)).toEqual(before);
  const report = await restored.services.check.run(systemActor, {});
  expect(report.status, JSON.stringify(report.checks.filter((c) => c.status === 'problems'))).toBe('ok');
}

describe('a backup brings the whole site back', () => {
  it('[sqlite] cms backup of the running site, cms restore into an empty data directory', async () => {
    const site = tempDir();
    const cms = await open(site, `sqlite:${join(site, 'cms.db')}`);
    cleanups.push(() => cms.close());
    const token = await buildSite(cms);
    const before = await facts(cms, token);
    expect(before.entries).toHaveLength(3);
    expect(before.entries[0].hasDraft).toBe(true);
    expect(before.count).toBe(3);
    expect(before.media).toHaveLength(2);

    const out = join(tempDir(), 'backup');
    const env = { CMS_DATA_DIR: site, CMS_LOG_LEVEL: 'silent' };
    const backup = await runIn(site, ['backup', out], env);
    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout).counts).toMatchObject({ media: 2, entries: { birds: 3 }, mediaFiles: 2 });

    const target = tempDir();
    const restore = await runIn(target, ['restore', out], { CMS_DATA_DIR: target, CMS_LOG_LEVEL: 'silent' });
    expect(restore.code, restore.stderr).toBe(0);
    const restored = await open(target, `sqlite:${join(target, 'cms.db')}`);
    cleanups.push(() => restored.close());
    await expectSame(restored, token, before);
  });

  it.skipIf(!postgresAvailable)(
    '[postgres] pg_dump, pg_restore into an empty database, and a copy of the storage',
    async () => {
      const base = new URL(PG_URL);
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      const names = [`cms_src_${newId().toLowerCase()}`, `cms_dst_${newId().toLowerCase()}`];
      for (const n of names) await admin.query(`create database ${n}`);
      cleanups.push(async () => {
        for (const n of names) await admin.query(`drop database if exists ${n} with (force)`);
        await admin.end();
      });
      const url = (db: string) => {
        const u = new URL(base);
        u.pathname = `/${db}`;
        return u.toString();
      };
      const site = tempDir();
      const cms = await open(site, url(names[0]!));
      const token = await buildSite(cms);
      const before = await facts(cms, token);
      expect(before.entries).toHaveLength(3);

      // The procedure of docs/operations.md, with the site still running.
      const dump = join(tempDir(), 'site.dump');
      execFileSync('pg_dump', ['--format=custom', `--file=${dump}`, url(names[0]!)]);
      await cms.close();
      execFileSync('pg_restore', ['--no-owner', `--dbname=${url(names[1]!)}`, dump]);
      const target = tempDir();
      cpSync(join(site, 'media'), join(target, 'media'), { recursive: true });

      const restored = await open(target, url(names[1]!));
      cleanups.push(() => restored.close());
      await expectSame(restored, token, before);
    },
  );
});
