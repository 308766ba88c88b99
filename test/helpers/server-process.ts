import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { ROOT } from './process.js';

/** One JSON log line of the server (pino). */
export interface LogLine {
  level: number;
  msg: string;
  time: string;
  [key: string]: unknown;
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Every JSON log line written so far, in the order the server wrote them. */
  logs: LogLine[];
  /** Resolves with the first log line (written so far or later) that matches. */
  waitForLog(match: (line: LogLine) => boolean): Promise<LogLine>;
  /** Resolves with the exit code (or the signal that ended the process). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

const START_TIMEOUT_MS = 45_000;

/** The Node flags of `npm start` (package.json), so the child runs with the heap the service ships with. */
const START_FLAGS = ['--max-semi-space-size=2', '--max-old-space-size=512', '--v8-pool-size=1'];

/**
 * The real server in a child process, started through the process entry that `npm start` and
 * `cms serve` run (serveMain in src/main.ts), on port 0; resolves once it prints where it listens.
 *
 * One node process with tsx as an import hook, not the `tsx` command: that one runs the script in a
 * second process and, on SIGTERM, SIGKILLs it unless it confirms the signal within 30 ms, which a
 * server busy with a request does not do on a loaded machine: a signal test would measure tsx.
 */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...START_FLAGS, '--import', 'tsx', resolve(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', ...env },
  });
  const logs: LogLine[] = [];
  const waiters: Array<{ match: (line: LogLine) => boolean; done: (line: LogLine) => void }> = [];
  let out = '';
  let err = '';
  let pending = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}\n${err}`)), START_TIMEOUT_MS);
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      pending += d;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const text of lines) {
        const listening = /listening on (http:\/\/\S+)/.exec(text);
        if (listening && !text.startsWith('{')) {
          clearTimeout(timer);
          resolve(listening[1]);
        }
        if (!text.startsWith('{')) continue;
        const line = JSON.parse(text) as LogLine;
        logs.push(line);
        for (const w of [...waiters]) {
          if (w.match(line)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.done(line);
          }
        }
      }
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`server exited ${code} before listening:\n${out}\n${err}`));
    });
  });
  return {
    child,
    url,
    logs,
    exited,
    waitForLog(match) {
      const seen = logs.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((done) => waiters.push({ match, done }));
    },
    output: () => `${out}\n${err}`,
  };
}
