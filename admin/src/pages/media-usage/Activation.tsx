import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { activateUsage, advanceUsageProgress, type UsageProgress, usageKeys } from '../../api/mediaUsage';
import { Button } from '../../components/Button';
import { ErrorMessage, Notice } from '../../components/Feedback';
import { Section } from '../../components/Page';
import { FINISHED } from './words';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends progress requests one at a time, waiting `nextRequestInMs` after each,
 * until it is null; stops when the page is left or paused (finished steps stay
 * recorded on the server, so the next visit simply continues).
 */
function useProgressLoop() {
  const queryClient = useQueryClient();
  const [running, setRunning] = useState(false);
  /** Whether this visit drove progress (the panel then stays to say it finished). */
  const [started, setStarted] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const stop = useRef(false);
  useEffect(
    () => () => {
      stop.current = true;
    },
    [],
  );
  async function run(first?: () => Promise<unknown>) {
    stop.current = false;
    setRunning(true);
    setStarted(true);
    setError(null);
    try {
      if (first) await first();
      for (;;) {
        const p = await advanceUsageProgress();
        queryClient.setQueryData(usageKeys.progress, p);
        if (p.nextRequestInMs === null || stop.current) break;
        await sleep(p.nextRequestInMs);
        if (stop.current) break;
      }
    } catch (err) {
      setError(err);
    } finally {
      setRunning(false);
      // The server's word on where it stopped (a failed step sets lastErrorCode), and fresh work items.
      await queryClient.invalidateQueries({ queryKey: usageKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['media'] });
    }
  }
  return {
    running,
    started,
    error,
    run,
    pause: () => {
      stop.current = true;
    },
  };
}

/** Activation after an upgrade, historical indexing, and the one confirmed retry after a failed step. */
export function ActivationPanel({ progress }: { progress: UsageProgress }) {
  const loop = useProgressLoop();
  const [drained, setDrained] = useState(false);
  const failed = progress.lastErrorCode !== null;
  const needsWork = progress.state !== 'active' || progress.nextRequestInMs !== null || failed;
  if (!needsWork && !loop.started) return null;

  const total = progress.collections.length;
  const finished = progress.collections.filter((c) => FINISHED.has(c.status)).length;
  const confirm = (
    <label className="check">
      <input type="checkbox" checked={drained} onChange={(e) => setDrained(e.target.checked)} />
      <span>
        Direct database writers are stopped (other programs writing the tables; the service cannot stop them).
      </span>
    </label>
  );

  return (
    <Section
      id="usage-activation"
      title={progress.state === 'active' ? 'Historical indexing' : 'Activation'}
      description="Activation prepares each collection, then indexes the existing entries in steps. It cannot be cancelled or undone."
    >
      <div className="stack">
        {progress.state === 'expanded' && !failed ? (
          <>
            <p>
              While activating, every write through the REST API, MCP and the CLI is refused (signing in and this page
              keep working). Stop any other program that writes to the database first.
            </p>
            {confirm}
            <div className="actions">
              <Button
                variant="primary"
                disabled={!drained}
                busy={loop.running}
                busyLabel="Activating…"
                onClick={() => loop.run(() => activateUsage(false))}
              >
                Activate usage tracking
              </Button>
            </div>
          </>
        ) : null}

        {failed ? (
          <>
            <div className="alert alert--error" role="alert">
              <p>
                A step stopped on <code className="code">{progress.lastErrorCode}</code>. Keep writers stopped, resolve
                the problem (see the work items below), then send one confirmed retry.
              </p>
            </div>
            {confirm}
            <div className="actions">
              <Button
                variant="primary"
                disabled={!drained}
                busy={loop.running}
                busyLabel="Retrying…"
                onClick={() => loop.run(() => activateUsage(true))}
              >
                Retry and continue
              </Button>
            </div>
          </>
        ) : null}

        {!failed && progress.state !== 'expanded' ? (
          <div className="index__progress">
            <progress value={finished} max={Math.max(total, 1)} aria-label="Collections indexed" />
            <span>
              {finished} of {total} collections indexed · coverage {progress.coverage}
              {progress.nextRequestInMs === null ? ' · finished' : ''}
            </span>
            <div className="actions">
              {loop.running ? (
                <Button size="small" onClick={loop.pause}>
                  Pause
                </Button>
              ) : progress.nextRequestInMs !== null ? (
                <Button size="small" variant="primary" onClick={() => loop.run()}>
                  {progress.state === 'activating' ? 'Continue activation' : 'Continue indexing'}
                </Button>
              ) : null}
            </div>
          </div>
        ) : null}

        {!loop.running && !needsWork ? <Notice tone="success">Historical indexing is finished.</Notice> : null}
        <ErrorMessage error={loop.error} />
      </div>
    </Section>
  );
}
