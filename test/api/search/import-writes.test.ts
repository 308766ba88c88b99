/**
 * An import batch writes its entries' documents as a create does: the rows are new in the batch's
 * transaction, so nothing of theirs is removed first (SearchEngine.write with `fresh`). The
 * documents it inserts must then serve searches and be removed and written again like any other.
 */
import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { search } from '../../helpers/search.js';
import { postExport } from '../../helpers/wxr.js';
import { SAMPLE } from '../import/sample-wxr.js';

describeEachDialect('search: entries an import writes', (dialect) => {
  it('indexes an imported batch once, and trashing and restoring an imported entry follow', async () => {
    const cms = await testCms(dialect);
    const token = cms.adminToken;
    const file = Buffer.from(SAMPLE);
    const analyzed = await postExport(cms, '/import/blogplatform/analyze', token, file);
    expect(analyzed.status, JSON.stringify(analyzed.body)).toBe(200);
    const post = analyzed.body.data.postTypes.find((p: any) => p.name === 'post');
    const prepared = await call(cms, 'POST', '/import/blogplatform/prepare', {
      token,
      body: { postTypes: [{ name: 'post', collection: 'posts', fields: post.fields }] },
    });
    expect(prepared.status, JSON.stringify(prepared.body)).toBe(200);
    const enabled = await call(cms, 'POST', '/search/enable', { token, body: { collection: 'posts' } });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    expect(enabled.body.data.documents).toBe(0);
    const run = await postExport(cms, '/import/blogplatform/execute', token, file, {
      config: JSON.stringify({ postTypeMappings: { post: 'posts' } }),
    });
    expect(run.status, JSON.stringify(run.body).slice(0, 500)).toBe(200);

    const entries = await call(cms, 'GET', '/content/posts?limit=100', { token });
    const imported = entries.body.data.items as Array<{ id: string; data: { title: string } }>;
    expect(imported.length).toBeGreaterThan(1);
    const published = imported.find((e) => e.data.title === 'Published post');
    expect(published).toBeDefined();
    const hits = async (q: string) =>
      ((await search(cms, q)).body.data.items as Array<{ id: string }>).filter((i) => i.id === published!.id).length;
    // One document per entry for what the caller reads, whatever the batch held.
    expect(await hits('published')).toBe(1);
    const documents = async () =>
      (await call(cms, 'GET', '/search/stats', { token })).body.data.collections.find(
        (x: { collection: string }) => x.collection === 'posts',
      ).documents;
    // No entry has a pending draft yet: one document each.
    expect(await documents()).toBe(imported.length);

    const trashed = await call(cms, 'DELETE', `/content/posts/${published!.id}`, { token });
    expect(trashed.status, JSON.stringify(trashed.body)).toBeLessThan(300);
    expect(await hits('published')).toBe(0);
    expect(await documents()).toBe(imported.length - 1);
    const restored = await call(cms, 'POST', `/content/posts/${published!.id}/restore`, { token, body: {} });
    expect(restored.status, JSON.stringify(restored.body)).toBeLessThan(300);
    expect(await hits('published')).toBe(1);
    expect(await documents()).toBe(imported.length);
  }, 120_000);
});
