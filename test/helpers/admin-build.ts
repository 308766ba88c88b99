import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { waitFor } from './wait.js';

const ROOT = resolve(import.meta.dirname, '../..');
export const ADMIN_DIST = resolve(ROOT, 'dist/admin');
const LOCK = `${ADMIN_DIST}.lock`;
const STALE_LOCK_MS = 5 * 60_000;

/** Newest modification time of a file or of any file below a folder. */
function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

function fresh(): boolean {
  const built = newest(join(ADMIN_DIST, 'index.html'));
  const sources = Math.max(
    newest(resolve(ROOT, 'admin/src')),
    newest(resolve(ROOT, 'admin/index.html')),
    newest(resolve(ROOT, 'admin/vite.config.ts')),
  );
  return built > 0 && built >= sources;
}

/** Take the build lock, clearing one left by a run that died (older than STALE_LOCK_MS); false when held. */
function takeLock(): boolean {
  try {
    mkdirSync(LOCK);
    return true;
  } catch {
    try {
      if (Date.now() - statSync(LOCK).mtimeMs > STALE_LOCK_MS) rmSync(LOCK, { recursive: true, force: true });
    } catch {
      // Released meanwhile.
    }
    return false;
  }
}

/**
 * Build the admin once when dist/admin is missing or older than its sources.
 * End-to-end files run in parallel: a lock folder lets one of them build while
 * the others wait, and the build goes to a scratch folder that then replaces
 * dist/admin, so a service that is serving never sees a half-written folder.
 */
export async function ensureAdminBuilt(): Promise<void> {
  if (fresh()) return;
  // On a fresh clone dist/ does not exist yet: without it the lock could never be taken.
  mkdirSync(dirname(ADMIN_DIST), { recursive: true });
  // Another file's build finished (fresh), or the lock is ours; a dead holder's lock goes stale.
  const got = await waitFor(() => (takeLock() ? 'lock' : fresh() ? 'fresh' : null), {
    what: 'the admin build lock to be released',
    timeoutMs: STALE_LOCK_MS + 60_000,
    intervalMs: 250,
  });
  if (got === 'fresh') return;
  try {
    if (fresh()) return;
    const scratch = `${ADMIN_DIST}.build-${process.pid}`;
    const vite = resolve(ROOT, 'node_modules/vite/bin/vite.js');
    const run = spawnSync(
      process.execPath,
      [vite, 'build', '--config', 'admin/vite.config.ts', '--outDir', scratch, '--emptyOutDir', '--logLevel', 'warn'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    if (run.status !== 0) {
      rmSync(scratch, { recursive: true, force: true });
      throw new Error(`vite build failed:\n${run.stdout}\n${run.stderr}`);
    }
    const old = `${ADMIN_DIST}.old-${process.pid}`;
    if (existsSync(ADMIN_DIST)) renameSync(ADMIN_DIST, old);
    renameSync(scratch, ADMIN_DIST);
    rmSync(old, { recursive: true, force: true });
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
