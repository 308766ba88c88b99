import { ApiError, CliError } from '../errors.js';
import type { Output } from '../io.js';
import type { Target } from '../target/types.js';
import type { Plan } from './plan.js';

/**
 * Run a plan's steps in order, with progress on stderr. Each step is one
 * API call (or a few) and its own transaction; when one fails, the ones
 * before it stay applied and the message says so — the plan is computed
 * from what the target has, so running the command again continues.
 */
export async function applyPlan(target: Target, plan: Plan, out: Output): Promise<void> {
  const ctx = { target, relations: new Map<string, string>() };
  const total = plan.steps.length;
  for (const [i, step] of plan.steps.entries()) {
    out.progress(`[${i + 1}/${total}] ${step.text}`);
    try {
      await step.run(ctx);
    } catch (err) {
      const done = i === 0 ? 'No step was applied' : `Steps 1–${i} were applied`;
      const prefix = `Step ${i + 1}/${total} (${step.text}) failed: `;
      const suffix = `\n  ${done}; fix the problem and run the command again to continue.`;
      if (err instanceof ApiError)
        throw new ApiError(err.code, `${prefix}${err.message}${suffix}`, err.details, err.status);
      if (err instanceof CliError) throw new CliError(`${prefix}${err.message}${suffix}`, err.exitCode);
      throw err;
    }
  }
}

export function printPlan(out: Output, plan: Plan, where: string): void {
  if (!plan.steps.length) out.line(`${where}: no changes.`);
  else {
    const destructive = plan.steps.filter((s) => s.destructive).length;
    out.line(
      `${where}: ${plan.steps.length} change${plan.steps.length === 1 ? '' : 's'}${destructive ? `, ${destructive} destructive` : ''}`,
    );
    for (const step of plan.steps) out.line(`  ${step.text}${step.destructive ? '   [destructive]' : ''}`);
  }
  for (const note of plan.notes) out.line(`  (${note})`);
}
