import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBus } from '../../../src/db/bus.js';
import type { Cms } from '../../../src/index.js';
import { call, peerCms, testCms } from '../../helpers/cms.js';
import { postgresAvailable } from '../../helpers/db.js';
import { waitFor } from '../../helpers/wait.js';

const statusWith = (cms: Cms, token: string) => async () =>
  (await call(cms, 'GET', '/schema/collections', { token })).status;

/**
 * Each process caches token lookups for 2 s and the schema for 1 s, both by the clock. Stopping the
 * clock (Date only: timers and the PostgreSQL connections run on) means no cache ever expires, so
 * a change the other process sees can only have come through the bus, however long a busy machine
 * takes to deliver it.
 */
function stopTheClock(): void {
  vi.useFakeTimers({ toFake: ['Date'] });
}

describe.skipIf(!postgresAvailable)('cross-process invalidation [postgres]', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refuses a disabled user’s token in the other process while its cached lookup is still valid', async () => {
    const a = await testCms('postgres');
    const b = await peerCms(a);
    expect(b.ctx.bus.status()).toMatchObject({ mode: 'postgres', listening: true });
    const { token, userId } = await a.userToken(40);
    stopTheClock();
    const onB = statusWith(b, token);
    expect(await onB()).toBe(200); // cached in B from now on
    expect((await call(a, 'POST', `/admin/users/${userId}/disable`, { token: a.adminToken })).status).toBe(200);
    await waitFor(async () => (await onB()) === 401, { what: 'the other process to refuse the disabled user' });
  });

  it('applies a role change and a token revocation in the other process while its cache holds them', async () => {
    const a = await testCms('postgres');
    const b = await peerCms(a);
    const { token, userId } = await a.userToken(40);
    stopTheClock();
    const onB = statusWith(b, token);
    expect(await onB()).toBe(200);
    expect((await call(a, 'PUT', `/admin/users/${userId}`, { token: a.adminToken, body: { role: 20 } })).status).toBe(
      200,
    );
    await waitFor(async () => (await onB()) === 403, { what: 'the other process to apply the role change' });

    const { token: editor, userId: editorId } = await a.userToken(40);
    const tokenRow = await a.ctx.db
      .selectFrom('_cms_api_tokens')
      .select('id')
      .where('user_id', '=', editorId)
      .executeTakeFirstOrThrow();
    expect(await statusWith(b, editor)()).toBe(200);
    expect((await call(a, 'DELETE', `/auth/tokens/${tokenRow.id}`, { token: a.adminToken })).status).toBe(200);
    await waitFor(async () => (await statusWith(b, editor)()) === 401, {
      what: 'the other process to refuse the revoked token',
    });
  });

  it('shows a schema change in the other process while its cached schema is still valid', async () => {
    const a = await testCms('postgres');
    const b = await peerCms(a);
    stopTheClock();
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
    await waitFor(async () => (await slugsOnB()).includes('notes'), {
      what: 'the other process to show the new collection',
    });
  });

  it('reconnects a dropped listener and forgets what it may have missed meanwhile', async () => {
    const a = await testCms('postgres');
    const b = await peerCms(a);
    const { token, userId } = await a.userToken(40);
    stopTheClock();
    const onB = statusWith(b, token);
    expect(await onB()).toBe(200);
    const before = b.ctx.bus.status().pid;
    expect(before).toBeTypeOf('number');
    await sql`select pg_terminate_backend(${before})`.execute(a.ctx.db);
    // Disabled while B is not listening: that notification is lost.
    expect((await call(a, 'POST', `/admin/users/${userId}/disable`, { token: a.adminToken })).status).toBe(200);
    await waitFor(
      () => {
        const s = b.ctx.bus.status();
        return s.listening && s.pid !== before;
      },
      { what: 'the listener to reconnect' },
    );
    // The reconnect cleared B's caches: with the clock stopped they would never expire.
    expect(await onB()).toBe(401);
    // And later notifications arrive again.
    await call(a, 'POST', `/admin/users/${userId}/enable`, { token: a.adminToken });
    await waitFor(async () => (await onB()) === 200, { what: 'the other process to accept the enabled user' });
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
    await waitFor(async () => (await alive()) === 0, { what: 'the listener connection to be gone' });
  });

  it('ignores notifications of another site sharing the database (another schema)', async () => {
    const a = await testCms('postgres');
    const other = await testCms('postgres');
    const peer = await peerCms(a);
    const heard: string[] = [];
    a.ctx.bus.subscribe('tokens', () => heard.push('a'));
    await other.ctx.bus.publish('tokens');
    // One channel delivers in commit order: once the peer's later notice has arrived, the other
    // site's earlier one has had its turn.
    await peer.ctx.bus.publish('tokens');
    await waitFor(() => heard.length > 0, { what: 'the notice of the same site' });
    expect(heard).toEqual(['a']);
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
