import { expect, it } from 'vitest';
import { coreTools } from '../../src/mcp/tools/index.js';
import { testCms } from '../helpers/cms.js';
import { postsCollection } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/db.js';
import { mcpClient, serve } from '../helpers/mcp.js';

const MISSING = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

/** The main failure of every tool: arguments that must fail, and the code they must fail with. */
const FAILURES: Record<string, [Record<string, unknown>, string]> = {
  content_list: [{ collection: 'nope' }, 'NOT_FOUND'],
  content_get: [{ collection: 'posts', id: MISSING }, 'NOT_FOUND'],
  content_create: [{ collection: 'posts', data: {} }, 'VALIDATION_ERROR'],
  content_update: [{ collection: 'posts', id: MISSING, data: { title: 'x' } }, 'NOT_FOUND'],
  content_delete: [{ collection: 'posts', id: MISSING }, 'NOT_FOUND'],
  content_restore: [{ collection: 'posts', id: '{draft}' }, 'INVALID_STATE'],
  content_permanent_delete: [{ collection: 'posts', id: '{draft}' }, 'INVALID_STATE'],
  content_publish: [{ collection: 'posts', id: '{draft}', _rev: 'stale' }, 'REV_CONFLICT'],
  content_unpublish: [{ collection: 'posts', id: '{draft}' }, 'INVALID_STATE'],
  content_schedule: [{ collection: 'posts', id: '{draft}', scheduledAt: '2001-01-01T00:00:00Z' }, 'VALIDATION_ERROR'],
  content_unschedule: [{ collection: 'posts', id: '{draft}' }, 'INVALID_STATE'],
  content_compare: [{ collection: 'posts', id: MISSING }, 'NOT_FOUND'],
  content_discard_draft: [{ collection: 'posts', id: '{draft}' }, 'INVALID_STATE'],
  content_list_trashed: [{ collection: 'posts', limit: 500 }, 'VALIDATION_ERROR'],
  content_duplicate: [{ collection: 'posts', id: MISSING }, 'NOT_FOUND'],
  content_translations: [{ collection: 'posts', id: 'no-such-slug' }, 'NOT_FOUND'],
  content_preview_url: [{ collection: 'posts', id: MISSING }, 'NOT_FOUND'],
  byline_list: [{ locale: 'xx' }, 'VALIDATION_ERROR'],
  byline_get: [{ id: MISSING }, 'NOT_FOUND'],
  byline_create: [{ displayName: 'Ghost', userId: MISSING }, 'VALIDATION_ERROR'],
  byline_update: [{ id: MISSING, bio: 'x' }, 'NOT_FOUND'],
  byline_delete: [{ id: MISSING }, 'NOT_FOUND'],
  byline_translations: [{ id: MISSING }, 'NOT_FOUND'],
  schema_list_collections: [{ unexpected: true }, 'VALIDATION_ERROR'],
  schema_get_collection: [{ collection: 'nope' }, 'NOT_FOUND'],
  schema_list_block_types: [{ unexpected: true }, 'VALIDATION_ERROR'],
  schema_get_block_type: [{ slug: 'nope' }, 'NOT_FOUND'],
  schema_create_block_type: [
    { slug: 'b', label: 'B', fields: [{ slug: 'r', label: 'R', type: 'reference' }] },
    'VALIDATION_ERROR',
  ],
  schema_update_block_type: [{ slug: 'nope', label: 'X' }, 'NOT_FOUND'],
  schema_activate_block_type_version: [{ slug: 'nope', version: 1 }, 'NOT_FOUND'],
  schema_create_collection: [{ slug: 'posts', label: 'Again' }, 'ALREADY_EXISTS'],
  schema_delete_collection: [{ collection: 'nope' }, 'NOT_FOUND'],
  schema_update_collection: [{ collection: 'nope', label: 'X' }, 'NOT_FOUND'],
  schema_create_field: [{ collection: 'posts', slug: 'title', label: 'Title', type: 'string' }, 'ALREADY_EXISTS'],
  schema_delete_field: [{ collection: 'posts', field: 'nope' }, 'NOT_FOUND'],
  schema_update_field: [{ collection: 'posts', field: 'title', type: 'integer' }, 'VALIDATION_ERROR'],
  revision_list: [{ collection: 'posts', id: MISSING }, 'NOT_FOUND'],
  revision_restore: [{ collection: 'posts', id: '{draft}', revisionId: MISSING }, 'NOT_FOUND'],
  media_list: [{ folderId: MISSING }, 'NOT_FOUND'],
  media_get: [{ id: MISSING }, 'NOT_FOUND'],
  media_upload: [{ filename: 'a.png', contentType: 'image/png', data: 'PGh0bWw+PC9odG1sPg==' }, 'INVALID_TYPE'],
  media_create: [{ storageKey: `${MISSING}.png`, size: 1 }, 'NOT_FOUND'],
  media_update: [{ id: MISSING, alt: 'x' }, 'NOT_FOUND'],
  media_delete: [{ id: MISSING }, 'NOT_FOUND'],
  media_usage_repair: [{ scope: 'collection', collection: 'nope' }, 'NOT_FOUND'],
  check_site: [{ checks: ['nope'] }, 'VALIDATION_ERROR'],
  repair_site: [{ checks: ['revisions', 'nope'] }, 'VALIDATION_ERROR'],
  taxonomy_list: [{ locale: 'xx' }, 'VALIDATION_ERROR'],
  taxonomy_get: [{ name: 'nope' }, 'NOT_FOUND'],
  taxonomy_create: [{ name: 'tags', label: 'Again', hierarchical: true }, 'VALIDATION_ERROR'],
  taxonomy_update: [{ name: 'tags', locale: 'en', collections: ['nope'] }, 'VALIDATION_ERROR'],
  taxonomy_delete: [{ name: 'nope' }, 'NOT_FOUND'],
  taxonomy_list_terms: [{ taxonomy: 'nope' }, 'NOT_FOUND'],
  taxonomy_create_term: [{ taxonomy: 'tags', label: 'Child', parentId: '{term}' }, 'VALIDATION_ERROR'],
  taxonomy_update_term: [{ taxonomy: 'tags', slug: 'nope', label: 'X' }, 'NOT_FOUND'],
  taxonomy_delete_term: [{ taxonomy: 'tags', slug: 'nope' }, 'NOT_FOUND'],
  taxonomy_term_translations: [{ id: MISSING }, 'NOT_FOUND'],
  menu_list: [{ locale: 'xx' }, 'VALIDATION_ERROR'],
  menu_get: [{ name: 'nope' }, 'NOT_FOUND'],
  menu_translations: [{ id: MISSING }, 'NOT_FOUND'],
  menu_create: [{ name: 'main', label: 'Again' }, 'ALREADY_EXISTS'],
  menu_update: [{ name: 'nope', label: 'X' }, 'NOT_FOUND'],
  menu_delete: [{ name: 'nope' }, 'NOT_FOUND'],
  menu_set_items: [
    { name: 'main', items: [{ kind: 'url', url: '/a', label: 'A', parentIndex: 0 }] },
    'VALIDATION_ERROR',
  ],
  settings_get: [{ unexpected: true }, 'VALIDATION_ERROR'],
  settings_update: [{ timezone: 'Mars/Olympus' }, 'VALIDATION_ERROR'],
  search: [{ query: 'anything', collections: ['nope'] }, 'NOT_FOUND'],
  site_transfer_capabilities: [{ unexpected: true }, 'VALIDATION_ERROR'],
  site_export_start: [{ comments: 'yes' }, 'VALIDATION_ERROR'],
  site_export_status: [{ id: MISSING }, 'NOT_FOUND'],
  site_import_analyze: [{ id: MISSING }, 'NOT_FOUND'],
  site_import_start: [{ id: MISSING, packageDigest: 'sha256:0', planDigest: 'sha256:0' }, 'NOT_FOUND'],
  site_import_status: [{ id: MISSING }, 'NOT_FOUND'],
  site_import_resume: [{ id: MISSING }, 'NOT_FOUND'],
  site_import_receipt: [{ id: MISSING }, 'NOT_FOUND'],
};

