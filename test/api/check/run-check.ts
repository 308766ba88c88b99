import { personActor } from '../../../src/auth/actor.js';
import { ROLES } from '../../../src/auth/roles.js';
import type { CheckDeps } from '../../../src/services/check/index.js';
import type { Check } from '../../../src/services/check/model.js';
import type { TestCms } from '../../helpers/cms.js';

/** The test site's first user, as the checker's callers pass an Administrator. */
export const adminActor = (cms: TestCms) =>
  personActor({ id: cms.adminId, name: 'Admin', email: 'admin@example.test', role: ROLES.ADMIN }, 'cli');

/**
 * Run one check object directly (one built with a small batch, to walk its step boundaries),
 * with the environment the checker service gives it; every finding is kept.
 */
export async function runCheck(cms: TestCms, check: Check<CheckDeps>, repair: boolean) {
  const findings: Array<{ code: string; subject?: string | null; repaired?: boolean }> = [];
  let note: string | null = null;
  const s = cms.services;
  await check.run(
    {
      ctx: cms.ctx,
      snap: await s.schema.snapshot(),
      repair,
      deps: { schema: s.schema, media: s.media, search: s.search, mediaUsage: s.mediaUsage },
      actor: adminActor(cms),
    },
    {
      add: (f) => findings.push(f),
      skip: (why) => {
        note = why;
      },
    },
  );
  return { findings, note: note as string | null, codes: findings.map((f) => `${f.code}:${f.subject}`).sort() };
}
