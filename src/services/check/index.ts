import { setImmediate as nextTurn } from 'node:timers/promises';
import { type Actor, requirePermission } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { issuesError } from '../../core/errors.js';
import type { ServiceContext } from '../context.js';
import type { createMediaService } from '../media/index.js';
import type { createMediaUsageService } from '../media-usage/index.js';
import type { createSchemaService } from '../schema/index.js';
import type { createSearchService } from '../search/index.js';
import {
  CHECK_IDS,
  type CheckEnv,
  type CheckId,
  type CheckReport,
  type CheckSummary,
  FINDINGS_KEPT,
  type Finding,
  type FindingSink,
} from './model.js';
import { CHECKS } from './registry.js';

export interface CheckDeps {
  schema: ReturnType<typeof createSchemaService>;
  media: ReturnType<typeof createMediaService>;
  search: ReturnType<typeof createSearchService>;
  mediaUsage: ReturnType<typeof createMediaUsageService>;
}

export interface CheckInput {
  /** Only these checks (default: all, in CHECK_IDS order). */
  checks?: CheckId[];
  repair?: boolean;
}

/**
 * The consistency checker (`cms check`, GET /admin/check, POST /admin/check/repair): verifies derived
 * and referential state against what the content implies and, when asked, repairs what can be
 * derived. Administrators only (`site:check`); a repair is a write, so the site's write gates
 * (site import, media usage activation) refuse it like any other.
 */
export function createCheckService(ctx: ServiceContext, deps: CheckDeps) {
  async function run(actor: Actor, input: CheckInput = {}): Promise<CheckReport> {
    requirePermission(actor, 'site:check');
    const wanted = input.checks?.length ? input.checks : [...CHECK_IDS];
    const unknown = wanted.filter((id) => !CHECK_IDS.includes(id));
    if (unknown.length) {
      throw issuesError(
        'Unknown checks',
        unknown.map((id) => ({
          path: ['checks'],
          code: 'unknown_check',
          message: `"${id}" is not one of ${CHECK_IDS.join(', ')}`,
        })),
      );
    }
    const repair = input.repair === true;
    const started = Date.now();
    const startedAt = isoNow(ctx.clock);
    const checks: CheckSummary[] = [];
    for (const check of CHECKS.filter((c) => wanted.includes(c.id))) {
      // Each check reads the schema as it is when it starts: a repair of one may follow a change.
      const env: CheckEnv<CheckDeps> = { ctx, snap: await deps.schema.snapshot(), repair, deps, actor };
      const { sink, summary } = collector(check.id, check.title);
      const began = Date.now();
      await check.run(env as CheckEnv, sink);
      checks.push({ ...summary(), durationMs: Date.now() - began });
      await nextTurn();
    }
    const problems = checks.reduce((n, c) => n + c.problems, 0);
    const repaired = checks.reduce((n, c) => n + c.repaired, 0);
    return {
      status: problems === 0 ? 'ok' : repaired === problems ? 'repaired' : 'problems',
      repair,
      startedAt,
      durationMs: Date.now() - started,
      checks,
    };
  }

  return { run };
}

function collector(id: CheckId, title: string): { sink: FindingSink; summary: () => Omit<CheckSummary, 'durationMs'> } {
  const findings: Finding[] = [];
  let problems = 0;
  let repaired = 0;
  let note: string | null = null;
  const sink: FindingSink = {
    add(f) {
      problems++;
      if (f.repaired) repaired++;
      if (findings.length < FINDINGS_KEPT) {
        findings.push({
          code: f.code,
          message: f.message,
          collection: f.collection ?? null,
          subject: f.subject ?? null,
          repairable: f.repairable,
          repaired: f.repaired === true,
        });
      }
    },
    skip(why) {
      note = why;
    },
  };
  const summary = () => ({
    id,
    title,
    status: problems ? ('problems' as const) : note ? ('skipped' as const) : ('ok' as const),
    problems,
    repaired,
    note,
    findings,
  });
  return { sink, summary };
}

export type CheckService = ReturnType<typeof createCheckService>;
export type { CheckId, CheckReport } from './model.js';
