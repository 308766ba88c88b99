import { expect, it } from 'vitest';
import { coreTools } from '../../src/mcp/tools/index.js';
import { testCms } from '../helpers/cms.js';
import { describeEachDialect } from '../helpers/db.js';
import { mcpClient, serve } from '../helpers/mcp.js';

/** Tool names and titles of the spec's table, for the domains built so far. */
const SPEC_TOOLS: Record<string, string> = {
  content_list: 'List Content',
  content_get: 'Get Content',
  content_create: 'Create Content',
  content_update: 'Update Content',
  content_delete: 'Delete Content (Trash)',
  content_restore: 'Restore Content',
  content_permanent_delete: 'Permanently Delete Content',
  content_publish: 'Publish Content',
  content_unpublish: 'Unpublish Content',
  content_schedule: 'Schedule Content',
  content_unschedule: 'Cancel Scheduled Publication',
  content_compare: 'Compare Live vs Draft',
  content_discard_draft: 'Discard Draft',
  content_list_trashed: 'List Trashed Content',
  content_duplicate: 'Duplicate Content',
  content_translations: 'Get Content Translations',
  byline_list: 'List Bylines',
  byline_get: 'Get Byline',
  byline_create: 'Create Byline',
  byline_update: 'Update Byline',
  byline_delete: 'Delete Byline',
  byline_translations: 'List Byline Translations',
  schema_list_collections: 'List Collections',
  schema_get_collection: 'Get Collection Schema',
  schema_list_block_types: 'List Block Types',
  schema_get_block_type: 'Get Block Type',
  schema_create_block_type: 'Create Block Type',
  schema_update_block_type: 'Update Block Type',
  schema_activate_block_type_version: 'Activate Block Type Version',
  schema_create_collection: 'Create Collection',
  schema_delete_collection: 'Delete Collection',
  schema_update_collection: 'Update Collection',
  schema_create_field: 'Add Field to Collection',
  schema_delete_field: 'Remove Field from Collection',
  schema_update_field: 'Update Field',
  revision_list: 'List Revisions',
  revision_restore: 'Restore Revision',
  media_list: 'List Media',
  media_get: 'Get Media Item',
  media_upload: 'Upload Media',
  media_create: 'Confirm Signed Media Upload',
  media_update: 'Update Media Metadata',
  media_delete: 'Delete Media',
  media_usage_repair: 'Repair Media Usage Index',
  taxonomy_list: 'List Taxonomies',
  taxonomy_get: 'Get Taxonomy Definition',
  taxonomy_create: 'Create Taxonomy Definition',
  taxonomy_update: 'Update Taxonomy Definition',
  taxonomy_delete: 'Delete Taxonomy Definition',
  taxonomy_list_terms: 'List Taxonomy Terms',
  taxonomy_create_term: 'Create Taxonomy Term',
  taxonomy_update_term: 'Update Taxonomy Term',
  taxonomy_delete_term: 'Delete Taxonomy Term',
  taxonomy_term_translations: 'List Term Translations',
  menu_list: 'List Menus',
  menu_get: 'Get Menu with Items',
  menu_translations: 'List Menu Translations',
  menu_create: 'Create Menu',
  menu_update: 'Update Menu',
  menu_delete: 'Delete Menu',
  menu_set_items: 'Set Menu Items',
  settings_get: 'Get Site Settings',
  settings_update: 'Update Site Settings',
  search: 'Search Content',
  site_transfer_capabilities: 'Get Site Transfer Capabilities',
  site_export_start: 'Start Site Export',
  site_export_status: 'Get Site Export Status',
  site_import_analyze: 'Analyze Site Import',
  site_import_start: 'Start Site Import',
  site_import_status: 'Get Site Import Status',
  site_import_resume: 'Resume Site Import',
  site_import_receipt: 'Get Site Import Receipt',
};

/** Core tools beyond the spec's inventory (each also a REST operation outside its tables). */
const BEYOND_SPEC: Record<string, string> = {
  content_preview_url: 'Get Content Preview Link',
  // The consistency checker (docs/operations.md).
  check_site: 'Check Site Consistency',
  repair_site: 'Repair Site Consistency',
};

/** Site transfer tools that only read (site_export_status runs a step, so it writes). */
const TRANSFER_READS = ['site_transfer_capabilities', 'site_import_status', 'site_import_receipt'];

const DESTRUCTIVE = [
  'content_permanent_delete',
  'byline_delete',
  'schema_delete_collection',
  'schema_delete_field',
  'media_delete',
  'taxonomy_delete',
  'taxonomy_delete_term',
  'menu_delete',
  'menu_set_items',
  'site_import_start',
];

describeEachDialect('MCP endpoint', (dialect) => {
  it('initializes statelessly and lists every tool with its title, scope-free schema and annotations', async () => {
    const cms = await testCms(dialect);
    const url = await serve(cms);
    const mcp = await mcpClient(url, cms.adminToken);
    expect(mcp.client.getServerVersion()?.name).toBe('cms');
    const { tools } = await mcp.client.listTools();
    expect(Object.fromEntries(tools.map((t) => [t.name, t.title]))).toEqual({ ...SPEC_TOOLS, ...BEYOND_SPEC });
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.description?.length, t.name).toBeGreaterThan(10);
      const readOnly =
        /_(list|get|compare|translations)|_list_/.test(t.name) ||
        t.name.endsWith('_list_trashed') ||
        t.name === 'search' ||
        t.name === 'content_preview_url' ||
        t.name === 'check_site' ||
        TRANSFER_READS.includes(t.name);
      expect(t.annotations?.readOnlyHint, t.name).toBe(readOnly);
      expect(t.annotations?.destructiveHint, t.name).toBe(DESTRUCTIVE.includes(t.name));
    }
    expect(coreTools).toHaveLength(Object.keys(SPEC_TOOLS).length + Object.keys(BEYOND_SPEC).length);
    await mcp.close();
  });

  it('needs a Bearer token: 401 with the discovery URL, cookies do not count; GET and DELETE are 405', async () => {
    const cms = await testCms(dialect);
    const url = await serve(cms);
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const anon = await fetch(`${url}/_cms/api/mcp`, { method: 'POST', headers, body });
    expect(anon.status).toBe(401);
    expect(anon.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${cms.config.publicUrl}/.well-known/oauth-protected-resource"`,
    );
    const bad = await fetch(`${url}/_cms/api/mcp`, {
      method: 'POST',
      headers: { ...headers, authorization: 'Bearer cms_pat_nope' },
      body,
    });
    expect(bad.status).toBe(401);
    const cookie = await fetch(`${url}/_cms/api/mcp`, {
      method: 'POST',
      headers: { ...headers, cookie: 'cms_session=abc' },
      body,
    });
    expect(cookie.status).toBe(401);
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${url}/_cms/api/mcp`, {
        method,
        headers: { authorization: `Bearer ${cms.adminToken}` },
      });
      expect(res.status, method).toBe(405);
    }
  });

  it('answers malformed JSON-RPC with a JSON-RPC error, without internals', async () => {
    const cms = await testCms(dialect);
    const url = await serve(cms);
    const res = await fetch(`${url}/_cms/api/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${cms.adminToken}`,
      },
      body: '{"jsonrpc": "2.0", "id": 1, "method": ',
    });
    expect(res.status).toBe(400);
    const json = (await res.json()) as any;
    expect(json.jsonrpc).toBe('2.0');
    expect(json.error.code).toBe(-32700);
  });
});
