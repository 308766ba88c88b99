/** POST /import/blogplatform/rewrite-urls, and the URL matching it relies on. */
import { describe, expect, it } from 'vitest';
import type { Actor } from '../../../src/auth/actor.js';
import { ROLES } from '../../../src/auth/roles.js';
import { CmsError } from '../../../src/core/errors.js';
import { UrlRewriter } from '../../../src/services/import/media-copy/url-rewrite.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { createEntry } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { sessionFor } from '../../helpers/session.js';

const OLD = 'https://old.example/wp-content/uploads/2020/05/photo.jpg';
const OLD2 = 'https://old.example/wp-content/uploads/doc.pdf';
const NEW = 'https://cms.example/_cms/api/media/file/m1';
const NEW2 = 'https://cms.example/_cms/api/media/file/m2';
const urlMap = { [OLD]: NEW, [OLD2]: NEW2 };

describe('UrlRewriter', () => {
  const rw = new UrlRewriter(urlMap);

  it('replaces whole URLs only, whatever the scheme or host case, before a query or trailing punctuation', () => {
    const text = `A ${OLD}, then http://OLD.example/wp-content/uploads/2020/05/photo.jpg?ver=2 and (${OLD2}).`;
    expect(rw.string(text)).toEqual({ value: `A ${NEW}, then ${NEW}?ver=2 and (${NEW2}).`, count: 3 });
    // Longer names that start with a mapped one are other files.
    const other = `${OLD}.webp ${OLD.replace('.jpg', '-150x150.jpg')} ${OLD}x`;
    expect(rw.string(other)).toEqual({ value: other, count: 0 });
  });

  it('walks JSON values, keeps unchanged values as they are and leaves the source record alone', () => {
    const pt = [
      { _type: 'block', _key: 'b', markDefs: [{ _key: 'l', _type: 'link', href: OLD }], children: [] },
      { _type: 'image', _key: 'i', src: NEW, sourceUrl: OLD },
    ];
    const r = rw.value(pt);
    expect(r.count).toBe(1);
    expect((r.value[0] as any).markDefs[0].href).toBe(NEW);
    expect(r.value[1]).toBe(pt[1]);
    const untouched = [{ _type: 'block', text: 'no links' }];
    expect(rw.value(untouched).value).toBe(untouched);
  });

  it('scans long hostile text in linear time', () => {
    const hostile = `${'http://a'.repeat(50_000)} ${'h'.repeat(200_000)}`;
    const started = performance.now();
    expect(rw.string(hostile).count).toBe(0);
    // Quadratic scanning of this text takes tens of seconds; the bound is loose for a busy machine.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

async function articles(cms: TestCms) {
  const res = await call(cms, 'POST', '/schema/collections', {
    token: cms.adminToken,
    body: {
      slug: 'articles',
      label: 'Articles',
      supports: ['revisions'],
      fields: [
        { slug: 'title', label: 'Title', type: 'string', required: true },
        { slug: 'summary', label: 'Summary', type: 'text' },
        { slug: 'body', label: 'Body', type: 'portableText' },
        { slug: 'cover', label: 'Cover', type: 'image' },
        { slug: 'brochure', label: 'Brochure', type: 'file' },
        { slug: 'website', label: 'Website', type: 'url' },
      ],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

const body = (href: string, src: string) => [
  {
    _type: 'block',
    _key: 'b1',
    style: 'normal',
    markDefs: [{ _key: 'l1', _type: 'link', href }],
    children: [
      { _type: 'span', _key: 's1', text: 'See ', marks: [] },
      { _type: 'span', _key: 's2', text: 'the photo', marks: ['l1'] },
    ],
  },
  { _type: 'image', _key: 'i1', src, alt: 'Photo' },
];

async function row(cms: TestCms, id: string) {
  return (cms.ctx.db as any).selectFrom('ec_articles').selectAll().where('id', '=', id).executeTakeFirst();
}

async function revisionData(cms: TestCms, id: string | null) {
  const r = await (cms.ctx.db as any)
    .selectFrom('_cms_revisions')
    .select('data')
    .where('id', '=', id)
    .executeTakeFirst();
  return JSON.parse(r.data);
}

describeEachDialect('Rewriting imported media URLs', (dialect) => {
  it('rewrites Portable Text, text, string, image and file fields, live and in the pending draft', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const a = await createEntry(
      cms,
      {
        data: {
          title: `Photo ${OLD}`,
          summary: `Download ${OLD2} or view ${OLD}.`,
          body: body(OLD, OLD),
          cover: { id: 'ext-1', provider: 'external', src: OLD, alt: 'Photo' },
          brochure: { id: 'ext-2', provider: 'external', filename: 'doc.pdf', mimeType: 'application/pdf', url: OLD2 },
          website: OLD,
        },
      },
      cms.adminToken,
      'articles',
    );
    expect(a.item.status).toBe('published');
    // A pending draft on the published entry, with its own link.
    const draft = await call(cms, 'PUT', `/content/articles/${a.item.id}`, {
      token: cms.adminToken,
      body: { data: { summary: `Draft links ${OLD2}` } },
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
    const b = await createEntry(
      cms,
      { data: { title: 'Nothing to change', summary: 'https://elsewhere.example/x.jpg' } },
      cms.adminToken,
      'articles',
    );
    const before = { a: await row(cms, a.item.id), b: await row(cms, b.item.id) };

    const res = await call(cms, 'POST', '/import/blogplatform/rewrite-urls', {
      token: cms.adminToken,
      body: { urlMap, collections: ['articles'] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Live: title 1, summary 2, body 2, cover 1, brochure 1; the draft's summary 1. The url field is not a media field.
    expect(res.body.data).toMatchObject({ updatedEntries: 1, rewrittenUrls: 8, errors: [] });

    const live = await row(cms, a.item.id);
    expect(live.title).toBe(`Photo ${NEW}`);
    expect(live.summary).toBe(`Download ${NEW2} or view ${NEW}.`);
    const pt = typeof live.body === 'string' ? JSON.parse(live.body) : live.body;
    expect(pt).toEqual(body(NEW, NEW));
    const cover = typeof live.cover === 'string' ? JSON.parse(live.cover) : live.cover;
    expect(cover).toEqual({ id: 'ext-1', provider: 'external', src: NEW, alt: 'Photo' });
    const brochure = typeof live.brochure === 'string' ? JSON.parse(live.brochure) : live.brochure;
    expect(brochure.url).toBe(NEW2);
    expect(live.website).toBe(OLD);
    expect(Number(live.version)).toBe(Number(before.a.version) + 1);
    const pending = await revisionData(cms, live.draft_revision_id);
    expect(pending.summary).toBe(`Draft links ${NEW2}`);
    expect(pending.body).toEqual(body(NEW, NEW));
    expect((await revisionData(cms, live.live_revision_id)).title).toBe(`Photo ${NEW}`);

    // An entry without a match is not written at all.
    const untouched = await row(cms, b.item.id);
    expect(untouched.version).toEqual(before.b.version);
    expect(untouched.updated_at).toEqual(before.b.updated_at);

    // The old _rev is stale now: an editor's save cannot silently undo the rewrite.
    const stale = await call(cms, 'PUT', `/content/articles/${a.item.id}`, {
      token: cms.adminToken,
      body: { data: { summary: 'old' }, _rev: draft.body.data._rev },
    });
    expect(stale.status).toBe(409);

    // A second pass finds nothing left to change.
    const again = await call(cms, 'POST', '/import/blogplatform/rewrite-urls', {
      token: cms.adminToken,
      body: { urlMap },
    });
    expect(again.body.data).toMatchObject({ updatedEntries: 0, rewrittenUrls: 0 });
  });

  it('works in batches, and refuses unknown collections before writing', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    for (let i = 0; i < 5; i++) {
      await createEntry(cms, { data: { title: `t${i}`, summary: i % 2 ? OLD : 'none' } }, cms.adminToken, 'articles');
    }
    const admin = (await cms.services.tokens.authenticate(cms.adminToken)) as Actor;
    const r = await cms.services.importMedia.rewriteUrls(admin, { urlMap }, { batchSize: 2 });
    expect(r).toMatchObject({ updatedEntries: 2, rewrittenUrls: 2 });
    const unknown = await call(cms, 'POST', '/import/blogplatform/rewrite-urls', {
      token: cms.adminToken,
      body: { urlMap, collections: ['articles', 'nope'] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('checks the map, and skips an entry the new URL would make invalid', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const field = await call(cms, 'POST', '/schema/collections/articles/fields', {
      token: cms.adminToken,
      body: { slug: 'caption', label: 'Caption', type: 'string', validation: { maxLength: 70 } },
    });
    expect(field.status, JSON.stringify(field.body)).toBe(201);
    const tight = await createEntry(cms, { data: { title: 't', caption: OLD } }, cms.adminToken, 'articles');
    const fine = await createEntry(cms, { data: { title: 'u', summary: OLD } }, cms.adminToken, 'articles');
    const longer = `https://cms.example/_cms/api/media/file/${'x'.repeat(40)}`;
    const res = await call(cms, 'POST', '/import/blogplatform/rewrite-urls', {
      token: cms.adminToken,
      body: { urlMap: { [OLD]: longer } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.updatedEntries).toBe(1);
    expect(res.body.data.errors).toHaveLength(1);
    expect(res.body.data.errors[0]).toMatchObject({ entryIds: [tight.item.id], code: 'VALIDATION_ERROR' });
    expect((await row(cms, tight.item.id)).caption).toBe(OLD);
    expect((await row(cms, fine.item.id)).summary).toBe(longer);

    for (const bad of [{ [OLD]: 'javascript:alert(1)' }, { [OLD]: '//evil.example/x' }, { 'not a url': NEW }]) {
      const refused = await call(cms, 'POST', '/import/blogplatform/rewrite-urls', {
        token: cms.adminToken,
        body: { urlMap: bad },
      });
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.body.error.code).toBe('VALIDATION_ERROR');
    }
    // A path of this site is a fine target; a save hook may refuse the rewrite of an entry, like any update.
    const path = { urlMap: { [longer]: '/_cms/api/media/file/m9' } };
    const unhook = cms.services.content.hooks.beforeSave('frozen', (e) =>
      e.entryId === fine.item.id ? { reject: 'frozen entry' } : undefined,
    );
    const frozen = await call(cms, 'POST', '/import/blogplatform/rewrite-urls', { token: cms.adminToken, body: path });
    expect(frozen.body.data.updatedEntries).toBe(0);
    expect(frozen.body.data.errors).toEqual([
      { collection: 'articles', entryIds: [fine.item.id], code: 'SAVE_REJECTED', message: 'frozen entry' },
    ]);
    unhook();
    const moved = await call(cms, 'POST', '/import/blogplatform/rewrite-urls', { token: cms.adminToken, body: path });
    expect(moved.body.data.updatedEntries).toBe(1);
    expect((await row(cms, fine.item.id)).summary).toBe('/_cms/api/media/file/m9');
  });

  it('rolls back a failing batch as a whole, reports it, and goes on with the others', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push(
        (await createEntry(cms, { data: { title: `t${i}`, summary: OLD } }, cms.adminToken, 'articles')).item.id,
      );
    }
    ids.sort();
    // A write listener refuses one entry (as a plugin or a media check could): its whole batch stays as it was.
    cms.services.content.hooks.afterWrite('refuse-one', async (_trx, change) => {
      if (change.ids.includes(ids[3])) throw new CmsError('SAVE_REJECTED', 'refused by a listener');
    });
    const admin = (await cms.services.tokens.authenticate(cms.adminToken)) as Actor;
    const r = await cms.services.importMedia.rewriteUrls(admin, { urlMap }, { batchSize: 2 });
    expect(r.updatedEntries).toBe(4);
    expect(r.errors).toEqual([
      { collection: 'articles', entryIds: [ids[2], ids[3]], code: 'SAVE_REJECTED', message: 'refused by a listener' },
    ]);
    const summaries = await Promise.all(ids.map(async (id) => (await row(cms, id)).summary));
    expect(summaries).toEqual([NEW, NEW, OLD, OLD, NEW, NEW]);
  });

  it('needs an Admin; a session must send X-CMS-Request', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const e = await createEntry(cms, { data: { title: 't', summary: OLD } }, cms.adminToken, 'articles');
    const req = { body: { urlMap } };
    expect((await call(cms, 'POST', '/import/blogplatform/rewrite-urls', req)).status).toBe(401);
    const editor = await cms.userToken(ROLES.EDITOR);
    const refused = await call(cms, 'POST', '/import/blogplatform/rewrite-urls', { ...req, token: editor.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
    const browser = await sessionFor(cms, cms.adminId);
    const noHeader = await browser.call('POST', '/import/blogplatform/rewrite-urls', { ...req, csrf: false });
    expect(noHeader.status).toBe(403);
    expect(noHeader.body.error.code).toBe('CSRF_REJECTED');
    expect((await row(cms, e.item.id)).summary).toBe(OLD);
    const ok = await browser.call('POST', '/import/blogplatform/rewrite-urls', req);
    expect(ok.status).toBe(200);
    expect((await row(cms, e.item.id)).summary).toBe(NEW);
  });
});