describeEachDialect('MCP tool failures', (dialect) => {
  it('every tool reports its main failure as [CODE] with _meta.code', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const mcp = await mcpClient(await serve(cms), cms.adminToken);
    const draft = (await mcp.ok('content_create', { collection: 'posts', data: { title: 'Draft' } })).item.id;
    await mcp.ok('taxonomy_create', { name: 'tags', label: 'Tags' });
    const term = (await mcp.ok('taxonomy_create_term', { taxonomy: 'tags', label: 'News' })).id;
    await mcp.ok('menu_create', { name: 'main', label: 'Main' });
    expect(Object.keys(FAILURES).sort()).toEqual(coreTools.map((t) => t.name).sort());
    for (const [tool, [args, code]] of Object.entries(FAILURES)) {
      const filled = Object.fromEntries(
        Object.entries(args).map(([k, v]) => [k, v === '{draft}' ? draft : v === '{term}' ? term : v]),
      );
      const res = await mcp.call(tool, filled);
      expect(res.isError, `${tool}: ${res.content[0]?.text}`).toBe(true);
      expect(res._meta?.code, `${tool}: ${res.content[0]?.text}`).toBe(code);
      expect(res.content[0].text.startsWith(`[${code}] `), tool).toBe(true);
    }
    await mcp.close();
  });
});
