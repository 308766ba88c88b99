#!/usr/bin/env -S node --max-semi-space-size=2
// The `cms` command: runs the built CLI, or the TypeScript sources through tsx in a checkout that was not built.
import { existsSync } from 'node:fs';

const built = new URL('../dist/src/cli/index.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli/index.ts', import.meta.url).href);
}
