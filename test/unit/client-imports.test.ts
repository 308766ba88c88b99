import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const CLIENT_DIR = resolve(ROOT, 'src/client');

/** Every module specifier a file imports or re-exports (static and dynamic). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(
    /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g,
  )) {
    out.push(m[1] ?? m[2] ?? m[3]);
  }
  return out;
}

describe('cms/client', () => {
  it('imports nothing of the server: its import graph stays inside src/client and needs no Node module', () => {
    const seen = new Set<string>();
    const queue = [resolve(CLIENT_DIR, 'index.ts')];
    while (queue.length) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const spec of specifiers(file)) {
        expect(spec.startsWith('.'), `${relative(ROOT, file)} imports ${spec}`).toBe(true);
        const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
        expect(relative(CLIENT_DIR, target).startsWith('..'), `${relative(ROOT, file)} imports ${spec}`).toBe(false);
        queue.push(target);
      }
    }
    expect(seen.size).toBeGreaterThanOrEqual(1);
    // The scan sees imports: the blog's server imports the client.
    expect(specifiers(resolve(ROOT, 'examples/blog/server.ts'))).toContain('../../src/client/index.js');
  });

  it('is exported as cms/client next to the package entry, at the file the build writes', () => {
    const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8'));
    expect(pkg.main).toBe('dist/src/index.js');
    expect(pkg.exports['.']).toBe('./dist/src/index.js');
    expect(pkg.exports['./client'].types).toBe('./src/client/index.ts');
    // The server build (tsconfig.build.json: src → dist/src) writes src/client/index.ts there.
    expect(JSON.parse(readFileSync(resolve(ROOT, 'tsconfig.build.json'), 'utf8')).include).toContain('src');
    // Node resolves the name the way a user's import does (the package refers to itself by name).
    const resolved = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', "process.stdout.write(import.meta.resolve('cms/client'))"],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(resolved).toBe(pathToFileURL(resolve(ROOT, 'dist/src/client/index.js')).href);
  });
});
