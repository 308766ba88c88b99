import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { testCms } from '../helpers/cms.js';

const run = promisify(execFile);

/** Operation IDs the spec's tables name, for the resources built so far. */
const SPEC_OPERATIONS = [
  'listBlockTypes',
  'createBlockType',
  'getBlockType',
  'updateBlockType',
  'activateBlockTypeVersion',
  'listCollections',
  'createCollection',
  'getCollection',
  'updateCollection',
  'deleteCollection',
  'listFields',
  'createField',
  'getField',
  'updateField',
  'deleteField',
  'reorderCollections',
  'reorderFields',
  'listOrphanedTables',
  'registerOrphanedTable',
  'listContent',
  'createContent',
  'getContent',
  'updateContent',
  'deleteContent',
  'publishContent',
  'unpublishContent',
  'scheduleContent',
  'unscheduleContent',
  'duplicateContent',
  'restoreContent',
  'permanentDeleteContent',
  'compareContent',
  'discardDraft',
  'getEntryLock',
  'acquireEntryLock',
  'releaseEntryLock',
  'getContentTranslations',
  'listContentAuthors',
  'listTrashedContent',
];

async function document() {
  const cms = await testCms('sqlite', { withAdmin: false });
  const res = await cms.app.request('/_cms/api/openapi.json');
  expect(res.status).toBe(200);
  return (await res.json()) as {
    openapi: string;
    servers: Array<{ url: string }>;
    paths: Record<string, Record<string, { operationId: string; responses: Record<string, any> }>>;
  };
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1 with the spec operationIds, each once', async () => {
    const doc = await document();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers[0].url).toMatch(/\/_cms\/api$/);
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of SPEC_OPERATIONS) expect(ids).toContain(id);
  });

  it('wraps every success response in the envelope and every error in the error envelope', async () => {
    const doc = await document();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, response] of Object.entries(op.responses)) {
          const schema = response.content?.['application/json']?.schema;
          if (status.startsWith('2')) {
            expect(schema?.properties?.success, `${method} ${path} ${status}`).toMatchObject({ type: 'boolean' });
            expect(JSON.stringify(schema.properties.success)).toMatch(/"(const|enum)":\[?true/);
            expect(schema?.required, `${method} ${path}`).toEqual(expect.arrayContaining(['success', 'data']));
          } else {
            expect(schema?.$ref, `${method} ${path} ${status}`).toBe('#/components/schemas/ErrorResponse');
          }
        }
      }
    }
  });

  it('leaves out routes that are not part of the contract', async () => {
    const doc = await document();
    const paths = Object.keys(doc.paths);
    for (const p of paths) {
      expect(p).not.toMatch(/^\/(auth|setup|oauth|import|plugins|bylines|backup|relations)\b/);
      expect(p).not.toMatch(/openapi\.json|\/docs$/);
    }
  });

  it('lints with 0 errors under @redocly/cli', async () => {
    const doc = await document();
    const dir = mkdtempSync(join(tmpdir(), 'cms-openapi-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const result = await run('node_modules/.bin/redocly', ['lint', file, '--format', 'json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      maxBuffer: 10 * 1024 * 1024,
    }).catch((err: { stdout: string; stderr: string; code: number }) => err);
    const json = JSON.parse(result.stdout.slice(result.stdout.indexOf('{')));
    const errors = json.problems.filter((p: { severity: string }) => p.severity === 'error');
    expect(errors, JSON.stringify(errors, null, 2)).toEqual([]);
    expect(json.totals.errors).toBe(0);
  }, 60_000);

  it('serves an interactive reference page', async () => {
    const cms = await testCms('sqlite', { withAdmin: false });
    const res = await cms.app.request('/_cms/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('/_cms/api/openapi.json');
  });
});
