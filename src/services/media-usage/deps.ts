import { type Actor, requirePermission, requireScope } from '../../auth/actor.js';
import type { ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
import type { StateOps } from './state.js';

/** What the usage operations are built from. */
export interface UsageDeps {
  ctx: ServiceContext;
  schema: SchemaService;
  state: StateOps;
  /** Entries one index step reads. */
  batch: number;
  /** How long a claimed work item stays with the process that claimed it. */
  leaseMs: number;
}

/** Operator operations: `schema:manage`, and for tokens also the `admin` scope. */
export function requireOperator(actor: Actor): void {
  requirePermission(actor, 'schema:manage');
  if (actor.scopes !== null) requireScope(actor, 'admin');
}
