import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';

describeEachDialect('field values on writes', (dialect) => {
  it('validates and normalises every write: types, datetime, url safety, unique per locale', async () => {
    const cms = await testCms(dialect, { config: { i18n: { locales: ['en', 'fr'], defaultLocale: 'en' } } });
    await postsCollection(cms, {
      fields: [
        { slug: 'at', label: 'At', type: 'datetime' },
        { slug: 'code', label: 'Code', type: 'string', unique: true },
        { slug: 'tags', label: 'Tags', type: 'multiSelect', validation: { options: ['a', 'b'] } },
      ],
    });
    const ok = await createEntry(cms, {
      data: { title: 'T', at: '2026-06-01T12:00:00+02:00', code: 'X', tags: ['a'] },
    });
    expect(ok.item.data).toMatchObject({ at: '2026-06-01T10:00:00.000Z', code: 'X', tags: ['a'] });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: 'T', at: '2026-06-01T12:00:00' }, 'at'],
      [{ title: 'T', link: 'javascript:alert(1)' }, 'link'],
      [{ title: 'T', link: '//evil.example' }, 'link'],
      [{ title: 'T', views: 1.5 }, 'views'],
      [{ title: 'T', tags: ['c'] }, 'tags'],
      [{ title: 'T', code: 'X' }, 'code'],
      [{ title: 'T', nope: 1 }, 'nope'],
    ];
    for (const [data, field] of cases) {
      const res = await call(cms, 'POST', '/content/posts', { token: cms.adminToken, body: { data } });
      expect(res.status, JSON.stringify(data)).toBe(400);
      expect(res.body.error.details.issues.map((i: { path: unknown[] }) => i.path[1])).toContain(field);
    }
    // Unique is per locale: the French entry may reuse the value.
    const fr = await call(cms, 'POST', '/content/posts', {
      token: cms.adminToken,
      body: { locale: 'fr', data: { title: 'T', code: 'X' } },
    });
    expect(fr.status).toBe(201);
    const partial = await call(cms, 'PUT', `/content/posts/${ok.item.id}`, {
      token: cms.adminToken,
      body: { data: { title: '' } },
    });
    expect(partial.status).toBe(400);
  });

  it('returns an unsafe value stored by an earlier release unchanged, but refuses it when sent again or duplicated', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const { item } = await createEntry(cms, { data: { title: 'Legacy', link: 'https://ok.example' } });
    await sql`update ec_posts set link = 'javascript:alert(1)' where id = ${item.id}`.execute(cms.database.db);
    const read = await call(cms, 'GET', `/content/posts/${item.id}`, { token: cms.adminToken });
    expect(read.body.data.item.data.link).toBe('javascript:alert(1)');
    // A partial update that leaves the field alone is fine.
    expect(
      (await call(cms, 'PUT', `/content/posts/${item.id}`, { token: cms.adminToken, body: { data: { title: 'New' } } }))
        .status,
    ).toBe(200);
    const again = await call(cms, 'PUT', `/content/posts/${item.id}`, {
      token: cms.adminToken,
      body: { data: { link: 'javascript:alert(1)' } },
    });
    expect(again.status).toBe(400);
    const dup = await call(cms, 'POST', `/content/posts/${item.id}/duplicate`, { token: cms.adminToken, body: {} });
    expect(dup.status).toBe(400);
    expect(dup.body.error.details.issues[0].path).toEqual(['data', 'link']);
  });

  it('rejects a save refused by a beforeSave hook with 422 and writes nothing', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const off = cms.services.content.hooks.beforeSave('no-spam', (e) =>
      String(e.data.title).includes('spam') ? { reject: 'Titles may not mention spam' } : undefined,
    );
    const res = await call(cms, 'POST', '/content/posts', {
      token: cms.adminToken,
      body: { data: { title: 'buy spam' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'SAVE_REJECTED', message: 'Titles may not mention spam' });
    const { item } = await createEntry(cms, { data: { title: 'fine' } });
    await publish(cms, item.id);
    const upd = await call(cms, 'PUT', `/content/posts/${item.id}`, {
      token: cms.adminToken,
      body: { data: { title: 'spam' } },
    });
    expect(upd.status).toBe(422);
    const cur = await call(cms, 'GET', `/content/posts/${item.id}`, { token: cms.adminToken });
    expect(cur.body.data.item).toMatchObject({ hasDraft: false, data: { title: 'fine' } });
    off();
    expect(
      (
        await call(cms, 'PUT', `/content/posts/${item.id}`, {
          token: cms.adminToken,
          body: { data: { title: 'spam' } },
        })
      ).status,
    ).toBe(200);
  });

  it('stores repeater and blocks structures', async () => {
    const cms = await testCms(dialect);
    await call(cms, 'POST', '/schema/block-types', {
      token: cms.adminToken,
      body: { slug: 'quote', label: 'Quote', fields: [{ slug: 'text', label: 'Text', type: 'text', required: true }] },
    });
    await postsCollection(cms, {
      fields: [
        {
          slug: 'links',
          label: 'Links',
          type: 'repeater',
          validation: { subFields: [{ slug: 'href', label: 'Href', type: 'url', required: true }], maxItems: 2 },
        },
        { slug: 'content', label: 'Content', type: 'blocks', validation: { allowedTypes: ['quote'] } },
      ],
    });
    const good = await createEntry(cms, {
      data: {
        title: 'T',
        links: [{ href: 'https://a.example' }],
        content: [{ _type: 'quote', _version: 1, _key: 'k1', text: 'Hi' }],
      },
    });
    expect(good.item.data.content).toEqual([{ _type: 'quote', _version: 1, _key: 'k1', text: 'Hi' }]);
    const bad = await call(cms, 'POST', '/content/posts', {
      token: cms.adminToken,
      body: {
        data: {
          title: 'T',
          links: [{ href: 'x' }, { href: 'https://b' }, { href: 'https://c' }],
          content: [{ _type: 'hero', _version: 1, _key: 'k' }],
        },
      },
    });
    expect(bad.status).toBe(400);
    const paths = bad.body.error.details.issues.map((i: { path: unknown[] }) => i.path.slice(0, 2).join('.'));
    expect(paths).toEqual(expect.arrayContaining(['data.links', 'data.content']));
  });
});
