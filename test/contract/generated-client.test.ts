import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { apiSchemaSource, openApiDocument } from '../../admin/scripts/api-schema.js';

/**
 * The typed client the admin and the CLI's remote target compile against
 * (generated/api-schema.gen.ts) is what the service's current OpenAPI
 * document generates: a route changed without `npm run gen:api` fails here
 * instead of leaving both consumers typed against an old contract.
 */
it('generated/api-schema.gen.ts is current (npm run gen:api rewrites it)', async () => {
  const committed = readFileSync(fileURLToPath(new URL('../../generated/api-schema.gen.ts', import.meta.url)), 'utf8');
  const current = await apiSchemaSource(await openApiDocument());
  // Compared as booleans first: a failure says what to run, not a 770 KB diff.
  expect(current === committed, 'generated/api-schema.gen.ts is stale: run npm run gen:api').toBe(true);
}, 60_000);
