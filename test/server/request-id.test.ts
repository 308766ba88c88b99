import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/log.js';
import { listen, type RunningServer } from '../../src/http/server.js';
import { createCms } from '../../src/index.js';

/**
 * Under the Node server the request id goes on the outgoing message rather than through Hono's
 * context (envelope.test.ts covers the `app.request()` path): every kind of response still carries
 * exactly one, the client's when well-formed.
 */
describe('request id over HTTP', () => {
  let dataDir: string;
  let running: RunningServer;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cms-reqid-'));
    const cms = await createCms({
      config: resolveConfig({ dataDir, databaseUrl: `sqlite:${join(dataDir, 'cms.db')}`, logLevel: 'silent' }),
      logger: createLogger('silent'),
      scheduler: false,
    });
    running = await listen(cms, 0, '127.0.0.1');
  });

  afterAll(async () => {
    await running.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const ULID = /^[0-9A-Z]{26}$/;

  it('is on JSON answers, errors, a method not allowed, a redirect, the admin and health answers', async () => {
    // The admin answers 503 where its bundle is not built (a test checkout): a response all the same.
    const paths: Array<[string, RequestInit, number[]]> = [
      ['/_cms/api/openapi.json', {}, [200]],
      ['/_cms/api/content/posts', {}, [401]],
      ['/_cms/api/nope', {}, [404]],
      ['/_cms/api/schema/collections', { method: 'DELETE' }, [405]],
      ['/', { redirect: 'manual' }, [302]],
      ['/_cms/admin/', {}, [200, 503]],
      ['/_cms/health/live', {}, [200]],
    ];
    const seen = new Set<string>();
    for (const [path, init, status] of paths) {
      const res = await fetch(`${running.url}${path}`, init);
      await res.arrayBuffer();
      expect(status, path).toContain(res.status);
      const id = res.headers.get('x-request-id');
      expect(id, path).toMatch(ULID);
      seen.add(id as string);
    }
    expect(seen.size).toBe(paths.length);
  });

  it('keeps a well-formed client id and replaces a hostile one, once', async () => {
    const mine = await fetch(`${running.url}/_cms/api/nope`, { headers: { 'x-request-id': 'trace-123' } });
    expect(mine.headers.get('x-request-id')).toBe('trace-123');
    const hostile = await fetch(`${running.url}/_cms/api/nope`, { headers: { 'x-request-id': 'a b' } });
    expect(hostile.headers.get('x-request-id')).toMatch(ULID);
  });
});
