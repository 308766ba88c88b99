/**
 * Child-process entry (forked by bench/run.ts): hosts the service and the baseline so the load
 * generator in the parent does not share their event loop. Protocol over IPC:
 *   child → parent  { type: 'ready', info: TargetInfo } | { type: 'failed', message }
 *   parent → child  { type: 'close' }  (the child cleans up and exits)
 */
import { selectScenarios } from './scenarios.js';
import { type DbKind, startTarget, type TargetInfo } from './target.js';

export type ChildMessage = { type: 'ready'; info: TargetInfo } | { type: 'failed'; message: string };

const send = (message: ChildMessage, then?: () => void) => process.send?.(message, undefined, undefined, then);

try {
  const { close, ...info } = await startTarget((process.env.BENCH_DB ?? 'sqlite') as DbKind, selectScenarios());
  let closing = false;
  const shutdown = async () => {
    if (closing) return;
    closing = true;
    await close();
    process.exit(0);
  };
  process.on('message', (m: { type?: string }) => {
    if (m?.type === 'close') void shutdown();
  });
  // The parent died without asking: do not leave the temp dir or the PostgreSQL schema behind.
  process.on('disconnect', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  // Ctrl-C reaches the whole process group; the parent answers it by sending 'close'.
  process.on('SIGINT', () => {});
  send({ type: 'ready', info });
} catch (err) {
  send({ type: 'failed', message: (err as Error).stack ?? String(err) }, () => process.exit(1));
}
