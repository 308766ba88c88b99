import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import {
  abandonImport,
  advanceImport,
  analyzeImport,
  cancelImport,
  createImport,
  type DecisionsInput,
  executeImport,
  type ImportPlan,
  importKeys,
  patchImportList,
  type TransferImport,
} from '../../api/transferImport';
import { openArchive, type UploadProgress, uploadArchive } from './importArchive';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the page is doing for the current import right now. */
export type ImportActivity =
  | 'idle'
  | 'reading'
  | 'uploading'
  | 'analyzing'
  | 'deciding'
  | 'executing'
  | 'cancelling'
  | 'abandoning';

export interface ImportRunner {
  /** The import this page shows (its latest answer). */
  current: TransferImport | null;
  activity: ImportActivity;
  /** Files and bytes while this page uploads. */
  upload: UploadProgress | null;
  /** Analysis steps sent this time (the service reports no finer progress while it analyzes). */
  analyzeSteps: number;
  /** A failed request or a refused archive; a failed import says why in its own `error`. */
  error: unknown;
  busy: boolean;
  /** Read the archive, create an import, upload it, analyze it. */
  start: (file: File) => void;
  /** Upload what `op` still misses from the archive picked again, then analyze. */
  resume: (op: TransferImport, file: File) => void;
  /** Run the analysis of an analyzing import (or start one for an uploaded import) to its plan. */
  analyze: (op: TransferImport) => void;
  /** New decisions on the plan shown, or the same ones again (`{}`: the plan made anew against the site as it is). */
  decide: (decisions: DecisionsInput | null) => void;
  execute: (plan: ImportPlan) => void;
  /** Drive an executing import (left by a reload, or by the CLI or an MCP client) to its end. */
  drive: (op: TransferImport) => void;
  cancel: () => void;
  abandon: () => void;
  /** Show an earlier import here (without sending anything). */
  open: (op: TransferImport) => void;
  /** Show the form for a new import again. */
  close: () => void;
  /** Take a fresher copy of the current import (the list refreshes while the worker moves it on). */
  refresh: (op: TransferImport) => void;
}

const isAbort = (err: unknown) => err instanceof DOMException && err.name === 'AbortError';

/**
 * Drives an import from the page, one request at a time: upload, then
 * `analyze` until `nextRequestInMs` is null (planned), then — once the
 * administrator confirms — `execute` and `advance` until it is null again,
 * waiting `nextRequestInMs` between steps (0: at once; 1000: another process
 * holds the step). Each answer goes into the cached list too. Leaving the
 * page stops the loop and aborts uploads in flight; an executing import is
 * finished by the server's background worker anyway, and the list offers
 * "Continue" for the rest.
 */
