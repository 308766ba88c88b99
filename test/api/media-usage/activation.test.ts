import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { ManualClock } from '../../../src/core/clock.js';
import { resolveConfig } from '../../../src/core/config.js';
import { createLogger } from '../../../src/core/log.js';
import { connect } from '../../../src/db/connect.js';
import type { DialectName } from '../../../src/db/dialect.js';
import { type Cms, createCms } from '../../../src/index.js';
import { call, peerCms, type TestCms } from '../../helpers/cms.js';
import { createEntry, postsCollection } from '../../helpers/content.js';
import { describeEachDialect, freshDatabase, PG_URL } from '../../helpers/db.js';
import { mediaCms, png, uploaded } from '../../helpers/media.js';
import {
  asUpgradedSite,
  driveActivation,
  expectUsage,
  images,
  imageValue,
  model,
  usageSchema,
} from '../../helpers/media-usage.js';
import { ROOT } from '../../helpers/process.js';

/** Index rows as a set of strings, to compare whole indexes. */
async function allRows(cms: Cms): Promise<string[]> {
  const rows = await cms.ctx.db.selectFrom('_cms_media_usage').selectAll().execute();
  return rows.map((r) => `${r.collection_id}/${r.entry_id}/${r.field_id}/${r.media_id}/${r.locale}/${r.live}`).sort();
}

