import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';

const i18n = { locales: ['en', 'fr', 'de'], defaultLocale: 'en', fallback: { fr: 'en' } };
const shared = [{ slug: 'sku', label: 'SKU', type: 'string', translatable: false }];

async function get(cms: TestCms, id: string, token = cms.adminToken) {
  return (await call(cms, 'GET', `/content/posts/${id}`, { token })).body.data.item;
}

describeEachDialect('translations and i18n', (dialect) => {
  it('creates a draft translation in the source group with shared values and a default slug', async () => {
    const cms = await testCms(dialect, { config: { i18n } });
    await postsCollection(cms, { fields: shared });
    const en = await createEntry(cms, { data: { title: 'Hello', sku: 'A-1' } });
    await publish(cms, en.item.id);
    const fr = await createEntry(cms, {
      locale: 'fr',
      translationOf: en.item.id,
      data: { title: 'Bonjour', sku: 'ignored' },
    });
    expect(fr.item).toMatchObject({
      locale: 'fr',
      status: 'draft',
      slug: 'hello-fr',
      translationGroup: en.item.translationGroup,
      data: { title: 'Bonjour', sku: 'A-1' },
    });
    const again = await call(cms, 'POST', '/content/posts', {
      token: cms.adminToken,
      body: { locale: 'fr', translationOf: en.item.id, data: { title: 'x' } },
    });
    expect(again.status).toBe(409);
    const tr = await call(cms, 'GET', `/content/posts/${en.item.id}/translations`, { token: cms.adminToken });
    expect(tr.body.data).toEqual({
      translationGroup: en.item.translationGroup,
      items: [
        expect.objectContaining({ id: en.item.id, locale: 'en', slug: 'hello', status: 'published' }),
        expect.objectContaining({ id: fr.item.id, locale: 'fr', slug: 'hello-fr', status: 'draft' }),
      ],
    });
    const sub = await cms.userToken(ROLES.SUBSCRIBER);
    const subTr = await call(cms, 'GET', `/content/posts/${en.item.id}/translations`, { token: sub.token });
    expect(subTr.body.data.items.map((i: { locale: string }) => i.locale)).toEqual(['en']);
    // Each locale's status is its own.
    expect((await get(cms, fr.item.id)).status).toBe('draft');
  });

  it('slug reads follow requested → fallback → default for published entries', async () => {
    const cms = await testCms(dialect, { config: { i18n } });
    await postsCollection(cms);
    const sub = await cms.userToken(ROLES.SUBSCRIBER);
    const en = await createEntry(cms, { slug: 'about', data: { title: 'About' } });
    await publish(cms, en.item.id);
    const fr = await createEntry(cms, {
      locale: 'fr',
      translationOf: en.item.id,
      slug: 'about',
      data: { title: 'À propos' },
    });
    const read = async (locale: string, token = sub.token) =>
      (await call(cms, 'GET', `/content/posts/about?locale=${locale}`, { token })).body.data?.item;
    expect((await read('fr')).locale).toBe('en'); // French draft is not live: falls back
    expect((await read('de')).locale).toBe('en'); // de → default
    await publish(cms, fr.item.id);
    expect((await read('fr')).data.title).toBe('À propos');
    expect((await read('en')).data.title).toBe('About');
    expect((await call(cms, 'GET', '/content/posts/missing?locale=fr', { token: sub.token })).status).toBe(404);
  });

  it('without revisions, shared values follow at once from a published entry, and from a draft when it is published', async () => {
    const cms = await testCms(dialect, { config: { i18n } });
    await postsCollection(cms, { fields: shared, supports: ['drafts'] });
    const en = await createEntry(cms, { data: { title: 'Hello', sku: 'A-1' } });
    await publish(cms, en.item.id);
    const fr = await createEntry(cms, { locale: 'fr', translationOf: en.item.id, data: { title: 'Bonjour' } });
    const put = (id: string, sku: string) =>
      call(cms, 'PUT', `/content/posts/${id}`, { token: cms.adminToken, body: { data: { sku } } });
    // A draft's shared values are not live: saving it changes only that entry …
    await put(fr.item.id, 'B-2');
    expect((await get(cms, en.item.id)).data.sku).toBe('A-1');
    // … until it is published.
    await publish(cms, fr.item.id);
    expect((await get(cms, en.item.id)).data.sku).toBe('B-2');
    // A save of a published entry is live at once, and so is the sync.
    await put(en.item.id, 'C-3');
    expect((await get(cms, fr.item.id)).data.sku).toBe('C-3');
  });

  it('with revisions, publishing copies changed shared values; a sibling draft that changed it keeps its own', async () => {
    const cms = await testCms(dialect, { config: { i18n } });
    await postsCollection(cms, {
      fields: [...shared, { slug: 'color', label: 'Color', type: 'string', translatable: false }],
    });
    const en = await createEntry(cms, { data: { title: 'Hello', sku: 'A-1', color: 'red' } });
    await publish(cms, en.item.id);
    const fr = await createEntry(cms, { locale: 'fr', translationOf: en.item.id, data: { title: 'Bonjour' } });
    await publish(cms, fr.item.id);
    // The French draft changes color; the English draft changes sku and color.
    await call(cms, 'PUT', `/content/posts/${fr.item.id}`, {
      token: cms.adminToken,
      body: { data: { color: 'bleu' } },
    });
    await call(cms, 'PUT', `/content/posts/${en.item.id}`, {
      token: cms.adminToken,
      body: { data: { sku: 'A-2', color: 'green' } },
    });
    // Saving a draft changed only that entry.
    const sub = await cms.userToken(ROLES.SUBSCRIBER);
    expect((await get(cms, fr.item.id, sub.token)).data).toMatchObject({ sku: 'A-1', color: 'red' });
    await publish(cms, en.item.id);
    const frLive = await get(cms, fr.item.id, sub.token);
    expect(frLive.data).toMatchObject({ sku: 'A-2', color: 'green' });
    const frDraft = await get(cms, fr.item.id);
    expect(frDraft.data).toMatchObject({ sku: 'A-2', color: 'bleu' });
    await publish(cms, fr.item.id);
    expect((await get(cms, en.item.id, sub.token)).data.color).toBe('bleu');
  });

  it('is single-language (en) without i18n configuration', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const en = await createEntry(cms, { data: { title: 'x' } });
    expect(en.item.locale).toBe('en');
    const fr = await call(cms, 'POST', '/content/posts', {
      token: cms.adminToken,
      body: { locale: 'fr', data: { title: 'y' } },
    });
    expect(fr.status).toBe(400);
  });
});
