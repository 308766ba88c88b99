import { expect, it } from 'vitest';
import type { EntryChange } from '../../../src/services/content/index.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';

const i18n = { locales: ['en', 'fr'], defaultLocale: 'en' };

function record(cms: TestCms) {
  const seen: Array<Pick<EntryChange, 'kind' | 'ids' | 'translationOf' | 'duplicateOf'>> = [];
  cms.services.content.hooks.afterWrite('test', async (_trx, change) => {
    seen.push({
      kind: change.kind,
      ids: change.ids,
      ...(change.translationOf ? { translationOf: change.translationOf } : {}),
      ...(change.duplicateOf ? { duplicateOf: change.duplicateOf } : {}),
    });
  });
  return seen;
}

describeEachDialect('entry write listeners', (dialect) => {
  it('hears every kind of entry write with the entries it touched', async () => {
    const cms = await testCms(dialect, { config: { i18n } });
    await postsCollection(cms, {
      supports: ['drafts', 'revisions'],
      fields: [{ slug: 'sku', label: 'SKU', type: 'string', translatable: false }],
    });
    const seen = record(cms);
    const en = (await createEntry(cms, { data: { title: 'Hello', sku: 'A' } })).item;
    await publish(cms, en.id);
    const fr = (await createEntry(cms, { locale: 'fr', translationOf: en.id, data: { title: 'Salut' } })).item;
    const put = (id: string, data: object) =>
      call(cms, 'PUT', `/content/posts/${id}`, { token: cms.adminToken, body: { data } });
    await put(en.id, { sku: 'B' });
    await publish(cms, en.id);
    const post = (id: string, action: string) =>
      call(cms, 'POST', `/content/posts/${id}/${action}`, { token: cms.adminToken, body: {} });
    await post(en.id, 'unpublish');
    const copy = (await post(en.id, 'duplicate')).body.data.item;
    await call(cms, 'DELETE', `/content/posts/${copy.id}`, { token: cms.adminToken });
    await post(copy.id, 'restore');
    await call(cms, 'DELETE', `/content/posts/${copy.id}`, { token: cms.adminToken });
    await call(cms, 'DELETE', `/content/posts/${copy.id}/permanent`, { token: cms.adminToken });
    expect(seen).toEqual([
      { kind: 'create', ids: [en.id] },
      { kind: 'publish', ids: [en.id] },
      { kind: 'create', ids: [fr.id], translationOf: en.id },
      { kind: 'update', ids: [en.id] },
      { kind: 'publish', ids: [en.id] },
      { kind: 'sync', ids: [fr.id] },
      { kind: 'unpublish', ids: [en.id] },
      { kind: 'duplicate', ids: [copy.id], duplicateOf: en.id },
      { kind: 'trash', ids: [copy.id] },
      { kind: 'restore', ids: [copy.id] },
      { kind: 'trash', ids: [copy.id] },
      { kind: 'delete', ids: [copy.id] },
    ]);
  });

  it('rolls the write back when a listener fails', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    cms.services.content.hooks.afterWrite('boom', async (_trx, change) => {
      if (change.kind === 'create') throw new Error('index unavailable');
    });
    const res = await call(cms, 'POST', '/content/posts', { token: cms.adminToken, body: { data: { title: 'x' } } });
    expect(res.status).toBe(500);
    const list = await call(cms, 'GET', '/content/posts', { token: cms.adminToken });
    expect(list.body.data.items).toEqual([]);
  });
});