describeEachDialect('Media usage activation', (dialect) => {
  it('activates a site written without tracking while writers keep going, and ends complete', async () => {
    const cms = await mediaCms(dialect, 'file', { config: { mediaUsageBatch: 2 } });
    const token = cms.adminToken;
    await usageSchema(cms);
    await postsCollection(cms, { slug: 'notes' });
    const [a, b, c] = await images(cms, 3);
    const x = model();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const id = (await createEntry(cms, { data: { title: `E${i}`, cover: imageValue(i % 2 ? a : b) } })).item.id;
      ids.push(id);
      x.set(id, [i % 2 ? a : b]);
    }
    await asUpgradedSite(cms);
    await expectUsage(cms, [a, b, c], new Map(), new Map(), 'never');
    // Tracking off: writes go on and are not tracked (historical indexing will find them).
    const late = (await createEntry(cms, { data: { title: 'Late', cover: imageValue(c) } })).item.id;
    x.set(late, [c]);

    // Operators only: schema:manage, and the admin scope for tokens.
    const editor = await cms.userToken(ROLES.EDITOR);
    expect((await call(cms, 'GET', '/admin/media-usage/activation', { token: editor.token })).status).toBe(403);
    const scoped = await cms.userToken(ROLES.ADMIN, ['schema:write']);
    const noScope = await call(cms, 'GET', '/admin/media-usage/progress', { token: scoped.token });
    expect(noScope.status).toBe(403);
    expect(noScope.body.error.code).toBe('INSUFFICIENT_SCOPE');

    expect((await call(cms, 'GET', '/admin/media-usage/activation', { token })).body.data.state).toBe('expanded');
    const early = await call(cms, 'POST', '/admin/media-usage/progress', { token });
    expect(early.status).toBe(409);
    expect(
      (await call(cms, 'POST', '/admin/media-usage/activation', { token, body: { writersDrained: false } })).status,
    ).toBe(400);
    const started = await call(cms, 'POST', '/admin/media-usage/activation', { token, body: { writersDrained: true } });
    expect(started.body.data.state).toBe('activating');
    // A second request neither restarts nor resets.
    const again = await call(cms, 'POST', '/admin/media-usage/activation', { token, body: { writersDrained: true } });
    expect(again.body.data).toEqual(started.body.data);

    // While activating, writes through the service are refused, in this process and in another.
    const peer = await peerCms(cms);
    const blocked = await call(cms, 'POST', '/content/posts', { token, body: { data: { title: 'No' } } });
    expect(blocked.status).toBe(503);
    expect(blocked.body.error.code).toBe('MEDIA_USAGE_ACTIVATION_IN_PROGRESS');
    const viaPeer = await call(peer, 'PUT', `/content/posts/${ids[0]}`, { token, body: { data: { title: 'No' } } });
    expect(viaPeer.body.error.code).toBe('MEDIA_USAGE_ACTIVATION_IN_PROGRESS');
    const schemaBlocked = await call(cms, 'DELETE', '/schema/collections/notes', { token });
    expect(schemaBlocked.body.error.code).toBe('MEDIA_USAGE_ACTIVATION_IN_PROGRESS');
    expect((await call(cms, 'GET', `/media/${a.id}?includeUsage=1`, { token })).body.data.item.usage.coverage).toBe(
      'running',
    );

    // Progress: prepare, then active (writes tracked again) while historical indexing goes on step by step.
    let n = 0;
    let sawRunning = false;
    const done = await driveActivation(cms, token, async (state) => {
      if (state !== 'active') return;
      const coverage = (await call(cms, 'GET', `/media/${a.id}?includeUsage=1`, { token })).body.data.item.usage
        .coverage;
      if (coverage === 'running') sawRunning = true;
      // Writers from both processes between steps: changes, new entries, trash.
      n++;
      if (n === 1) {
        const r = await call(peer, 'PUT', `/content/posts/${ids[6]}`, {
          token,
          body: { data: { cover: imageValue(c) } },
        });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        x.set(ids[6], [c]);
      } else if (n === 2) {
        const id = (await createEntry(cms, { data: { title: 'New', cover: imageValue(a) } })).item.id;
        x.set(id, [a]);
      } else if (n === 3) {
        expect((await call(peer, 'DELETE', `/content/posts/${ids[1]}`, { token })).status).toBe(200);
        x.drop(ids[1]);
      }
    });
    expect(sawRunning).toBe(true);
    expect(n).toBeGreaterThan(3);
    expect(done.state).toBe('active');
    expect(done.coverage).toBe('complete');
    expect(done.collections.find((col: any) => col.collection === 'posts')).toMatchObject({
      status: 'complete',
      skipped: 0,
    });
    await expectUsage(cms, [a, b, c], x.m);
    const work = await call(cms, 'GET', '/admin/media-usage/work', { token });
    expect(work.body.data.backlog).toBe('none');
    expect(work.body.data.items.every((w: any) => w.status === 'done')).toBe(true);

    // Repair agrees with what activation and the writers left: the same rows, status complete.
    const before = await allRows(cms);
    const repaired = await call(cms, 'POST', '/admin/media-usage/repair', { token, body: { scope: 'all' } });
    expect(repaired.status, JSON.stringify(repaired.body)).toBe(200);
    expect(repaired.body.data.status).toBe('complete');
    expect(repaired.body.data.collections.map((col: any) => [col.collection, col.status])).toEqual([
      ['notes', 'complete'],
      ['posts', 'complete'],
    ]);
    expect(repaired.body.data.collections[1]).toMatchObject({ entries: 8, referencing: 8, references: 8 });
    expect(await allRows(cms)).toEqual(before);
    // Activation cannot be restarted once active.
    const final = await call(cms, 'POST', '/admin/media-usage/activation', { token, body: { writersDrained: true } });
    expect(final.body.data.state).toBe('active');
  }, 120_000);

  it('stops on an error until one confirmed retry, then goes on', async () => {
    const cms = await mediaCms(dialect);
    const token = cms.adminToken;
    await usageSchema(cms);
    const [a] = await images(cms, 1);
    const id = (await createEntry(cms, { data: { title: 'E', cover: imageValue(a) } })).item.id;
    await asUpgradedSite(cms);
    await call(cms, 'POST', '/admin/media-usage/activation', { token, body: { writersDrained: true } });
    await breakCoverageTable(cms, dialect, true);
    const failed = await call(cms, 'POST', '/admin/media-usage/progress', { token });
    expect(failed.status).toBe(200);
    expect(failed.body.data).toMatchObject({
      state: 'activating',
      lastErrorCode: 'INTERNAL_ERROR',
      nextRequestInMs: null,
    });
    expect(JSON.stringify(failed.body)).not.toContain('boom');
    const refused = await call(cms, 'POST', '/admin/media-usage/progress', { token });
    expect(refused.status).toBe(409);
    await breakCoverageTable(cms, dialect, false);
    const retry = await call(cms, 'POST', '/admin/media-usage/activation', {
      token,
      body: { writersDrained: true, retry: true },
    });
    expect(retry.body.data).toMatchObject({ state: 'activating', lastErrorCode: null });
    const done = await driveActivation(cms, token);
    expect(done).toMatchObject({ state: 'active', coverage: 'complete' });
    await expectUsage(cms, [a], new Map([[a.id, new Set([id])]]));
  });

  it('resumes after a process is killed mid-activation without losing or doubling a row', async () => {
    const site = await fileSite(dialect);
    const token = site.cms.adminToken;
    const cms = site.cms;
    await usageSchema(cms);
    const items = [];
    for (let i = 0; i < 3; i++) items.push(await uploaded(cms, await png(10 + i, 10)));
    const x = model();
    for (let i = 0; i < 12; i++) {
      const pick = [items[i % 3], items[(i + 1) % 3]];
      const id = (
        await createEntry(cms, {
          data: { title: `E${i}`, cover: imageValue(pick[0]), gallery: [{ photo: imageValue(pick[1]) }] },
        })
      ).item.id;
      x.set(id, pick);
    }
    const expected = await allRows(cms);
    await asUpgradedSite(cms);
    await call(cms, 'POST', '/admin/media-usage/activation', { token, body: { writersDrained: true } });

    // Another process drives activation and is killed part-way (SIGKILL: no cleanup, a step may be open).
    // One node process (tsx as a loader, not a wrapper) so the kill reaches the process doing the work.
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/usage-worker.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...site.env, USAGE_PAUSE_MS: '150' },
    });
    const closed = new Promise((r) => child.on('close', r));
    let steps = 0;
    await new Promise<void>((done, fail) => {
      child.stdout?.on('data', (d: Buffer) => {
        steps += d
          .toString()
          .split('\n')
          .filter((l) => l.startsWith('step active')).length;
        if (steps >= 3) {
          child.kill('SIGKILL');
          done();
        }
      });
      child.on('exit', (code) => (steps >= 3 ? done() : fail(new Error(`worker exited early (${code})`))));
    });
    await closed;
    const partial = await allRows(cms);
    expect(partial.length).toBeLessThan(expected.length);

    // Past any lease the dead process held, this process finishes the work.
    site.clock.advance(120_000);
    const done = await driveActivation(cms, token);
    expect(done).toMatchObject({ state: 'active', coverage: 'complete' });
    expect(await allRows(cms)).toEqual(expected);
    await expectUsage(cms, items, x.m);
  }, 120_000);
});