export function useImportRunner(): ImportRunner {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState<TransferImport | null>(null);
  const [activity, setActivity] = useState<ImportActivity>('idle');
  const [upload, setUpload] = useState<UploadProgress | null>(null);
  const [analyzeSteps, setAnalyzeSteps] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const alive = useRef(true);
  const busy = useRef(false);
  const uploads = useRef<AbortController | null>(null);
  /** Cancel was asked for: the loops send nothing more (the service would refuse another step). */
  const halted = useRef(false);
  const latest = useRef<TransferImport | null>(null);
  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      uploads.current?.abort();
    };
  }, []);

  // Leaving while files go up would lose the uploads in flight: ask first.
  useEffect(() => {
    if (activity !== 'uploading') return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [activity]);

  function show(op: TransferImport) {
    // Answers of uploads running side by side may arrive out of order: keep the newest.
    const known = latest.current;
    if (known?.id === op.id && op.updatedAt < known.updatedAt) return;
    latest.current = op;
    if (!alive.current) return;
    setCurrent(op);
    patchImportList(queryClient, op);
  }

  const go = (a: ImportActivity) => alive.current && setActivity(a);

  async function analyzeLoop(first: TransferImport): Promise<TransferImport> {
    let op = first;
    let steps = 0;
    setAnalyzeSteps(0);
    if (op.state === 'uploading' && !halted.current) {
      op = await analyzeImport(op.id);
      setAnalyzeSteps(++steps);
      show(op);
    }
    while (op.state === 'analyzing' && op.nextRequestInMs !== null && alive.current && !halted.current) {
      if (op.nextRequestInMs > 0) await sleep(op.nextRequestInMs);
      if (!alive.current || halted.current) break;
      op = await analyzeImport(op.id);
      setAnalyzeSteps(++steps);
      show(op);
    }
    return op;
  }

  async function advanceLoop(first: TransferImport): Promise<TransferImport> {
    let op = first;
    while (op.state === 'executing' && op.nextRequestInMs !== null && alive.current && !halted.current) {
      if (op.nextRequestInMs > 0) await sleep(op.nextRequestInMs);
      if (!alive.current || halted.current) break;
      op = await advanceImport(op.id);
      show(op);
    }
    return op;
  }

  /** One run of work at a time; errors land in `error`, the list is refreshed after. */
  async function run(work: () => Promise<void>) {
    if (busy.current) return;
    busy.current = true;
    halted.current = false;
    setError(null);
    try {
      await work();
    } catch (err) {
      // After a cancel, what the interrupted work ran into is no news.
      if (alive.current && !isAbort(err) && !halted.current) setError(err);
    } finally {
      busy.current = false;
      uploads.current = null;
      go('idle');
      if (alive.current) setUpload(null);
      const op = latest.current;
      // A finished import wrote the whole site: every cached list and setting is out of date.
      if (op?.state === 'complete') await queryClient.invalidateQueries();
      else await queryClient.invalidateQueries({ queryKey: importKeys.list });
    }
  }

  async function uploadThenAnalyze(op: TransferImport, archive: Awaited<ReturnType<typeof openArchive>>) {
    go('uploading');
    const controller = new AbortController();
    uploads.current = controller;
    const uploaded = await uploadArchive(op, archive, {
      signal: controller.signal,
      onProgress: (p) => alive.current && setUpload(p),
      onView: show,
    });
    uploads.current = null;
    show(uploaded);
    if (halted.current) return;
    go('analyzing');
    await analyzeLoop(uploaded);
  }

  return {
    current,
    activity,
    upload,
    analyzeSteps,
    error,
    busy: activity !== 'idle',
    start: (file) =>
      void run(async () => {
        go('reading');
        setCurrent(null);
        latest.current = null;
        // The archive is checked before anything is created, so a wrong file leaves no import behind.
        const archive = await openArchive(file);
        const op = await createImport();
        show(op);
        await uploadThenAnalyze(op, archive);
      }),
    resume: (op, file) =>
      void run(async () => {
        go('reading');
        show(op);
        await uploadThenAnalyze(op, await openArchive(file));
      }),
    analyze: (op) =>
      void run(async () => {
        go('analyzing');
        show(op);
        await analyzeLoop(op);
      }),
    decide: (decisions) =>
      void run(async () => {
        const op = latest.current;
        if (!op) return;
        go('deciding');
        show(await analyzeImport(op.id, decisions ?? undefined));
      }),
    execute: (plan) =>
      void run(async () => {
        const op = latest.current;
        if (!op) return;
        go('executing');
        const started = await executeImport(op.id, { packageDigest: plan.packageDigest, planDigest: plan.planDigest });
        show(started);
        await advanceLoop(started);
      }),
    drive: (op) =>
      void run(async () => {
        show(op);
        if (op.state === 'executing') {
          go('executing');
          await advanceLoop(op);
        } else if (op.state === 'analyzing') {
          go('analyzing');
          await analyzeLoop(op);
        }
      }),
    cancel: () => {
      const op = latest.current;
      if (!op) return;
      // Stop this page's own work first (uploads in flight, the step loop), then tell the service.
      const wasBusy = busy.current;
      if (wasBusy) halted.current = true;
      uploads.current?.abort();
      const send = async () => {
        go('cancelling');
        show(await cancelImport(op.id));
      };
      if (!wasBusy) {
        void run(send);
        return;
      }
      // A loop is running: halted, it sends nothing more; the cancel goes out beside it.
      void send()
        .catch((err) => alive.current && setError(err))
        .finally(() => queryClient.invalidateQueries({ queryKey: importKeys.list }));
    },
    abandon: () =>
      void run(async () => {
        const op = latest.current;
        if (!op) return;
        go('abandoning');
        show(await abandonImport(op.id));
        // Abandon undid what the import wrote: cached lists may show it.
        await queryClient.invalidateQueries();
      }),
    open: (op) => {
      if (busy.current) return;
      setError(null);
      show(op);
    },
    close: () => {
      if (busy.current) return;
      setError(null);
      latest.current = null;
      setCurrent(null);
    },
    refresh: (op) => {
      if (busy.current || latest.current?.id !== op.id) return;
      if (latest.current.updatedAt < op.updatedAt) {
        latest.current = op;
        setCurrent(op);
      }
    },
  };
}
