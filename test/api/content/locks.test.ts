import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { ManualClock } from '../../../src/core/clock.js';
import { call, testCms } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';

describeEachDialect('edit locks', (dialect) => {
  it('leases for 7 minutes, names the holder, blocks other users, extends on save', async () => {
    const clock = new ManualClock('2026-05-01T12:00:00.000Z');
    const cms = await testCms(dialect, { clock });
    await postsCollection(cms);
    const editor = await cms.userToken(ROLES.EDITOR);
    const { item } = await createEntry(cms, { data: { title: 'A' } });
    const path = `/content/posts/${item.id}`;

    const free = await call(cms, 'GET', `${path}/lock`, { token: editor.token });
    expect(free.body.data).toEqual({ enabled: true, heldByCaller: false, holder: null });

    const got = await call(cms, 'POST', `${path}/lock`, { token: cms.adminToken, body: { token: 'tab-1' } });
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual({
      enabled: true,
      heldByCaller: true,
      holder: {
        userId: cms.adminId,
        userName: 'Admin',
        acquiredAt: '2026-05-01T12:00:00.000Z',
        expiresAt: '2026-05-01T12:07:00.000Z',
      },
    });

    const seen = await call(cms, 'POST', `${path}/lock`, { token: editor.token, body: {} });
    expect(seen.body.data).toMatchObject({ heldByCaller: false, holder: { userId: cms.adminId } });

    for (const [method, suffix, body] of [
      ['PUT', '', { data: { title: 'E' } }],
      ['POST', '/publish', {}],
      ['POST', '/schedule', { scheduledAt: '2099-01-01T00:00:00Z' }],
      ['DELETE', '', undefined],
    ] as const) {
      const res = await call(cms, method, `${path}${suffix}`, { token: editor.token, body });
      expect(res.status, `${method} ${suffix}`).toBe(409);
      expect(res.body.error.code).toBe('ENTRY_LOCKED');
      expect(res.body.error.details).toEqual({
        userId: cms.adminId,
        userName: 'Admin',
        acquiredAt: '2026-05-01T12:00:00.000Z',
        expiresAt: '2026-05-01T12:07:00.000Z',
      });
    }
    const overridden = await call(cms, 'PUT', path, {
      token: editor.token,
      body: { data: { title: 'E' }, overrideLock: true },
    });
    expect(overridden.status).toBe(200);

    // The holder's own save extends the lease.
    clock.advance(5 * 60_000);
    await call(cms, 'PUT', path, { token: cms.adminToken, body: { data: { title: 'A2' } } });
    const extended = await call(cms, 'GET', `${path}/lock`, { token: cms.adminToken });
    expect(extended.body.data.holder.expiresAt).toBe('2026-05-01T12:12:00.000Z');

    // Delete with overrideLock as a query parameter.
    const del = await call(cms, 'DELETE', `${path}?overrideLock=true`, { token: editor.token });
    expect(del.status).toBe(200);
  });

  it('expires, can be taken over, and is released only with the session token', async () => {
    const clock = new ManualClock('2026-05-01T12:00:00.000Z');
    const cms = await testCms(dialect, { clock });
    await postsCollection(cms);
    const editor = await cms.userToken(ROLES.EDITOR);
    const { item } = await createEntry(cms, { data: { title: 'A' } });
    const path = `/content/posts/${item.id}`;
    await call(cms, 'POST', `${path}/lock`, { token: cms.adminToken, body: { token: 'tab-1' } });
    const wrongTab = await call(cms, 'DELETE', `${path}/lock?token=tab-2`, { token: cms.adminToken });
    expect(wrongTab.status).toBe(409);
    const released = await call(cms, 'DELETE', `${path}/lock?token=tab-1`, { token: cms.adminToken });
    expect(released.body.data).toEqual({ enabled: true, heldByCaller: false, holder: null });

    await call(cms, 'POST', `${path}/lock`, { token: cms.adminToken, body: {} });
    const taken = await call(cms, 'POST', `${path}/lock`, { token: editor.token, body: { takeover: true } });
    expect(taken.body.data).toMatchObject({ heldByCaller: true, holder: { userId: editor.userId } });
    expect((await call(cms, 'PUT', path, { token: cms.adminToken, body: { data: { title: 'x' } } })).status).toBe(409);

    clock.advance(7 * 60_000 + 1);
    expect((await call(cms, 'PUT', path, { token: cms.adminToken, body: { data: { title: 'x' } } })).status).toBe(200);
    const after = await call(cms, 'GET', `${path}/lock`, { token: editor.token });
    expect(after.body.data.holder).toBeNull();
  });

  it('reports enabled:false and takes no lease on collections without locking', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms, { supports: ['drafts', 'revisions'] });
    const editor = await cms.userToken(ROLES.EDITOR);
    const { item } = await createEntry(cms, { data: { title: 'A' } });
    await publish(cms, item.id);
    const res = await call(cms, 'POST', `/content/posts/${item.id}/lock`, { token: cms.adminToken, body: {} });
    expect(res.body.data).toEqual({ enabled: false, heldByCaller: false, holder: null });
    expect(
      (await call(cms, 'PUT', `/content/posts/${item.id}`, { token: editor.token, body: { data: { title: 'B' } } }))
        .status,
    ).toBe(200);
    const rows = await cms.database.db.selectFrom('_cms_locks').selectAll().execute();
    expect(rows).toHaveLength(0);
  });
});