/** Make inserts into the coverage table fail (or stop failing), as a broken database would. */
async function breakCoverageTable(cms: TestCms, dialect: DialectName, broken: boolean) {
  const db = cms.ctx.db;
  if (dialect === 'sqlite') {
    if (broken)
      await sql`create trigger usage_boom before insert on _cms_media_usage_collections begin select raise(abort, 'boom'); end`.execute(
        db,
      );
    else await sql`drop trigger usage_boom`.execute(db);
    return;
  }
  if (broken) {
    await sql`create function usage_boom() returns trigger language plpgsql as $$ begin raise exception 'boom'; end $$`.execute(
      db,
    );
    await sql`create trigger usage_boom before insert on _cms_media_usage_collections for each row execute function usage_boom()`.execute(
      db,
    );
  } else {
    await sql`drop trigger usage_boom on _cms_media_usage_collections`.execute(db);
  }
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A site on a database another process can open (a SQLite file, or a PostgreSQL schema), on a manual clock. */
async function fileSite(dialect: DialectName) {
  const dir = mkdtempSync(join(tmpdir(), 'cms-usage-'));
  let database: ReturnType<typeof connect>;
  let env: Record<string, string>;
  let drop: () => Promise<void>;
  if (dialect === 'sqlite') {
    const url = `sqlite:${join(dir, 'site.db')}`;
    database = connect(url);
    env = { USAGE_DB_URL: url, USAGE_DATA_DIR: dir };
    drop = async () => {};
  } else {
    const t = await freshDatabase('postgres');
    database = t.database;
    env = { USAGE_DB_URL: PG_URL, USAGE_DB_SCHEMA: t.schema as string, USAGE_DATA_DIR: dir };
    drop = async () => t.drop();
  }
  const clock = new ManualClock(new Date(Date.now()).toISOString());
  const cms = (await createCms({
    config: resolveConfig({ dataDir: dir, logLevel: 'silent', mediaUsageBatch: 1 }),
    database,
    clock,
    scheduler: false,
    logger: createLogger('silent'),
  })) as TestCms;
  const { user } = await cms.services.users.create(null, { email: 'admin@example.test', name: 'Admin' });
  cms.adminToken = (await cms.services.tokens.create(null, { userId: user.id, name: 'admin' })).token;
  cleanups.push(async () => {
    await cms.close();
    if (dialect === 'postgres') await drop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    cms,
    clock,
    env,
  };
}
