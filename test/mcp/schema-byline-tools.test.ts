import { expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import { testCms } from '../helpers/cms.js';
import { describeEachDialect } from '../helpers/db.js';
import { mcpClient, serve } from '../helpers/mcp.js';

describeEachDialect('MCP schema and byline tools', (dialect) => {
  it('creates, reads, changes and deletes collections, fields and block types', async () => {
    const cms = await testCms(dialect);
    const mcp = await mcpClient(await serve(cms), cms.adminToken);
    const created = await mcp.ok('schema_create_collection', {
      slug: 'events',
      label: 'Events',
      fields: [{ slug: 'title', label: 'Title', type: 'string', required: true }],
    });
    expect(created.fields).toHaveLength(1);
    const field = await mcp.ok('schema_create_field', {
      collection: 'events',
      slug: 'starts_at',
      label: 'Starts',
      type: 'datetime',
      indexed: true,
    });
    expect(field).toMatchObject({ slug: 'starts_at', indexed: true });
    const renamed = await mcp.ok('schema_update_field', {
      collection: 'events',
      field: 'starts_at',
      slug: 'begins_at',
      label: 'Begins',
    });
    expect(renamed.slug).toBe('begins_at');
    await mcp.ok('schema_update_collection', { collection: 'events', label: 'Happenings' });
    expect((await mcp.ok('schema_get_collection', { collection: 'events' })).label).toBe('Happenings');
    expect((await mcp.ok('schema_list_collections')).items.map((c: { slug: string }) => c.slug)).toEqual(['events']);
    expect(await mcp.ok('schema_delete_field', { collection: 'events', field: 'begins_at' })).toEqual({
      deleted: true,
      slug: 'begins_at',
    });

    const bt = await mcp.ok('schema_create_block_type', {
      slug: 'cta',
      label: 'CTA',
      fields: [{ slug: 'text', label: 'Text', type: 'string' }],
    });
    expect(bt.activeVersion).toBe(1);
    const v2 = await mcp.ok('schema_update_block_type', {
      slug: 'cta',
      fields: [
        { slug: 'text', label: 'Text', type: 'string' },
        { slug: 'href', label: 'Link', type: 'url' },
      ],
    });
    expect(v2.activeVersion).toBe(2);
    expect((await mcp.ok('schema_activate_block_type_version', { slug: 'cta', version: 1 })).activeVersion).toBe(1);
    expect((await mcp.ok('schema_get_block_type', { slug: 'cta' })).versions).toHaveLength(2);
    expect((await mcp.ok('schema_list_block_types')).items).toHaveLength(1);
    const bad = await mcp.call('schema_create_field', {
      collection: 'events',
      slug: 'id',
      label: 'Id',
      type: 'string',
    });
    expect(bad._meta?.code).toBe('VALIDATION_ERROR');
    expect(await mcp.ok('schema_delete_collection', { collection: 'events' })).toEqual({
      deleted: true,
      slug: 'events',
    });

    const editor = await cms.userToken(ROLES.EDITOR, ['schema:read']);
    const ed = await mcpClient(await serve(cms), editor.token);
    expect((await ed.call('schema_list_collections')).isError).toBeFalsy();
    expect((await ed.call('schema_create_collection', { slug: 'x', label: 'X' }))._meta?.code).toBe(
      'INSUFFICIENT_SCOPE',
    );
    await ed.close();
    await mcp.close();
  });

  it('manages bylines; a translation keeps the source user unless userId is passed', async () => {
    const cms = await testCms(dialect, { config: { i18n: { locales: ['en', 'de'], defaultLocale: 'en' } } });
    const mcp = await mcpClient(await serve(cms), cms.adminToken);
    const linked = await mcp.ok('byline_create', { displayName: 'Admin', userId: cms.adminId });
    const de = await mcp.ok('byline_create', { displayName: 'Admin (de)', locale: 'de', translationOf: linked.id });
    expect(de.userId).toBe(cms.adminId);
    const guest = await mcp.ok('byline_create', { displayName: 'Guest' });
    const deGuest = await mcp.ok('byline_create', {
      displayName: 'Gast',
      locale: 'de',
      translationOf: guest.id,
      userId: null,
    });
    expect(deGuest.userId).toBeNull();
    expect((await mcp.ok('byline_translations', { id: linked.translationGroup })).items).toHaveLength(2);
    expect((await mcp.ok('byline_get', { id: guest.id })).displayName).toBe('Guest');
    expect((await mcp.ok('byline_update', { id: guest.id, bio: 'Writes' })).bio).toBe('Writes');
    expect((await mcp.ok('byline_list', {})).items.map((b: { displayName: string }) => b.displayName)).toEqual([
      'Admin',
      'Guest',
    ]);
    const twice = await mcp.call('byline_create', { displayName: 'Again', userId: cms.adminId });
    expect(twice._meta?.code).toBe('ALREADY_EXISTS');
    expect(await mcp.ok('byline_delete', { id: guest.id })).toEqual({ deleted: true, id: guest.id });
    await mcp.close();
  });
});
