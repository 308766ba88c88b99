import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createBus } from '../../../src/db/bus.js';
import type { Cms } from '../../../src/index.js';
import { call, peerCms, testCms } from '../../helpers/cms.js';
import { postgresAvailable } from '../../helpers/db.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Milliseconds until `probe` holds, polling every 10 ms; fails past `limitMs`. */
async function within(limitMs: number, probe: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await probe()) return performance.now() - started;
    if (performance.now() - started > limitMs) throw new Error(`still not true after ${limitMs} ms`);
    await sleep(10);
  }
}

const statusWith = (cms: Cms, token: string) => async () =>
  (await call(cms, 'GET', '/schema/collections', { token })).status;

// Each process caches token lookups for 2 s and the schema for 1 s; the bus must beat both by far.
const PROMPT_MS = 300;

describe.skipIf(!postgresAvailable)('cross-process invalidation [postgres]', () => {
  it('refuses a disabled user’s token in the other process within a few hundred milliseconds', async () => {
    const a = await testCms('postgres');
    const b = await peerCms(a);
    expect(b.ctx.bus.status()).toMatchObject({ mode: 'postgres', listening: true });
    const { token, userId } = await a.userToken(40);
    const onB = statusWith(b, token);
    expect(await onB()).toBe(200); // cached in B from now on
    expect((await call(a, 'POST', `/admin/users/${userId}/disable`, { token: a.adminToken })).status).toBe(200);
    const ms = await within(1500, async () => (await onB()) === 401);
    expect(ms).toBeLessThan(PROMPT_MS);
  });

  it('applies a role change and a token revocation in the other process at once', async () => {
    const a = await testCms('postgres');
    const b = await peerCms(a);
    const { token, userId } = await a.userToken(40);
    const onB = statusWith(b, token);
    expect(await onB()).toBe(200);
    expect((await call(a, 'PUT', `/admin/users/${userId}`, { token: a.adminToken, body: { role: 20 } })).status).toBe(
      200,
    );
    expect(await within(1500, async () => (await onB()) === 403)).toBeLessThan(PROMPT_MS);

    const { token: editor, userId: editorId } = await a.userToken(40);
    const tokenRow = await a.ctx.db
      .selectFrom('_cms_api_tokens')
      .select('id')
      .where('user_id', '=', editorId)
      .executeTakeFirstOrThrow();
    expect(await statusWith(b, editor)()).toBe(200);
    expect((await call(a, 'DELETE', `/auth/tokens/${tokenRow.id}`, { token: a.adminToken })).status).toBe(200);
    expect(await within(1500, async () => (await statusWith(b, editor)()) === 401)).toBeLessThan(PROMPT_MS);
  });

  it('shows a schema change in the other process at once', async () => {
    const a = await testCms('postgres');
    const b = await peerCms(a);
    const slugsOnB = async () =>
      (await call(b, 'GET', '/schema/collections', { token: a.adminToken })).body.data.items.map(
        (c: { slug: string }) => c.slug,
      );
    expect(await slugsOnB()).toEqual([]);
    const made = await call(a, 'POST', '/schema/collections', {
      token: a.adminToken,
      body: { slug: 'notes', label: 'Notes' },
    });
    expect(made.status).toBe(201);
    expect(await within(1500, async () => (await slugsOnB()).includes('notes'))).toBeLessThan(PROMPT_MS);
  });

  it('reconnects a dropped listener and forgets what it may have missed meanwhile', async () => {
    const a = await testCms('postgres');
    const b = await peerCms(a);
    const { token, userId } = await a.userToken(40);
    const onB = statusWith(b, token);
    expect(await onB()).toBe(200);
    const before = b.ctx.bus.status().pid;
    expect(before).toBeTypeOf('number');
    await sql`select pg_terminate_backend(${before})`.execute(a.ctx.db);
    // Disabled while B is not listening: that notification is lost.
    expect((await call(a, 'POST', `/admin/users/${userId}/disable`, { token: a.adminToken })).status).toBe(200);
    await within(3000, async () => {
      const s = b.ctx.bus.status();
      return s.listening && s.pid !== before;
    });
    // The reconnect cleared B's caches, well before their 2-second expiry.
    expect(await onB()).toBe(401);
    // And later notifications arrive again.
    await call(a, 'POST', `/admin/users/${userId}/enable`, { token: a.adminToken });
    expect(await within(1500, async () => (await onB()) === 200)).toBeLessThan(PROMPT_MS);
  });

  it('closes its listener connection on shutdown', async () => {
    const a = await testCms('postgres');
    const b = await peerCms(a);
    const pid = b.ctx.bus.status().pid;
    const alive = async () =>
      (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where pid = ${pid}`.execute(a.ctx.db))
        .rows[0].n;
    expect(await alive()).toBe(1);
    await b.close();
    expect(b.ctx.bus.status()).toMatchObject({ listening: false, pid: null });
    await within(2000, async () => (await alive()) === 0);
  });

  it('ignores notifications of another site sharing the database (another schema)', async () => {
    const a = await testCms('postgres');
    const other = await testCms('postgres');
    const heard: string[] = [];
    a.ctx.bus.subscribe('tokens', () => heard.push('a'));
    await other.ctx.bus.publish('tokens');
    await sleep(100);
    expect(heard).toEqual([]);
  });
});

describe('invalidation bus [sqlite]', () => {
  it('runs local handlers only (one process per file) and never fails a publish', async () => {
    const cms = await testCms('sqlite');
    expect(cms.ctx.bus.status()).toEqual({ mode: 'local', listening: false, pid: null });
    const bus = createBus(cms.database, cms.log);
    const heard: string[] = [];
    const off = bus.subscribe('schema', () => heard.push('schema'));
    bus.subscribe('schema', () => {
      throw new Error('a broken handler does not stop the others');
    });
    bus.subscribe('tokens', () => heard.push('tokens'));
    await bus.publish('schema');
    off();
    await bus.publish('schema');
    expect(heard).toEqual(['schema']);
    await bus.close();
  });
});
