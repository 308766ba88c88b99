import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { call, type TestCms, testCms } from '../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/db.js';
import { serve } from '../helpers/mcp.js';

const TIMING = /^db;dur=(\d+(?:\.\d)?);desc="(\d+) statements?", total;dur=(\d+(?:\.\d)?)$/;

function parse(header: string | null) {
  const m = header?.match(TIMING);
  if (!m) throw new Error(`unexpected Server-Timing: ${header}`);
  return { dbMs: Number(m[1]), statements: Number(m[2]), totalMs: Number(m[3]) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('serverTiming configuration', () => {
  it('is off by default, on with CMS_SERVER_TIMING=1 or true, and refuses other words naming the variable', () => {
    const cwd = '/nonexistent-dir-for-config';
    expect(loadConfig({}, cwd).serverTiming).toBe(false);
    expect(loadConfig({ CMS_SERVER_TIMING: '1' }, cwd).serverTiming).toBe(true);
    expect(loadConfig({ CMS_SERVER_TIMING: 'true' }, cwd).serverTiming).toBe(true);
    expect(loadConfig({ CMS_SERVER_TIMING: '0' }, cwd).serverTiming).toBe(false);
    expect(() => loadConfig({ CMS_SERVER_TIMING: 'yes' }, cwd)).toThrow(/CMS_SERVER_TIMING/);
  });
});

describeEachDialect('Server-Timing', (dialect) => {
  async function site(cms: TestCms) {
    await postsCollection(cms);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { item } = await createEntry(cms, { data: { title: `Post ${i}` } });
      await publish(cms, item.id);
      ids.push(item.id);
    }
    return ids;
  }

  it('is not sent unless configured', async () => {
    const cms = await testCms(dialect);
    const [id] = await site(cms);
    for (const path of [`/content/posts/${id}`, '/content/posts', '/content/posts/nothing-here']) {
      const res = await call(cms, 'GET', path, { token: cms.adminToken });
      expect(res.headers.get('server-timing'), path).toBeNull();
    }
  });

  it("when configured, says each REST response's statements, database time and total", async () => {
    const cms = await testCms(dialect, { config: { serverTiming: true } });
    const [id] = await site(cms);
    // Time stands still: no cache re-check runs between the counted statements and the header.
    vi.useFakeTimers({ toFake: ['Date'] });
    const counted = async (method: string, path: string, body?: unknown) => {
      await call(cms, method, path, { token: cms.adminToken, body });
      const before = cms.database.queryCount;
      const res = await call(cms, method, path, { token: cms.adminToken, body });
      return { res, global: cms.database.queryCount - before, timing: parse(res.headers.get('server-timing')) };
    };
    const get = await counted('GET', `/content/posts/${id}`);
    expect(get.res.status).toBe(200);
    expect(get.timing.statements).toBe(get.global);
    expect(get.timing.statements).toBeGreaterThan(0);
    expect(get.timing.totalMs).toBeGreaterThanOrEqual(get.timing.dbMs);

    const create = await counted('POST', '/content/posts', { data: { title: 'Timed' } });
    expect(create.res.status).toBe(201);
    expect(create.timing.statements).toBe(create.global);
    expect(create.timing.statements).toBeGreaterThan(get.timing.statements);

    // Failures carry it too.
    const missing = await counted('GET', '/content/posts/nothing-here');
    expect(missing.res.status).toBe(404);
    expect(missing.timing.statements).toBe(missing.global);
  });

  it('reaches clients of the listening server', async () => {
    const cms = await testCms(dialect, { config: { serverTiming: true } });
    await site(cms);
    const url = await serve(cms);
    const res = await fetch(`${url}/_cms/api/content/posts`, {
      headers: { authorization: `Bearer ${cms.adminToken}` },
    });
    expect(res.status).toBe(200);
    expect(parse(res.headers.get('server-timing')).statements).toBeGreaterThan(0);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});
