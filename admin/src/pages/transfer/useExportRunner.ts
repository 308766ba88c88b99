import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { advanceExport, patchExportList, startExport, type TransferExport, transferKeys } from '../../api/transfer';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ExportRunner {
  /** The export this page drives or drove last (its latest answer). */
  current: TransferExport | null;
  /** Whether steps are being sent now. */
  running: boolean;
  starting: boolean;
  /** A failed request (start or step); a failed export says why in its own `error`. */
  error: unknown;
  start: (comments: boolean) => void;
  /** Drive an export that is running (left by a reload, or started elsewhere) to its end. */
  drive: (op: TransferExport) => void;
}

/**
 * Drives an export from the page: sends `advance` one step at a time, waiting
 * `nextRequestInMs` after each (0: at once; 1000: another process holds the
 * step), until it is null. Each answer goes into the cached list too. Leaving
 * the page stops the loop; the server's background worker finishes the
 * export anyway, and "Continue" picks it up again.
 */
export function useExportRunner(): ExportRunner {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState<TransferExport | null>(null);
  const [running, setRunning] = useState(false);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const alive = useRef(true);
  const busy = useRef(false);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  function show(op: TransferExport) {
    setCurrent(op);
    patchExportList(queryClient, op);
  }

  async function loop(first: TransferExport) {
    let op = first;
    show(op);
    try {
      while (op.nextRequestInMs !== null && alive.current) {
        if (op.nextRequestInMs > 0) await sleep(op.nextRequestInMs);
        if (!alive.current) break;
        op = await advanceExport(op.id);
        if (alive.current) show(op);
      }
    } catch (err) {
      if (alive.current) setError(err);
    }
  }

  async function run(first: () => Promise<TransferExport>) {
    if (busy.current) return;
    busy.current = true;
    setError(null);
    setRunning(true);
    try {
      await loop(await first());
    } catch (err) {
      if (alive.current) setError(err);
    } finally {
      busy.current = false;
      if (alive.current) {
        setRunning(false);
        setStarting(false);
      }
      await queryClient.invalidateQueries({ queryKey: transferKeys.exports });
    }
  }

  return {
    current,
    running,
    starting,
    error,
    start: (comments) => {
      setStarting(true);
      setCurrent(null);
      void run(async () => {
        const op = await startExport(comments);
        if (alive.current) setStarting(false);
        return op;
      });
    },
    drive: (op) => {
      void run(async () => op);
    },
  };
}
