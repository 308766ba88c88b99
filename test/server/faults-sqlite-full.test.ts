/**
 * SQLite out of space: the database file may not grow (max_page_count, the limit SQLite applies
 * exactly as a full disk: SQLITE_FULL on the page it cannot add). Writes answer 507 DATABASE_FULL
 * in the envelope with nothing of them kept, reads go on, the file stays sound, and the first write
 * after space returns succeeds.
 */
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { systemActor } from '../../src/auth/actor.js';
import { call, testCms } from '../helpers/cms.js';
import { postsCollection } from '../helpers/content.js';

it('a full SQLite database answers 507 DATABASE_FULL, keeps nothing half-written, and writes again once there is room', async () => {
  const cms = await testCms('sqlite');
  await postsCollection(cms);
  // SQLite here is one connection: a pragma set through it holds for every statement the service runs.
  const pragma = async (text: string) => (await sql.raw(`pragma ${text}`).execute(cms.ctx.db)).rows[0] as any;
  const pages = Number((await pragma('page_count')).page_count);
  await pragma(`max_page_count = ${pages + 2}`);
  const body = 'x'.repeat(6_000);
  let full: Awaited<ReturnType<typeof call>> | null = null;
  let written = 0;
  for (let i = 0; i < 200 && !full; i++) {
    const res = await call(cms, 'POST', '/content/posts', {
      token: cms.adminToken,
      body: { data: { title: `Full ${i}`, body } },
    });
    if (res.status === 201) written++;
    else full = res;
  }
  expect(full?.status, JSON.stringify(full?.body)).toBe(507);
  expect(full?.body.success).toBe(false);
  expect(full?.body.error.code).toBe('DATABASE_FULL');
  // Reads are served; nothing of the refused write is there.
  const list = await call(cms, 'GET', '/content/posts?limit=100', { token: cms.adminToken });
  expect(list.status).toBe(200);
  expect(list.body.data.items).toHaveLength(written);
  expect(list.body.data.items.map((e: any) => e.data.title)).not.toContain(`Full ${written}`);
  const { rows } = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(cms.ctx.db);
  expect(rows[0]?.integrity_check).toBe('ok');

  await pragma('max_page_count = 1073741823');
  const again = await call(cms, 'POST', '/content/posts', {
    token: cms.adminToken,
    body: { data: { title: 'Room again', body } },
  });
  expect(again.status, JSON.stringify(again.body)).toBe(201);
  const report = await cms.services.check.run(systemActor, { checks: ['revisions', 'orphans', 'term-counts'] });
  expect(report.status).toBe('ok');
});
