import { expect, it } from 'vitest';
import { peerCms, testCms } from '../helpers/cms.js';
import { describeEachDialect } from '../helpers/db.js';

describeEachDialect('health endpoints for load balancers', (dialect) => {
  it('answer liveness and readiness without credentials, outside the envelope, never cached', async () => {
    const cms = await testCms(dialect);
    for (const path of ['/_cms/health/live', '/_cms/health/ready']) {
      const res = await cms.app.request(path, { headers: { authorization: 'Bearer not-a-token' } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-request-id')).toBeTruthy();
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.status).toBe('ok');
      expect(body).not.toHaveProperty('success');
      const head = await cms.app.request(path, { method: 'HEAD' });
      expect(head.status).toBe(200);
    }
    const ready = await (await cms.app.request('/_cms/health/ready')).json();
    expect(ready).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', process: 'ok' } });
  });

  it('is not ready while migrations are pending', async () => {
    const cms = await testCms(dialect);
    await cms.ctx.db.deleteFrom('_cms_migrations').where('name', '=', '006_hardening').execute();
    // A process that started before the migration was applied (or skipped migrations).
    const peer = await peerCms(cms);
    const res = await peer.app.request('/_cms/health/ready');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      status: 'unavailable',
      checks: { database: 'ok', migrations: 'pending', process: 'ok' },
    });
    // Liveness does not depend on the database.
    expect((await peer.app.request('/_cms/health/live')).status).toBe(200);
  });

  it('is not ready when the database is gone, nor while shutting down', async () => {
    const cms = await testCms(dialect);
    cms.services.health.drain();
    const draining = await cms.app.request('/_cms/health/ready');
    expect(draining.status).toBe(503);
    expect(((await draining.json()) as any).checks.process).toBe('draining');

    const other = await testCms(dialect);
    await other.database.db.destroy();
    const gone = await other.app.request('/_cms/health/ready');
    expect(gone.status).toBe(503);
    expect(((await gone.json()) as any).checks).toMatchObject({ database: 'unreachable' });
    expect((await other.app.request('/_cms/health/live')).status).toBe(200);
  });

  it('sends people who open the service root to the admin', async () => {
    const cms = await testCms(dialect);
    for (const method of ['GET', 'HEAD']) {
      const res = await cms.app.request('/', { method });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/_cms/admin/');
    }
    expect((await cms.app.request('/', { method: 'POST' })).status).toBe(404);
  });
});
