import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
const TSX = resolve(ROOT, 'node_modules/.bin/tsx');

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run a TypeScript entry point of the project in a child process. */
export function runTs(entry: string, args: string[], env: Record<string, string>, cwd = ROOT): Promise<Finished> {
  return new Promise((done, fail) => {
    const child = spawn(TSX, [resolve(ROOT, entry), ...args], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

export function startTs(entry: string, env: Record<string, string>, cwd = ROOT): ChildProcess {
  return spawn(TSX, [resolve(ROOT, entry)], { cwd, env: { ...process.env, ...env } });
}

/** PostgreSQL URL that selects a schema through the connection's options (what an operator can put in CMS_DATABASE_URL). */
export function pgUrlWithSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}
