import { ApiError, UsageError } from '../errors.js';
import type { ImportDecisions, Target, TransferImport, TransferImportPlan } from '../target/types.js';
import { plural } from './counts.js';
import type { Progress } from './progress.js';
import { followSteps } from './steps.js';

/**
 * Driving an import on the site as it asks (`nextRequestInMs`): the
 * analysis until there is a plan, then, once executed, the steps until it
 * is complete; and the decisions an administrator gives on the command
 * line, turned into the API's.
 */

/** Analyse until the import has a plan (on a planned import: plan again against the site as it is now). */
export async function analyzeImport(target: Target, started: TransferImport, progress: Progress) {
  const imports = target.transfer.imports;
  progress.step(`Analysing import ${started.id} …`);
  let steps = 1;
  const op = await followSteps(
    await imports.analyze(started.id),
    (id) => imports.analyze(id),
    () => progress.tick(`Analysing: step ${++steps}`),
  );
  if (op.state !== 'planned') {
    throw new ApiError(op.error?.code ?? 'ANALYSIS_FAILED', op.error?.message ?? `The analysis ended ${op.state}`, {
      importId: op.id,
    });
  }
  return op;
}

/** An import that ended without completing: its state and error as the site gave them. */
export class ImportEnded extends ApiError {
  constructor(readonly op: TransferImport) {
    super(op.error?.code ?? `IMPORT_${op.state.toUpperCase()}`, op.error?.message ?? `The import ended ${op.state}`, {
      importId: op.id,
    });
  }
}

const recordsDone = (op: TransferImport) => op.progress.records ?? op.progress.done;

/** Advance an executing import until the site says there is nothing left to do. */
export async function advanceImport(target: Target, started: TransferImport, progress: Progress) {
  const op = await followSteps(
    started,
    (id) => target.transfer.imports.advance(id),
    (at) => progress.tick(`Importing: ${recordsDone(at)}/${at.progress.total} records`),
  );
  if (op.state !== 'complete') throw new ImportEnded(op);
  progress.step(`Import ${op.id} complete: ${plural(recordsDone(op), 'record')} written`);
  return op;
}

/** What the command line says about decisions, before the plan is known. */
export interface DecisionOptions {
  map?: string[];
  create?: string[];
  keepTitle?: boolean;
  keepTagline?: boolean;
}

export interface DecisionRequest {
  map: Array<[string, string]>;
  create: string[];
  title?: 'package' | 'target';
  tagline?: 'package' | 'target';
}

/** Check the options' form (a usage error before anything is sent); null when none is given. */
export function decisionRequest(opts: DecisionOptions): DecisionRequest | null {
  const map = (opts.map ?? []).map((pair): [string, string] => {
    const at = pair.indexOf('=');
    const from = pair.slice(0, at).trim();
    const to = pair.slice(at + 1).trim();
    if (at < 0 || !from || !to) {
      throw new UsageError(`--map takes PACKAGE_USER=SITE_USER (IDs, a name or an e-mail address), not "${pair}"`);
    }
    return [from, to];
  });
  const create = (opts.create ?? []).map((u) => u.trim());
  const both = create.filter((u) => map.some(([from]) => from === u));
  if (both.length) throw new UsageError(`${both[0]} is given to both --map and --create: choose one`);
  const pick = (keep: boolean | undefined) => (keep === undefined ? undefined : keep ? 'target' : 'package');
  const request = { map, create, title: pick(opts.keepTitle), tagline: pick(opts.keepTagline) } as const;
  return map.length || create.length || request.title || request.tagline ? request : null;
}

/** A package user by ID, or by its name when only one has it. */
function packageUser(plan: TransferImportPlan, given: string): string {
  const users = plan.principals.items;
  if (users.some((p) => p.id === given)) return given;
  const named = users.filter((p) => p.name !== null && p.name.toLowerCase() === given.toLowerCase());
  if (named.length === 1) return named[0].id;
  if (named.length > 1) {
    throw new UsageError(
      `${named.length} package users are named ${given}: give an ID (${named.map((p) => p.id).join(', ')})`,
    );
  }
  const known = users.slice(0, 10).map((p) => `${p.id} (${p.name ?? 'no name'})`);
  throw new UsageError(
    `No package user ${given}; the package's users: ${known.join(', ') || 'none'}${users.length > 10 ? ', …' : ''}`,
  );
}

/** A user of this site by ID, or by e-mail address. */
async function siteUser(target: Target, given: string): Promise<string> {
  if (!given.includes('@')) return given;
  const email = given.toLowerCase();
  let cursor: string | undefined;
  do {
    const page = await target.users.list({ search: email, limit: 100, cursor });
    const hit = page.items.find((u) => u.email.toLowerCase() === email);
    if (hit) return hit.id;
    cursor = page.nextCursor;
  } while (cursor);
  throw new UsageError(`No user with the e-mail address ${given} on this site (see cms users list)`);
}

/** The API's decisions for the request, its users found in the plan and on the site. */
export async function resolveDecisions(
  target: Target,
  plan: TransferImportPlan,
  request: DecisionRequest,
): Promise<ImportDecisions> {
  const principals: Record<string, string | null> = {};
  for (const [from, to] of request.map) principals[packageUser(plan, from)] = await siteUser(target, to);
  for (const user of request.create) principals[packageUser(plan, user)] = null;
  return {
    ...(Object.keys(principals).length ? { principals } : {}),
    ...(request.title ? { title: request.title } : {}),
    ...(request.tagline ? { tagline: request.tagline } : {}),
  };
}
