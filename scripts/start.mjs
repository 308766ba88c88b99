#!/usr/bin/env node
// `npm start`: build only what changed since the last build (nothing, on an unchanged checkout),
// then serve from the compiled output in this same process.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, ROOT } from './build.mjs';

build();
const { serveMain } = await import(pathToFileURL(join(ROOT, 'dist/src/main.js')).href);
await serveMain();
