import { expect, it } from 'vitest';
import { call } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { jpeg, type MediaCms, mediaCms, png, uploaded } from '../../helpers/media.js';

const MISSING = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

/** An image value as the admin's picker writes it. */
const imageValue = (item: any) => ({
  id: item.id,
  provider: 'local',
  src: item.url,
  alt: item.alt ?? '',
  width: item.width,
  height: item.height,
  mimeType: item.mimeType,
  meta: { storageKey: item.storageKey },
});

async function setup(cms: MediaCms) {
  await call(cms, 'POST', '/schema/block-types', {
    token: cms.adminToken,
    body: { slug: 'figure', label: 'Figure', fields: [{ slug: 'picture', label: 'Picture', type: 'image' }] },
  });
  await postsCollection(cms, {
    fields: [
      {
        slug: 'cover',
        label: 'Cover',
        type: 'image',
        validation: { allowedMimeTypes: ['image/png'] },
        options: { darkVariant: true },
      },
      { slug: 'attachment', label: 'Attachment', type: 'file' },
      {
        slug: 'gallery',
        label: 'Gallery',
        type: 'repeater',
        validation: { subFields: [{ slug: 'photo', label: 'Photo', type: 'image' }] },
      },
      { slug: 'content', label: 'Content', type: 'blocks', validation: { allowedTypes: ['figure'] } },
    ],
  });
}

