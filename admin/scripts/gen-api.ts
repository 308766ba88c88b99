/**
 * Regenerate the typed REST client: boot the service in memory, take its own
 * OpenAPI document and turn it into TypeScript types with openapi-typescript
 * (generated/api-schema.gen.ts, committed; test/contract/generated-client.test.ts
 * fails when it is stale). Two consumers import that one file: the admin
 * (admin/src/api/client.ts) and the command line's remote target
 * (src/cli/target/remote.ts), which also calls operations by their id through
 * generated/operation-routes.gen.ts. The document itself is written to
 * dist/openapi.json for reading.
 *
 *   npm run gen:api
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiSchemaSource, openApiDocument, operationRoutesSource } from './api-schema.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const docPath = resolve(root, 'dist/openapi.json');
const outPath = resolve(root, 'generated/api-schema.gen.ts');
const routesPath = resolve(root, 'generated/operation-routes.gen.ts');

const doc = await openApiDocument();
mkdirSync(dirname(docPath), { recursive: true });
writeFileSync(docPath, `${JSON.stringify(doc, null, 2)}\n`);
console.log(`wrote ${docPath} (${Object.keys((doc.paths as object) ?? {}).length} paths)`);
writeFileSync(outPath, await apiSchemaSource(doc));
console.log(`wrote ${outPath}`);
writeFileSync(routesPath, operationRoutesSource(doc));
console.log(`wrote ${routesPath}`);
