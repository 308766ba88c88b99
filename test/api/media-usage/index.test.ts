import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call } from '../../helpers/cms.js';
import { createEntry, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mediaCms, uploaded } from '../../helpers/media.js';
import { expectUsage, images, imageValue, model, usagePages, usageSchema } from '../../helpers/media-usage.js';

const i18n = { locales: ['en', 'fr'], defaultLocale: 'en' };

describeEachDialect('Media usage index', (dialect) => {
  it('follows every content write in the same transaction, and counts and pages what it holds', async () => {
    const cms = await mediaCms(dialect, 'file', { config: { i18n } });
    const token = cms.adminToken;
    await usageSchema(cms);
    const [a, b, c, d] = await images(cms, 4);
    const doc = await uploaded(cms, 'notes\n', { name: 'notes.txt', type: 'text/plain' });
    const all = [a, b, c, d, doc];
    const x = model();
    await expectUsage(cms, all, x.m);

    // Image, repeater (the same item twice counts once), block and Portable Text image sources.
    const e1 = (
      await createEntry(cms, {
        data: {
          title: 'One',
          cover: imageValue(a),
          gallery: [{ photo: imageValue(b) }, { photo: imageValue(b) }],
          content: [{ _type: 'figure', _version: 1, _key: 'f', picture: imageValue(c) }],
          story: [{ _type: 'image', _key: 'i', asset: { _ref: d.id } }],
        },
      })
    ).item.id;
    x.set(e1, [a, b, c, d]);
    // A file field and a Portable Text gallery; an external image and a rich-text address are not library items.
    const e2 = (
      await createEntry(cms, {
        data: {
          title: 'Two',
          attachment: { id: doc.id, provider: 'local', filename: 'notes.txt', mimeType: 'text/plain' },
          cover: { id: 'ext', provider: 'cdn', src: 'https://cdn.example/x.png' },
          story: [
            { _type: 'gallery', _key: 'g', images: [{ asset: { _ref: a.id } }, { mediaId: b.id }] },
            { _type: 'image', _key: 'j', src: 'https://example.com/x.png' },
          ],
        },
      })
    ).item.id;
    x.set(e2, [doc, a, b]);
    await expectUsage(cms, all, x.m);

    // Publish, then stage a draft: the live reference and the draft's both count until the draft goes live.
    await publish(cms, e1);
    const staged = await call(cms, 'PUT', `/content/posts/${e1}`, {
      token,
      body: { data: { cover: imageValue(c), story: [] } },
    });
    expect(staged.status, JSON.stringify(staged.body)).toBe(200);
    await expectUsage(cms, all, x.m);
    // Readers without draft access see no count and only live references of published entries.
    const subscriber = await cms.userToken(ROLES.SUBSCRIBER);
    const sub = await call(cms, 'GET', `/media/${a.id}?includeUsage=1`, { token: subscriber.token });
    expect(sub.body.data.item.usage).toEqual({ count: null, coverage: 'complete' });
    expect((await usagePages(cms, a.id, subscriber.token)).items.map((r) => r.id)).toEqual([e1]);
    expect((await usagePages(cms, d.id, subscriber.token)).items.map((r) => r.id)).toEqual([e1]);
    await publish(cms, e1);
    x.set(e1, [b, c]);
    await expectUsage(cms, all, x.m);
    expect((await usagePages(cms, d.id, subscriber.token)).items).toEqual([]);

    // A translation is a row of its own; the page names its locale, title and status.
    const fr = (
      await createEntry(cms, { locale: 'fr', translationOf: e1, data: { title: 'Un', cover: imageValue(d) } })
    ).item.id;
    x.set(fr, [d]);
    await expectUsage(cms, all, x.m);
    const page = await usagePages(cms, d.id);
    expect(page.items).toEqual([{ collection: 'posts', id: fr, locale: 'fr', title: 'Un', status: 'draft' }]);

    // Duplicate, trash, restore, unpublish, permanent delete.
    const dup = (await call(cms, 'POST', `/content/posts/${e2}/duplicate`, { token, body: {} })).body.data.item.id;
    x.set(dup, [doc, a, b]);
    await expectUsage(cms, all, x.m);
    expect((await call(cms, 'DELETE', `/content/posts/${e2}`, { token })).status).toBe(200);
    x.drop(e2);
    await expectUsage(cms, all, x.m);
    expect((await call(cms, 'POST', `/content/posts/${e2}/restore`, { token, body: {} })).status).toBe(200);
    x.set(e2, [doc, a, b]);
    expect((await call(cms, 'POST', `/content/posts/${e1}/unpublish`, { token, body: {} })).status).toBe(200);
    await expectUsage(cms, all, x.m);
    expect((await call(cms, 'DELETE', `/content/posts/${dup}`, { token })).status).toBe(200);
    expect((await call(cms, 'DELETE', `/content/posts/${dup}/permanent`, { token })).status).toBe(200);
    x.drop(dup);
    await expectUsage(cms, all, x.m);

    // Site settings count, read from the stored settings on each request.
    const put = await call(cms, 'PUT', '/settings', {
      token,
      body: { logo: a.id, favicon: c.id, seo: { defaultOgImage: a.id } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const settings = new Map([
      [a.id, ['logo', 'seo.defaultOgImage']],
      [c.id, ['favicon']],
    ]);
    await expectUsage(cms, all, x.m, settings);

    // Deleting a field drops its references at once.
    const del = await call(cms, 'DELETE', '/schema/collections/posts/fields/story', { token });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    x.set(e2, [doc]);
    await expectUsage(cms, all, x.m, settings);

    // A failed write leaves nothing behind: the whole transaction, index rows included, rolls back.
    const bad = await call(cms, 'POST', '/content/posts', {
      token,
      body: { data: { title: 'Bad', cover: imageValue(a), attachment: { id: 'nope', provider: 'local' } } },
    });
    expect(bad.status).toBe(400);
    await expectUsage(cms, all, x.m, settings);
  }, 120_000);

  it('stops counting a deleted collection at once and clears its rows as retriable work', async () => {
    const cms = await mediaCms(dialect);
    const token = cms.adminToken;
    await usageSchema(cms);
    await usageSchema(cms, 'pages');
    const [a] = await images(cms, 1);
    const p = (await createEntry(cms, { data: { title: 'P', cover: imageValue(a) } }, token, 'pages')).item.id;
    const q = (await createEntry(cms, { data: { title: 'Q', cover: imageValue(a) } })).item.id;
    await expectUsage(cms, [a], new Map([[a.id, new Set([p, q])]]));
    expect((await call(cms, 'DELETE', '/schema/collections/pages', { token })).status).toBe(200);
    await expectUsage(cms, [a], new Map([[a.id, new Set([q])]]));

    const list = await call(cms, 'GET', '/admin/media-usage/collection-deletions', { token });
    expect(list.status).toBe(200);
    expect(list.body.data.backlog).toBe('some');
    const [work] = list.body.data.items;
    expect(work).toMatchObject({ kind: 'collection-deletion', collection: 'pages', status: 'pending' });
    // Nothing of the work exposes content, media or leases.
    expect(JSON.stringify(list.body.data)).not.toContain(a.id);
    expect(JSON.stringify(list.body.data)).not.toContain(p);
    expect(Object.keys(work).sort()).toEqual(
      [
        'attempts',
        'collection',
        'createdAt',
        'id',
        'kind',
        'lastErrorCode',
        'leaseExpiresAt',
        'status',
        'updatedAt',
        'version',
      ].sort(),
    );

    const stale = await call(cms, 'POST', '/admin/media-usage/collection-deletions/retry', {
      token,
      body: { id: work.id, version: work.version + 5 },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('WORK_CHANGED');
    const retried = await call(cms, 'POST', '/admin/media-usage/collection-deletions/retry', {
      token,
      body: { id: work.id, version: work.version },
    });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.data.item.status).toBe('done');
    // Idempotent: a second retry answers the finished item unchanged.
    const again = await call(cms, 'POST', '/admin/media-usage/collection-deletions/retry', {
      token,
      body: { id: work.id },
    });
    expect(again.body.data.item).toEqual(retried.body.data.item);
    const left = await cms.ctx.db.selectFrom('_cms_media_usage').select('entry_id').where('entry_id', '=', p).execute();
    expect(left).toEqual([]);
    expect((await call(cms, 'GET', '/admin/media-usage/collection-deletions', { token })).body.data.backlog).toBe(
      'none',
    );
  });
});
