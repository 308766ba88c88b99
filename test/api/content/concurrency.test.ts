import { expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { resolveConfig } from '../../../src/core/config.js';
import { createLogger } from '../../../src/core/log.js';
import { connect } from '../../../src/db/connect.js';
import { createCms } from '../../../src/index.js';
import { call, testCms } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect, PG_URL, postgresAvailable } from '../../helpers/db.js';

describeEachDialect('_rev and concurrent writes', (dialect) => {
  it('a stale _rev is a 409 that changes nothing, on every guarded write', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const { item, _rev: rev1 } = await createEntry(cms, { data: { title: 'A' } });
    const fresh = await call(cms, 'PUT', `/content/posts/${item.id}`, {
      token: cms.adminToken,
      body: { data: { title: 'B' }, _rev: rev1 },
    });
    expect(fresh.status).toBe(200);
    const rev2 = fresh.body.data._rev;
    expect(rev2).not.toBe(rev1);
    const attempts: Array<[string, string, unknown]> = [
      ['PUT', '', { data: { title: 'C' }, _rev: rev1 }],
      ['POST', '/publish', { _rev: rev1 }],
      ['POST', '/schedule', { scheduledAt: '2099-01-01T00:00:00Z', _rev: rev1 }],
      ['POST', '/discard-draft', { _rev: rev1 }],
    ];
    for (const [method, suffix, body] of attempts) {
      const res = await call(cms, method, `/content/posts/${item.id}${suffix}`, { token: cms.adminToken, body });
      expect(res.status, suffix).toBe(409);
      expect(res.body.error.code).toBe('REV_CONFLICT');
    }
    await publish(cms, item.id);
    const now = await call(cms, 'GET', `/content/posts/${item.id}`, { token: cms.adminToken });
    const unpub = await call(cms, 'POST', `/content/posts/${item.id}/unpublish`, {
      token: cms.adminToken,
      body: { _rev: rev2 },
    });
    expect(unpub.status).toBe(409);
    const after = await call(cms, 'GET', `/content/posts/${item.id}`, { token: cms.adminToken });
    expect(after.body.data._rev).toBe(now.body.data._rev);
    expect(after.body.data.item).toMatchObject({ status: 'published', data: { title: 'B' } });
  });

  it('two concurrent updates carrying the same _rev: exactly one succeeds', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const { item, _rev } = await createEntry(cms, { data: { title: 'A' } });
    for (const target of ['draft', 'published']) {
      if (target === 'published') await publish(cms, item.id);
      const rev =
        (await call(cms, 'GET', `/content/posts/${item.id}`, { token: cms.adminToken })).body.data._rev ?? _rev;
      const results = await Promise.all(
        ['X', 'Y', 'Z', 'W'].map((title) =>
          call(cms, 'PUT', `/content/posts/${item.id}`, {
            token: cms.adminToken,
            body: { data: { title }, _rev: rev },
          }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses, target).toEqual([200, 409, 409, 409]);
    }
  });
});

describeEachDialect('scheduled publishing', (dialect) => {
  it('publishes when due, exactly once, and never after an unschedule', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const cms = await testCms(dialect, { clock });
    await postsCollection(cms);
    const a = await createEntry(cms, { data: { title: 'A' } });
    const b = await createEntry(cms, { data: { title: 'B' } });
    for (const id of [a.item.id, b.item.id]) {
      const res = await call(cms, 'POST', `/content/posts/${id}/schedule`, {
        token: cms.adminToken,
        body: { scheduledAt: '2026-03-01T10:05:00Z' },
      });
      expect(res.status).toBe(200);
    }
    await call(cms, 'DELETE', `/content/posts/${b.item.id}/schedule`, { token: cms.adminToken });
    expect((await cms.services.content.scheduler.runOnce()).published).toBe(0);
    clock.advance(5 * 60_000);
    expect((await cms.services.content.scheduler.runOnce()).published).toBe(1);
    expect((await cms.services.content.scheduler.runOnce()).published).toBe(0);
    const got = await call(cms, 'GET', `/content/posts/${a.item.id}`, { token: cms.adminToken });
    expect(got.body.data.item).toMatchObject({
      status: 'published',
      scheduledAt: null,
      publishedAt: '2026-03-01T10:05:00.000Z',
    });
    const other = await call(cms, 'GET', `/content/posts/${b.item.id}`, { token: cms.adminToken });
    expect(other.body.data.item.status).toBe('draft');
  });

  it('publishes a scheduled draft of a live entry while the live version stays until then', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const cms = await testCms(dialect, { clock });
    await postsCollection(cms);
    const { item } = await createEntry(cms, { data: { title: 'Live' } });
    await publish(cms, item.id);
    await call(cms, 'PUT', `/content/posts/${item.id}`, { token: cms.adminToken, body: { data: { title: 'Next' } } });
    await call(cms, 'POST', `/content/posts/${item.id}/schedule`, {
      token: cms.adminToken,
      body: { scheduledAt: '2026-03-01T11:00:00Z' },
    });
    clock.set('2026-03-01T11:00:01.000Z');
    await cms.services.content.scheduler.runOnce();
    const got = await call(cms, 'GET', `/content/posts/${item.id}`, { token: cms.adminToken });
    expect(got.body.data.item).toMatchObject({
      status: 'published',
      hasDraft: false,
      scheduledAt: null,
      data: { title: 'Next' },
    });
  });
});

it.skipIf(!postgresAvailable)(
  'scheduled publishing [postgres]: several processes publish each entry exactly once',
  async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const first = await testCms('postgres', { clock });
    await postsCollection(first);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { item } = await createEntry(first, { data: { title: `E${i}` } });
      await call(first, 'POST', `/content/posts/${item.id}/schedule`, {
        token: first.adminToken,
        body: { scheduledAt: '2026-03-01T10:01:00Z' },
      });
      ids.push(item.id);
    }
    // Three more service processes on the same database (same schema via search_path).
    const searchPath = await first.database.db
      .selectNoFrom((eb) => eb.fn<string>('current_schema', []).as('s'))
      .executeTakeFirstOrThrow();
    const others = await Promise.all(
      [1, 2, 3].map(() =>
        createCms({
          config: resolveConfig({ databaseUrl: PG_URL, logLevel: 'silent' }),
          database: connect(PG_URL, { schema: searchPath.s, poolSize: 3 }),
          clock,
          logger: createLogger('silent'),
          scheduler: false,
        }),
      ),
    );
    const all = [first, ...others];
    let publishes = 0;
    for (const cms of all)
      cms.services.content.hooks.beforeSave('count', (e) => void (e.operation === 'publish' && publishes++));
    clock.advance(60_000);
    const runs = await Promise.all(all.map((cms) => cms.services.content.scheduler.runOnce()));
    expect(runs.reduce((n, r) => n + r.published, 0)).toBe(20);
    // A hook may run in a transaction that then loses the claim; what counts is the committed publications.
    expect(publishes).toBeGreaterThanOrEqual(20);
    const rows = await (first.database.db as any).selectFrom('ec_posts').select(['status', 'scheduled_at']).execute();
    expect(
      rows.every(
        (r: { status: string; scheduled_at: string | null }) => r.status === 'published' && r.scheduled_at === null,
      ),
    ).toBe(true);
    await Promise.all(others.map((c) => c.close()));
  },
);

describeEachDialect('concurrent creates', (dialect) => {
  it('give every entry its own generated slug', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        call(cms, 'POST', '/content/posts', { token: cms.adminToken, body: { data: { title: 'Race' } } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(201));
    const slugs = results.map((r) => r.body.data.item.slug);
    expect(new Set(slugs).size).toBe(12);
  });
});
