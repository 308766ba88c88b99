/**
 * Regenerate the typed REST client: boot the service in memory, take its own
 * OpenAPI document and turn it into TypeScript types with openapi-typescript
 * (src/client/schema.gen.ts, committed). Two consumers import that one file:
 * the admin (admin/src/api/client.ts) and the command line's remote target
 * (src/cli/target/remote.ts).
 *
 *   npm run gen:api
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../../src/core/log.js';
import { createCms, resolveConfig } from '../../src/index.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const docPath = resolve(root, 'dist/openapi.json');
const outPath = resolve(root, 'src/client/schema.gen.ts');

const cms = await createCms({
  config: resolveConfig({ databaseUrl: 'sqlite::memory:', logLevel: 'silent' }),
  logger: createLogger('silent'),
});
try {
  const res = await cms.app.request('/_cms/api/openapi.json');
  if (!res.ok) throw new Error(`GET /_cms/api/openapi.json answered ${res.status}`);
  const doc = (await res.json()) as { paths?: Record<string, unknown> };
  mkdirSync(dirname(docPath), { recursive: true });
  writeFileSync(docPath, `${JSON.stringify(doc, null, 2)}\n`);
  console.log(`wrote ${docPath} (${Object.keys(doc.paths ?? {}).length} paths)`);
} finally {
  await cms.close();
}

const cli = resolve(root, 'node_modules/openapi-typescript/bin/cli.js');
const run = spawnSync(process.execPath, [cli, docPath, '--output', outPath], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
