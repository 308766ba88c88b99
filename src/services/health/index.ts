import { sql } from 'kysely';
import { migrations } from '../../db/migrations/index.js';
import type { ServiceContext } from '../context.js';

export type CheckState = 'ok' | 'unreachable' | 'pending' | 'unknown' | 'draining';

export interface Readiness {
  ready: boolean;
  checks: { database: CheckState; migrations: CheckState; process: CheckState };
}

/** A readiness probe must answer promptly even when the database hangs. */
export const READY_TIMEOUT_MS = 2_000;

/**
 * Liveness and readiness for load balancers and orchestrators. Live: the
 * process answers. Ready: the database answers within READY_TIMEOUT_MS, every
 * migration this code knows is applied (once true, remembered: migrations are
 * never undone), and the process is not shutting down.
 */
export function createHealthService(ctx: ServiceContext) {
  const expected = migrations.map((m) => m.name);
  let migrated = false;
  let draining = false;

  async function migrationsApplied(): Promise<boolean> {
    if (migrated) return true;
    const rows = await ctx.db.selectFrom('_cms_migrations').select('name').execute();
    const done = new Set(rows.map((r) => r.name));
    migrated = expected.every((name) => done.has(name));
    return migrated;
  }

  async function ready(): Promise<Readiness> {
    const checks: Readiness['checks'] = {
      database: 'unknown',
      migrations: 'unknown',
      process: draining ? 'draining' : 'ok',
    };
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS);
    });
    const probe = (async () => {
      await sql`select 1`.execute(ctx.db);
      checks.database = 'ok';
      checks.migrations = (await migrationsApplied()) ? 'ok' : 'pending';
      return 'done' as const;
    })().catch(() => 'failed' as const);
    const outcome = await Promise.race([probe, timeout]);
    clearTimeout(timer);
    if (outcome !== 'done' && checks.database !== 'ok') checks.database = 'unreachable';
    return { ready: Object.values(checks).every((c) => c === 'ok'), checks };
  }

  return {
    ready,
    /** Shutting down: readiness fails from now on, so balancers stop sending new requests. */
    drain: () => {
      draining = true;
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
