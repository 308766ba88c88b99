/**
 * S3-compatible storage that goes away or stops answering (s3rver behind a TCP proxy that is cut,
 * or stalled: connections accepted, nothing answered). An upload fails with 503
 * STORAGE_UNAVAILABLE and Retry-After within a bounded time, with nothing half-written (no media
 * record, no staged file left); reads of other data go on; once the bucket is back the next upload
 * succeeds without a restart.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { call, testCms } from '../helpers/cms.js';
import { createEntry, postsCollection } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/db.js';
import { png, startS3, upload } from '../helpers/media.js';
import { tcpProxy } from '../helpers/tcp-proxy.js';

const s3 = startS3();
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** The request timeout the site is configured with: a stalled bucket fails each attempt after it. */
const TIMEOUT_MS = 1_000;

async function site(dialect: 'sqlite' | 'postgres') {
  const f = s3();
  const target = new URL(f.endpoint);
  const proxy = tcpProxy(target.hostname, Number(target.port));
  await proxy.open();
  cleanups.push(() => proxy.cut());
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-s3-faults-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const cms = await testCms(dialect, {
    config: {
      dataDir,
      storage: {
        url: `s3://${f.bucket}/faults-${process.pid}-${dialect}`,
        endpoint: `http://127.0.0.1:${proxy.port()}`,
        forcePathStyle: true,
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        timeoutMs: TIMEOUT_MS,
      },
    },
  });
  await postsCollection(cms);
  await createEntry(cms, { data: { title: 'Still readable' } });
  const staged = () => {
    try {
      return readdirSync(join(dataDir, 'tmp', 'uploads'));
    } catch {
      return [];
    }
  };
  const count = async () =>
    (await call(cms, 'GET', '/media?limit=100', { token: cms.adminToken })).body.data.items.length;
  return { cms, proxy, staged, count };
}

describeEachDialect('S3 storage unavailable or stalled', (dialect) => {
  it('fails uploads with 503 STORAGE_UNAVAILABLE, keeps nothing of them, serves other reads, and recovers by itself', async () => {
    const { cms, proxy, staged, count } = await site(dialect);
    expect((await upload(cms, await png(10, 10))).status).toBe(201);
    let stored = 1;

    for (const failure of ['cut', 'stall'] as const) {
      if (failure === 'cut') await proxy.cut();
      else proxy.stall();
      const started = Date.now();
      const res = await upload(cms, await png(20, failure === 'cut' ? 11 : 12));
      const took = Date.now() - started;
      expect(res.status, JSON.stringify(res.body)).toBe(503);
      expect(res.body.error.code).toBe('STORAGE_UNAVAILABLE');
      expect(res.headers.get('retry-after')).toBe('5');
      // Bounded: the SDK's three attempts, each at most the configured timeout, and its back-off.
      expect(took).toBeLessThan(4 * TIMEOUT_MS + 5_000);
      console.log(`[faults] S3 ${failure} (${dialect}): upload refused after ${took} ms`);
      expect(await count()).toBe(stored);
      expect(staged()).toEqual([]);
      const list = await call(cms, 'GET', '/content/posts', { token: cms.adminToken });
      expect(list.status).toBe(200);
      expect(list.body.data.items[0].data.title).toBe('Still readable');

      if (failure === 'stall') await proxy.cut();
      await proxy.open();
      const back = Date.now();
      const again = await upload(cms, await png(30, failure === 'cut' ? 13 : 14));
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      console.log(`[faults] S3 back after ${failure} (${dialect}): first upload stored in ${Date.now() - back} ms`);
      expect(await count()).toBe(++stored);
    }
  }, 60_000);
});
