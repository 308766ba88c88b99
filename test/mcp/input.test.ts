import { expect, it } from 'vitest';
import { testCms } from '../helpers/cms.js';
import { postsCollection } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/db.js';
import { mcpClient, serve } from '../helpers/mcp.js';

describeEachDialect('MCP input at the door', (dialect) => {
  it('refuses NUL bytes and unpaired surrogates in tool arguments on both engines', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const mcp = await mcpClient(await serve(cms), cms.adminToken);
    for (const title of ['a\u0000b', 'x\ud800']) {
      const res = await mcp.call('content_create', { collection: 'posts', data: { title } });
      expect(res.isError).toBe(true);
      expect(res._meta?.code).toBe('VALIDATION_ERROR');
      expect(res._meta?.details.issues[0].path).toEqual(['data', 'title']);
    }
    expect((await mcp.ok('content_list', { collection: 'posts' })).items).toEqual([]);
    await mcp.close();
  });

  it('refuses an unauthenticated request before reading its body', async () => {
    const cms = await testCms(dialect);
    const endless = new ReadableStream({
      start(controller) {
        controller.enqueue(new Uint8Array(1024));
      },
    });
    const res = await cms.app.request('/_cms/api/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '40000000' },
      body: endless,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('resource_metadata');
  });
});
