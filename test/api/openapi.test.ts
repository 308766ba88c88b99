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
  'listPublicComments',
  'createComment',
  'listAdminComments',
  'getCommentCounts',
  'bulkCommentAction',
  'getComment',
  'deleteComment',
  'updateCommentStatus',
  'listRedirects',
  'createRedirect',
  'getRedirect',
  'updateRedirect',
  'deleteRedirect',
  'listNotFoundEntries',
  'pruneNotFoundLog',
  'clearNotFoundLog',
  'getNotFoundSummary',
  'listMedia',
  'uploadMedia',
  'listMediaFolders',
  'createMediaFolder',
  'getMediaFolder',
  'updateMediaFolder',
  'deleteMediaFolder',
  'getMedia',
  'updateMedia',
  'deleteMedia',
  'getMediaUsage',
  'replaceMediaImage',
  'getMediaUploadUrl',
  'confirmMediaUpload',
  'uploadPendingMedia',
  'getContentTerms',
  'setContentTerms',
  'listTaxonomies',
  'createTaxonomy',
  'getTaxonomy',
  'updateTaxonomy',
  'deleteTaxonomy',
  'listTaxonomyTranslations',
  'reorderTerms',
  'listTerms',
  'createTerm',
  'getTerm',
  'updateTerm',
  'deleteTerm',
  'listMenus',
  'createMenu',
  'getMenu',
  'updateMenu',
  'deleteMenu',
  'createMenuItem',
  'updateMenuItem',
  'deleteMenuItem',
  'reorderMenuItems',
  'listSections',
  'createSection',
  'getSection',
  'updateSection',
  'deleteSection',
  'listWidgetAreas',
  'createWidgetArea',
  'getWidgetArea',
  'deleteWidgetArea',
  'createWidget',
  'updateWidget',
  'deleteWidget',
  'reorderWidgets',
  'getSettings',
  'updateSettings',
  'search',
  'searchSuggest',
  'rebuildSearchIndex',
  'enableSearch',
  'getSearchStats',
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

  it('documents the upload operations with their media type and the configured maximum size', async () => {
    const cms = await testCms('sqlite', { withAdmin: false, config: { maxUploadSize: 12345 } });
    const doc = (await (await cms.app.request('/_cms/api/openapi.json')).json()) as any;
    const ops = Object.values(doc.paths).flatMap((p: any) => Object.values(p)) as any[];
    const byId = (id: string) => ops.find((o) => o.operationId === id);
    for (const [id, type] of [
      ['uploadMedia', 'multipart/form-data'],
      ['replaceMediaImage', 'multipart/form-data'],
      ['uploadPendingMedia', 'application/octet-stream'],
    ]) {
      const op = byId(id);
      expect(Object.keys(op.requestBody.content), id).toEqual([type]);
      expect(op['x-max-upload-size'], id).toBe(12345);
      expect(op.description, id).toContain('12345 bytes');
      expect(op.responses['413'], id).toBeDefined();
    }
    expect(byId('uploadMedia').requestBody.content['multipart/form-data'].schema).toBeDefined();
    expect(Object.keys(doc.paths)).not.toContain('/media/file/{ref}');
  });

  it('documents what an upload without bytes answers (NO_FILE; an empty package file only if the manifest says 0 bytes)', async () => {
    const doc = await document();
    const ops = Object.values(doc.paths).flatMap((p: any) => Object.values(p)) as any[];
    const bad = (id: string) => String(ops.find((o) => o.operationId === id).responses['400'].description);
    for (const id of ['uploadMedia', 'replaceMediaImage', 'uploadPendingMedia', 'uploadTransferImportFile']) {
      expect(bad(id), id).toContain('NO_FILE');
    }
    expect(bad('uploadMedia')).toMatch(/no part named `file`/);
    expect(bad('uploadPendingMedia')).toContain('UPLOAD_SIZE_MISMATCH');
    expect(bad('uploadTransferImportFile')).toMatch(/size 0/);
    expect(bad('uploadTransferImportFile')).toContain('UPLOAD_SIZE_MISMATCH');
    // Operations without an upload keep the plain wording.
    expect(bad('updateMedia')).toBe('Invalid input (VALIDATION_ERROR)');
  });

  const DOWNLOADS = ['getTransferExportManifest', 'downloadTransferExportFile', 'downloadTransferExportArchive'];

  it('wraps every success response in the envelope and every error in the error envelope', async () => {
    const doc = await document();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, response] of Object.entries(op.responses)) {
          const schema = response.content?.['application/json']?.schema;
          // Package downloads answer the file itself (binary, or the manifest as its JSON), outside the envelope.
          if (
            status.startsWith('2') &&
            Object.values<any>(response.content ?? {}).every((c) => c.schema?.format === 'binary')
          ) {
            expect(DOWNLOADS, `${method} ${path}`).toContain(op.operationId);
            continue;
          }
          if (status.startsWith('2') && DOWNLOADS.includes(op.operationId)) continue;
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

  it('marks the public comment and alternates operations as needing no credentials', async () => {
    const doc = (await document()) as unknown as {
      paths: Record<string, Record<string, { operationId: string; security?: unknown[] }>>;
    };
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p));
    const publicIds = ops.filter((o) => Array.isArray(o.security) && o.security.length === 0).map((o) => o.operationId);
    expect(publicIds.sort()).toEqual(['createComment', 'getHreflangAlternates', 'listPublicComments']);
  });

  it('leaves out routes that are not part of the contract', async () => {
    const doc = await document();
    const paths = Object.keys(doc.paths);
    for (const p of paths) {
      expect(p).not.toMatch(/^\/(auth|setup|oauth|import|plugins|bylines|backup|relations)\b/);
      // Spec rule 7 of taxonomies: menu and term translation listings are MCP tools, not REST.
      expect(p).not.toMatch(/translations\/\{id\}|\/menus\/\{name\}\/translations|\/terms\/\{slug\}\/translations/);
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
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    // Every script comes from this site (the renderer from the installed npm package), none from a CDN.
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts).toEqual(['/_cms/api/docs/assets/standalone.js', '/_cms/api/docs/assets/init.js']);
    expect(html).not.toMatch(/https?:\/\//);
    const init = await (await cms.app.request('/_cms/api/docs/assets/init.js')).text();
    expect(init).toContain('"url":"/_cms/api/openapi.json"');
    const bundle = await cms.app.request('/_cms/api/docs/assets/standalone.js', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-encoding')).toBe('gzip');
    expect(bundle.headers.get('content-type')).toContain('javascript');
  });
});
