import type { Logger } from '../core/log.js';

/**
 * Work that runs after the answer has been sent (mail, and the lookups whose
 * duration would tell an attacker something). Failures are logged, never
 * thrown at a caller who has already been answered. `settled()` waits for
 * everything started so far: shutdown calls it before closing the database.
 */
export function backgroundTasks(log: Logger) {
  const pending = new Set<Promise<void>>();

  function run(what: string, task: () => Promise<void>): void {
    // setImmediate, not a microtask: the answer is on its way before the task does any work (on SQLite a
    // query runs synchronously, so a microtask would still delay the answer by the task's own work).
    const promise: Promise<void> = new Promise<void>((start) => setImmediate(start))
      .then(task)
      .catch((err: unknown) => log.error({ err }, `${what} failed`))
      .finally(() => pending.delete(promise));
    pending.add(promise);
  }

  async function settled(): Promise<void> {
    while (pending.size) await Promise.allSettled([...pending]);
  }

  return { run, settled };
}

export type BackgroundTasks = ReturnType<typeof backgroundTasks>;

/**
 * A pass that repeats every `intervalMs` in each process (scheduler, sweeps, index builds): a pass never
 * overlaps the previous one, a failure is logged and the next tick tries again, the timer does not keep
 * the process alive, and `stop()` waits for a pass under way.
 */
export function periodic(log: Logger, what: string, defaultIntervalMs: number, pass: () => Promise<unknown>) {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  function start(intervalMs = defaultIntervalMs): void {
    if (timer) return;
    timer = setInterval(() => {
      if (running) return;
      running = pass()
        .catch((err) => log.error({ err }, `${what} failed`))
        .finally(() => {
          running = null;
        });
    }, intervalMs);
    timer.unref();
  }

  async function stop(): Promise<void> {
    if (timer) clearInterval(timer);
    timer = null;
    await running;
  }

  return { start, stop };
}
