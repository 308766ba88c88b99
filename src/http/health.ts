import type { Hono } from 'hono';
import type { AppEnv } from './env.js';

/** Health endpoints live outside /_cms/api: no authentication, no envelope, as balancers expect. */
export const HEALTH_ROOT = '/_cms/health';

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * `GET /_cms/health/live` — 200 while the process answers (restart it otherwise).
 * `GET /_cms/health/ready` — 200 when it can serve (database reachable, migrations applied, not
 * shutting down), else 503 with the failing check; send traffic only while it is 200.
 */
export function healthRoutes(app: Hono<AppEnv>): void {
  app.on(['GET', 'HEAD'], `${HEALTH_ROOT}/live`, (c) => c.json({ status: 'ok' }, 200, NO_STORE));
  app.on(['GET', 'HEAD'], `${HEALTH_ROOT}/ready`, async (c) => {
    const { ready, checks } = await c.get('services').health.ready();
    return c.json({ status: ready ? 'ok' : 'unavailable', checks }, ready ? 200 : 503, NO_STORE);
  });
}

/** The service serves nothing at `/`: send people who open it to the admin. */
export function rootRedirect(app: Hono<AppEnv>, adminRoot: string): void {
  app.on(['GET', 'HEAD'], '/', (c) => c.redirect(`${adminRoot}/`, 302));
}
