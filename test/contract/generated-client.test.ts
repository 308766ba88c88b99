import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { apiSchemaSource, openApiDocument, operationRoutesSource } from '../../admin/scripts/api-schema.js';

/**
 * The typed client the admin and the CLI's remote target compile against
 * (generated/api-schema.gen.ts) is what the service's current OpenAPI
 * document generates: a route changed without `npm run gen:api` fails here
 * instead of leaving both consumers typed against an old contract.
 */
it('generated/api-schema.gen.ts and operation-routes.gen.ts are current (npm run gen:api rewrites them)', async () => {
  const generated = (name: string) =>
    readFileSync(fileURLToPath(new URL(`../../generated/${name}`, import.meta.url)), 'utf8');
  const doc = await openApiDocument();
  // Compared as booleans first: a failure says what to run, not a 770 KB diff.
  const stale = (name: string) => `generated/${name} is stale: run npm run gen:api`;
  expect((await apiSchemaSource(doc)) === generated('api-schema.gen.ts'), stale('api-schema.gen.ts')).toBe(true);
  expect(operationRoutesSource(doc) === generated('operation-routes.gen.ts'), stale('operation-routes.gen.ts')).toBe(
    true,
  );
}, 60_000);