describeEachDialect('Image and file field values against the library', (dialect) => {
  it('accepts values pointing at ready items the field allows', async () => {
    const cms = await mediaCms(dialect);
    await setup(cms);
    const cover = await uploaded(cms, await png(10, 10));
    const dark = await uploaded(cms, await png(11, 11));
    const photo = await uploaded(cms, await jpeg(12, 12), { name: 'p.jpg', type: 'image/jpeg' });
    const doc = await uploaded(cms, 'notes\n', { name: 'notes.txt', type: 'text/plain' });
    const entry = await createEntry(cms, {
      data: {
        title: 'With media',
        cover: { ...imageValue(cover), darkVariant: imageValue(dark) },
        attachment: { id: doc.id, provider: 'local', filename: doc.filename, mimeType: 'text/plain' },
        gallery: [{ photo: imageValue(photo) }],
        content: [{ _type: 'figure', _version: 1, _key: 'a', picture: imageValue(photo) }],
      },
    });
    expect(entry.item.data.cover.id).toBe(cover.id);
    // External providers are not part of the library: only their shape is checked.
    await createEntry(cms, {
      data: { title: 'External', cover: { id: 'abc', provider: 'cdn', src: 'https://cdn.example/a.png' } },
    });
  });

  it('refuses missing, pending and disallowed items, naming the field path', async () => {
    const cms = await mediaCms(dialect);
    await setup(cms);
    const photo = await uploaded(cms, await jpeg(12, 12), { name: 'p.jpg', type: 'image/jpeg' });
    const ok = await uploaded(cms, await png(10, 10));
    const pending = (
      await call(cms, 'POST', '/media/upload-url', {
        token: cms.adminToken,
        body: { filename: 'x.png', contentType: 'image/png', size: 10 },
      })
    ).body.data;
    const attempt = async (data: Record<string, unknown>) => {
      const res = await call(cms, 'POST', '/content/posts', {
        token: cms.adminToken,
        body: { data: { title: 'T', ...data } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      return res.body.error.details.issues.map((i: any) => i.path.join('.'));
    };
    expect(await attempt({ cover: { id: MISSING } })).toEqual(['data.cover.id']);
    expect(await attempt({ cover: { id: pending.mediaId, provider: 'local' } })).toEqual(['data.cover.id']);
    // The library's type decides, not the one written in the value.
    expect(await attempt({ cover: { id: photo.id, provider: 'local' } })).toEqual(['data.cover']);
    expect(await attempt({ cover: { ...imageValue(ok), mimeType: 'image/gif' } })).toEqual(
      expect.arrayContaining(['data.cover.mimeType']),
    );
    expect(await attempt({ cover: { ...imageValue(ok), darkVariant: { id: MISSING } } })).toEqual([
      'data.cover.darkVariant.id',
    ]);
    expect(await attempt({ attachment: { id: MISSING, filename: 'a.pdf', mimeType: 'application/pdf' } })).toEqual([
      'data.attachment.id',
    ]);
    expect(await attempt({ gallery: [{ photo: imageValue(ok) }, { photo: { id: MISSING } }] })).toEqual([
      'data.gallery.1.photo.id',
    ]);
    expect(await attempt({ content: [{ _type: 'figure', _version: 1, _key: 'k', picture: { id: MISSING } }] })).toEqual(
      ['data.content.0.picture.id'],
    );
    const list = await call(cms, 'GET', '/content/posts', { token: cms.adminToken });
    expect(list.body.data.items).toEqual([]);
  });

  it('checks updates too, including a draft staged on a published entry, and leaves the entry as it was', async () => {
    const cms = await mediaCms(dialect);
    await setup(cms);
    const ok = await uploaded(cms, await png(10, 10));
    const entry = await createEntry(cms, { data: { title: 'T', cover: imageValue(ok) } });
    await publish(cms, entry.item.id);
    const res = await call(cms, 'PUT', `/content/posts/${entry.item.id}`, {
      token: cms.adminToken,
      body: { data: { cover: { id: MISSING } } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.issues[0].path).toEqual(['data', 'cover', 'id']);
    const after = await call(cms, 'GET', `/content/posts/${entry.item.id}`, { token: cms.adminToken });
    expect(after.body.data.item.hasDraft).toBe(false);
    expect(after.body.data.item.data.cover.id).toBe(ok.id);
    const good = await call(cms, 'PUT', `/content/posts/${entry.item.id}`, {
      token: cms.adminToken,
      body: { data: { title: 'Renamed' } },
    });
    expect(good.status).toBe(200);
  });

  it('on update checks only the media values that changed: an unrelated edit survives a deleted item', async () => {
    const cms = await mediaCms(dialect);
    await setup(cms);
    const gone = await uploaded(cms, await png(10, 10));
    const other = await uploaded(cms, await png(13, 13));
    const photo = await uploaded(cms, await jpeg(12, 12), { name: 'p.jpg', type: 'image/jpeg' });
    const entry = await createEntry(cms, {
      data: { title: 'T', cover: imageValue(gone), gallery: [{ photo: imageValue(photo) }] },
    });
    const id = entry.item.id;
    const put = (data: Record<string, unknown>) =>
      call(cms, 'PUT', `/content/posts/${id}`, { token: cms.adminToken, body: { data } });
    // The item leaves the library while the entry still points at it (as a deletion elsewhere can leave it).
    await cms.ctx.db.deleteFrom('_cms_media').where('id', '=', gone.id).execute();

    expect((await put({ title: 'Renamed' })).status).toBe(200);
    // Sending the value it already holds is no change either.
    expect((await put({ title: 'Again', cover: imageValue(gone) })).status).toBe(200);
    // Changed values are still checked, wherever they are.
    const bad = await put({ gallery: [{ photo: imageValue(photo) }, { photo: { id: MISSING } }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues.map((i: any) => i.path)).toEqual([['data', 'gallery', 1, 'photo', 'id']]);
    expect((await put({ cover: imageValue(other) })).status).toBe(200);
    // Going back to the deleted item is a change, and refused.
    const back = await put({ cover: imageValue(gone) });
    expect(back.status).toBe(400);
    expect(back.body.error.details.issues[0]).toMatchObject({ path: ['data', 'cover', 'id'], code: 'not_found' });
    const after = await call(cms, 'GET', `/content/posts/${id}`, { token: cms.adminToken });
    expect(after.body.data.item.data).toMatchObject({ title: 'Again', cover: { id: other.id } });
    expect(after.body.data.item.data.gallery).toHaveLength(1);
  });
});
