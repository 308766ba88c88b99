import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';

describeEachDialect('users admin', (dialect) => {
  it('lists users with an opaque cursor, limit, search and role filter', async () => {
    const cms = await testCms(dialect);
    for (let i = 0; i < 7; i++) {
      await cms.services.users.create(null, {
        email: `person${i}@example.test`,
        name: i % 2 ? `Odd ${i}` : `Even_${i}`,
        role: i < 3 ? 20 : 40,
      });
    }
    const admin = { token: cms.adminToken };
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await call(cms, 'GET', `/admin/users?limit=3${cursor ? `&cursor=${cursor}` : ''}`, admin);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.items.map((u: { email: string }) => u.email));
      cursor = res.body.data.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(8);
    expect(seen[0]).toBe('admin@example.test');

    const first = (await call(cms, 'GET', '/admin/users', admin)).body.data;
    expect(first.items).toHaveLength(8);
    expect(first.nextCursor).toBeUndefined();
    expect(first.items[0]).toEqual({
      id: cms.adminId,
      email: 'admin@example.test',
      name: 'Admin',
      role: 50,
      roleName: 'admin',
      disabled: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      lastSignInAt: null,
      passkeyCount: 0,
    });

    const odd = await call(cms, 'GET', '/admin/users?search=odd', admin);
    expect(odd.body.data.items.map((u: { name: string }) => u.name)).toEqual(['Odd 1', 'Odd 3', 'Odd 5']);
    const byEmail = await call(cms, 'GET', '/admin/users?search=PERSON6', admin);
    expect(byEmail.body.data.items.map((u: { email: string }) => u.email)).toEqual(['person6@example.test']);
    // LIKE wildcards in the search are literal.
    const underscore = await call(cms, 'GET', '/admin/users?search=n_', admin);
    expect(underscore.body.data.items.map((u: { name: string }) => u.name)).toEqual([
      'Even_0',
      'Even_2',
      'Even_4',
      'Even_6',
    ]);
    const contributors = await call(cms, 'GET', '/admin/users?role=20', admin);
    expect(contributors.body.data.items).toHaveLength(3);

    for (const q of ['limit=0', 'limit=101', 'cursor=garbage', 'role=33']) {
      const bad = await call(cms, 'GET', `/admin/users?${q}`, admin);
      expect(bad.status, q).toBe(400);
    }
  });

  it('gets and updates a user (name, role)', async () => {
    const cms = await testCms(dialect);
    const { userId } = await cms.userToken(20);
    const admin = { token: cms.adminToken };
    expect((await call(cms, 'GET', `/admin/users/${userId}`, admin)).body.data.role).toBe(20);
    const res = await call(cms, 'PUT', `/admin/users/${userId}`, { ...admin, body: { name: '  Kim  ', role: 40 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Kim', role: 40, roleName: 'editor' });
    expect((await call(cms, 'PUT', `/admin/users/${userId}`, { ...admin, body: { role: 45 } })).status).toBe(400);
    expect((await call(cms, 'PUT', `/admin/users/${userId}`, { ...admin, body: { email: 'x@y.z' } })).status).toBe(400);
    expect((await call(cms, 'GET', '/admin/users/missing', admin)).status).toBe(404);
  });

  it('requires the Admin role', async () => {
    const cms = await testCms(dialect);
    const { token: editor, userId } = await cms.userToken(40);
    expect((await call(cms, 'GET', '/admin/users', { token: editor })).status).toBe(403);
    expect((await call(cms, 'GET', '/admin/users')).status).toBe(401);
    // An Editor cannot raise their own role.
    const selfRaise = await call(cms, 'PUT', `/admin/users/${userId}`, { token: editor, body: { role: 50 } });
    expect(selfRaise.status).toBe(403);
    expect((await cms.services.users.get(userId)).role).toBe(40);
  });
});
