// Loaded with `node --import`: records every module the process resolves in $CMS_TRACE_FILE (see trace-hooks.mjs).
import { register } from 'node:module';

register('./trace-hooks.mjs', import.meta.url);
