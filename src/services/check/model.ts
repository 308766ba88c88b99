import type { Actor } from '../../auth/actor.js';
import type { CheckId } from '../../core/checks.js';
import type { ServiceContext } from '../context.js';
import type { SchemaSnapshot } from '../schema/model.js';

export { CHECK_IDS, type CheckId } from '../../core/checks.js';

/** One thing found wrong. `subject` names the row or object (collection slug, entry ID, storage key …). */
export interface Finding {
  code: string;
  message: string;
  collection: string | null;
  subject: string | null;
  /** Whether `--repair` can fix it from the rest of the data. */
  repairable: boolean;
  /** Set when this run repaired it. */
  repaired: boolean;
}

/** A check's part of the report: counts of everything, the first findings in full. */
export interface CheckSummary {
  id: CheckId;
  title: string;
  /** ok: nothing wrong; problems: something is (repaired or not); skipped: did not apply (see note). */
  status: 'ok' | 'problems' | 'skipped';
  problems: number;
  repaired: number;
  note: string | null;
  findings: Finding[];
  durationMs: number;
}

export interface CheckReport {
  /** ok when no check found anything; repaired when every problem found was repaired; else problems. */
  status: 'ok' | 'repaired' | 'problems';
  repair: boolean;
  startedAt: string;
  durationMs: number;
  checks: CheckSummary[];
}

/** At most this many findings per check are kept in full; the counts cover all of them. */
export const FINDINGS_KEPT = 100;
/** Rows read or repaired per statement and per repair transaction (bounded steps on large sites). */
export const CHECK_BATCH = 500;

/** Where a check reports: it never holds more than FINDINGS_KEPT findings in memory. */
export interface FindingSink {
  /** Record a finding; `repaired` true when the check already fixed it. */
  add(f: {
    code: string;
    message: string;
    collection?: string | null;
    subject?: string | null;
    repairable: boolean;
    repaired?: boolean;
  }): void;
  /** Say why the check did not apply (it then reports `skipped` unless it found something). */
  skip(note: string): void;
}

export interface CheckEnv<D = unknown> {
  ctx: ServiceContext;
  snap: SchemaSnapshot;
  /** Fix what can be derived, in bounded steps of their own transactions. */
  repair: boolean;
  deps: D;
  /** Who runs the check (repairs that go through a service's own permission check act as them). */
  actor: Actor;
}

export interface Check<D = unknown> {
  id: CheckId;
  title: string;
  run(env: CheckEnv<D>, sink: FindingSink): Promise<void>;
}
