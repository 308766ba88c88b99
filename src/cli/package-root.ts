import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package's root folder, found from this module whether it runs from
 * the TypeScript sources (src/cli) or the build (dist/src/cli): shipped
 * files (seeds, package.json) are read from there.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && existsSync(join(dir, 'seeds'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('The cms package root (package.json beside seeds/) was not found');
    dir = parent;
  }
}

export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: string };
  return manifest.version ?? '0.0.0';
}
