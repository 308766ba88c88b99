#!/usr/bin/env node
// Build what changed: the server (tsc → dist/src), the admin app (vite → dist/admin) and the API
// reference renderer (copied from node_modules → dist/api-reference). Each part records a hash of
// its inputs in dist/.build/<part>.json and is rebuilt only when that hash differs, so `npm start`
// on an unchanged checkout starts at once. `--force` rebuilds everything (`npm run build`).
//
// Plain JavaScript on purpose: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const STAMPS = join(ROOT, 'dist/.build');

/** Every file below the given paths (folders walked), sorted, skipping node_modules and dot-folders. */
function files(paths) {
  const out = [];
  const walk = (p) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) {
      for (const name of readdirSync(p)) {
        if (name === 'node_modules' || name.startsWith('.')) continue;
        walk(join(p, name));
      }
    } else out.push(p);
  };
  for (const p of paths) walk(join(ROOT, p));
  return out.sort();
}

/** SHA-256 over the paths and contents of the inputs. */
function hashOf(paths) {
  const h = createHash('sha256');
  for (const file of files(paths)) {
    h.update(relative(ROOT, file));
    h.update('\0');
    h.update(readFileSync(file));
    h.update('\0');
  }
  return h.digest('hex');
}

const STALE_LOCK_MS = 5 * 60_000;

/** Run `fn` holding a lock folder (mkdir is atomic); a lock older than five minutes is taken over. */
function withLock(lock, fn) {
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        // Released meanwhile.
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function scalarBundle() {
  const main = createRequire(join(ROOT, 'package.json')).resolve('@scalar/api-reference');
  return join(dirname(main), 'browser', 'standalone.js');
}

function run(what, args) {
  const started = Date.now();
  process.stderr.write(`build: ${what}…\n`);
  const res = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (res.status !== 0) {
    process.stderr.write(`build: ${what} failed\n`);
    process.exit(res.status ?? 1);
  }
  process.stderr.write(`build: ${what} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

/** The parts, their inputs, what proves they were built, and how to build them. */
export const PARTS = [
  {
    name: 'server',
    inputs: ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'],
    output: 'dist/src/main.js',
    build() {
      rmSync(join(ROOT, 'dist/src'), { recursive: true, force: true });
      run('server (tsc)', [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json']);
    },
  },
  {
    name: 'admin',
    inputs: ['admin/src', 'admin/index.html', 'admin/vite.config.ts', 'admin/tsconfig.json', 'package-lock.json'],
    output: 'dist/admin/index.html',
    build() {
      // Into a scratch folder that then replaces dist/admin, under the lock the test helper takes too:
      // a service that is serving never sees a half-written folder.
      withLock(join(ROOT, 'dist/admin.lock'), () => {
        const scratch = join(ROOT, `dist/admin.build-${process.pid}`);
        run('admin (vite)', [
          join(ROOT, 'node_modules/vite/bin/vite.js'),
          'build',
          '--config',
          'admin/vite.config.ts',
          '--outDir',
          scratch,
          '--emptyOutDir',
          '--logLevel',
          'warn',
        ]);
        const target = join(ROOT, 'dist/admin');
        const old = join(ROOT, `dist/admin.old-${process.pid}`);
        if (existsSync(target)) renameSync(target, old);
        renameSync(scratch, target);
        rmSync(old, { recursive: true, force: true });
      });
    },
  },
  {
    name: 'api-reference',
    inputs: ['package-lock.json'],
    output: 'dist/api-reference/standalone.js',
    build() {
      mkdirSync(join(ROOT, 'dist/api-reference'), { recursive: true });
      cpSync(scalarBundle(), join(ROOT, 'dist/api-reference/standalone.js'));
    },
  },
];

function stampPath(part) {
  return join(STAMPS, `${part.name}.json`);
}

/** Whether a part's output exists and was built from exactly the current inputs. */
export function isFresh(part) {
  if (!existsSync(join(ROOT, part.output)) || !existsSync(stampPath(part))) return false;
  try {
    return JSON.parse(readFileSync(stampPath(part), 'utf8')).hash === hashOf(part.inputs);
  } catch {
    return false;
  }
}

export function build({ force = false } = {}) {
  const built = [];
  for (const part of PARTS) {
    const hash = hashOf(part.inputs);
    if (!force && isFresh(part)) continue;
    part.build();
    mkdirSync(STAMPS, { recursive: true });
    writeFileSync(stampPath(part), `${JSON.stringify({ hash, builtAt: new Date().toISOString() })}\n`);
    built.push(part.name);
  }
  return built;
}

const isEntry = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isEntry) {
  const built = build({ force: process.argv.includes('--force') });
  if (!built.length) process.stderr.write('build: everything is up to date\n');
}
