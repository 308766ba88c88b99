import { expect, it } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import { call } from '../helpers/cms.js';
import { describeEachDialect } from '../helpers/db.js';
import { mcpClient, serve } from '../helpers/mcp.js';
import { mediaCms, png } from '../helpers/media.js';

describeEachDialect('MCP media tools', (dialect) => {
  it('uploads base64, deduplicates, lists, gets, updates and deletes', async () => {
    const cms = await mediaCms(dialect);
    const mcp = await mcpClient(await serve(cms), cms.adminToken);
    const bytes = await png(14, 9);
    const up = await mcp.call('media_upload', {
      filename: 'chart.png',
      contentType: 'image/png',
      data: bytes.toString('base64'),
      alt: 'A chart',
    });
    expect(up.isError, up.content[0].text).toBeFalsy();
    expect(up.structuredContent).toMatchObject({
      deduplicated: false,
      item: { filename: 'chart.png', mimeType: 'image/png', width: 14, height: 9, alt: 'A chart' },
    });
    const id = up.structuredContent.item.id;
    const again = await mcp.ok('media_upload', { filename: 'again.png', data: bytes.toString('base64'), alt: 'other' });
    expect(again).toMatchObject({ deduplicated: true, item: { id, alt: 'A chart' } });

    const list = await mcp.ok('media_list', { mimeType: 'image/*', includeUsage: true });
    expect(list.items.map((i: any) => i.id)).toEqual([id]);
    expect(list.items[0].usage).toEqual({ count: 0, coverage: 'complete' });
    expect((await mcp.ok('media_get', { id })).item.id).toBe(id);
    const updated = await mcp.ok('media_update', { id, alt: 'Sales chart', caption: '' });
    expect(updated.item).toMatchObject({ alt: 'Sales chart', caption: null });
    expect(await mcp.ok('media_delete', { id })).toEqual({ deleted: true, id });
    const gone = await mcp.call('media_get', { id });
    expect(gone._meta?.code).toBe('NOT_FOUND');
    await mcp.close();
  });

  it('applies the size and type limits to media_upload', async () => {
    const cms = await mediaCms(dialect, 'file', { config: { maxUploadSize: 1000 } });
    const mcp = await mcpClient(await serve(cms), cms.adminToken);
    const big = await mcp.call('media_upload', { filename: 'big.bin', data: Buffer.alloc(2000, 7).toString('base64') });
    expect(big._meta?.code).toBe('PAYLOAD_TOO_LARGE');
    const html = await mcp.call('media_upload', {
      filename: 'x.png',
      contentType: 'image/png',
      data: Buffer.from('<html><script>1</script></html>').toString('base64'),
    });
    expect(html._meta?.code).toBe('INVALID_TYPE');
    const garbage = await mcp.call('media_upload', { filename: 'x.png', data: '***' });
    expect(garbage._meta?.code).toBe('VALIDATION_ERROR');
    await mcp.close();
  });

  it('media_create confirms the caller’s own pending upload by storage key', async () => {
    const cms = await mediaCms(dialect);
    const other = await cms.userToken(ROLES.EDITOR);
    const url = await serve(cms);
    const mcp = await mcpClient(url, cms.adminToken);
    const bytes = await png(6, 6);
    const t = (
      await call(cms, 'POST', '/media/upload-url', {
        token: cms.adminToken,
        body: { filename: 'a.png', contentType: 'image/png', size: bytes.length },
      })
    ).body.data;
    const early = await mcp.call('media_create', { storageKey: t.storageKey, size: bytes.length });
    expect(early._meta?.code).toBe('FILE_NOT_FOUND');
    await cms.app.request(t.uploadUrl, {
      method: 'PUT',
      headers: { authorization: `Bearer ${cms.adminToken}` },
      body: new Uint8Array(bytes),
    });
    const theirs = await mcpClient(url, other.token);
    expect((await theirs.call('media_create', { storageKey: t.storageKey, size: bytes.length }))._meta?.code).toBe(
      'NOT_FOUND',
    );
    const wrong = await mcp.call('media_create', { storageKey: t.storageKey, size: bytes.length + 1 });
    expect(wrong._meta?.code).toBe('UPLOAD_SIZE_MISMATCH');
    const done = await mcp.ok('media_create', { storageKey: t.storageKey, size: bytes.length, alt: 'Six' });
    expect(done.item).toMatchObject({ id: t.mediaId, status: 'ready', alt: 'Six' });
    await theirs.close();
    await mcp.close();
  });

  it('checks media:read and media:write scopes', async () => {
    const cms = await mediaCms(dialect);
    const reader = await cms.userToken(ROLES.EDITOR, ['media:read']);
    const mcp = await mcpClient(await serve(cms), reader.token);
    expect((await mcp.call('media_list', {})).isError).toBeFalsy();
    const denied = await mcp.call('media_upload', { filename: 'a.png', data: (await png()).toString('base64') });
    expect(denied._meta?.code).toBe('INSUFFICIENT_SCOPE');
    await mcp.close();
  });
});
