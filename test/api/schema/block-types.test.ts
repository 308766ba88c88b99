import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';

const hero = {
  slug: 'hero',
  label: 'Hero',
  fields: [
    { slug: 'heading', label: 'Heading', type: 'string', required: true },
    { slug: 'image', label: 'Image', type: 'image' },
  ],
};

describeEachDialect('schema API: block types', (dialect) => {
  it('creates version 1, adds versions on field changes, activates older ones', async () => {
    const cms = await testCms(dialect);
    const created = await call(cms, 'POST', '/schema/block-types', { token: cms.adminToken, body: hero });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({ slug: 'hero', activeVersion: 1 });
    expect(created.body.data.versions).toHaveLength(1);

    const relabel = await call(cms, 'PUT', '/schema/block-types/hero', {
      token: cms.adminToken,
      body: { label: 'Big hero' },
    });
    expect(relabel.body.data).toMatchObject({ label: 'Big hero', activeVersion: 1 });
    expect(relabel.body.data.versions).toHaveLength(1);

    const v2 = await call(cms, 'PUT', '/schema/block-types/hero', {
      token: cms.adminToken,
      body: { fields: [...hero.fields, { slug: 'cta', label: 'CTA', type: 'url' }] },
    });
    expect(v2.status, JSON.stringify(v2.body)).toBe(200);
    expect(v2.body.data.activeVersion).toBe(2);
    expect(v2.body.data.fields.map((f: { slug: string }) => f.slug)).toEqual(['heading', 'image', 'cta']);

    const back = await call(cms, 'POST', '/schema/block-types/hero/versions/1/activate', { token: cms.adminToken });
    expect(back.status).toBe(200);
    expect(back.body.data.activeVersion).toBe(1);
    expect(back.body.data.versions.map((v: { active: boolean }) => v.active)).toEqual([true, false]);
    const missing = await call(cms, 'POST', '/schema/block-types/hero/versions/9/activate', { token: cms.adminToken });
    expect(missing.status).toBe(404);

    const list = await call(cms, 'GET', '/schema/block-types', { token: cms.adminToken });
    expect(list.body.data.items.map((b: { slug: string }) => b.slug)).toEqual(['hero']);
  });

  it('refuses forbidden field kinds in block definitions', async () => {
    const cms = await testCms(dialect);
    for (const type of ['reference', 'json', 'slug', 'blocks']) {
      const res = await call(cms, 'POST', '/schema/block-types', {
        token: cms.adminToken,
        body: { slug: `b_${type}`, label: 'B', fields: [{ slug: 'x', label: 'X', type }] },
      });
      expect(res.status, type).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const dup = await call(cms, 'POST', '/schema/block-types', { token: cms.adminToken, body: hero });
    expect(dup.status).toBe(201);
    expect((await call(cms, 'POST', '/schema/block-types', { token: cms.adminToken, body: hero })).status).toBe(409);
  });

  it('blocks fields name existing block types; dropped types become retired', async () => {
    const cms = await testCms(dialect);
    await call(cms, 'POST', '/schema/block-types', { token: cms.adminToken, body: hero });
    await call(cms, 'POST', '/schema/block-types', {
      token: cms.adminToken,
      body: { slug: 'quote', label: 'Quote', fields: [{ slug: 'text', label: 'Text', type: 'text' }] },
    });
    await call(cms, 'POST', '/schema/collections', { token: cms.adminToken, body: { slug: 'pages', label: 'Pages' } });
    const unknown = await call(cms, 'POST', '/schema/collections/pages/fields', {
      token: cms.adminToken,
      body: { slug: 'body', label: 'Body', type: 'blocks', validation: { allowedTypes: ['nope'] } },
    });
    expect(unknown.status).toBe(400);
    const ok = await call(cms, 'POST', '/schema/collections/pages/fields', {
      token: cms.adminToken,
      body: { slug: 'body', label: 'Body', type: 'blocks', validation: { allowedTypes: ['hero', 'quote'] } },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const drop = await call(cms, 'PUT', '/schema/collections/pages/fields/body', {
      token: cms.adminToken,
      body: { validation: { allowedTypes: ['quote'] } },
    });
    expect(drop.status, JSON.stringify(drop.body)).toBe(200);
    expect(drop.body.data.validation).toEqual({ allowedTypes: ['quote'], retiredTypes: ['hero'] });
    const readd = await call(cms, 'PUT', '/schema/collections/pages/fields/body', {
      token: cms.adminToken,
      body: { validation: { allowedTypes: ['quote', 'hero'] } },
    });
    expect(readd.body.data.validation).toEqual({ allowedTypes: ['quote', 'hero'] });
  });
});
