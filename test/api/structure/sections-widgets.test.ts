import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { postsCollection } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { ok, taxonomy } from './helpers.js';

const para = (text: string, key = 'k1') => ({
  _type: 'block',
  _key: key,
  style: 'normal',
  markDefs: [],
  children: [{ _type: 'span', _key: `${key}s`, text, marks: [] }],
});

describeEachDialect('sections', (dialect) => {
  it('creates, lists, reads, renames and deletes sections of Portable Text', async () => {
    const cms = await testCms(dialect);
    const created = await ok(cms, 'POST', '/sections', { title: 'Newsletter sign-up', content: [para('Join us')] });
    expect(created).toMatchObject({ slug: 'newsletter-sign-up', blockCount: 1, content: [para('Join us')] });
    const second = await ok(cms, 'POST', '/sections', { title: 'Newsletter sign-up' });
    expect(second.slug).toBe('newsletter-sign-up-2');
    await ok(cms, 'POST', '/sections', { title: 'Disclaimer', slug: 'legal', description: 'Small print' });
    const taken = await call(cms, 'POST', '/sections', { token: cms.adminToken, body: { title: 'x', slug: 'legal' } });
    expect(taken.status).toBe(409);
    const list = await ok(cms, 'GET', '/sections?limit=2');
    expect(list.items.map((s: any) => s.slug)).toEqual(['legal', 'newsletter-sign-up']);
    expect(list.items[0].content).toBeUndefined();
    expect((await ok(cms, 'GET', `/sections?cursor=${list.nextCursor}`)).items.map((s: any) => s.slug)).toEqual([
      'newsletter-sign-up-2',
    ]);
    expect((await ok(cms, 'GET', '/sections?search=DISCLA')).items.map((s: any) => s.slug)).toEqual(['legal']);
    const updated = await ok(cms, 'PUT', '/sections/legal', {
      slug: 'small-print',
      content: [para('A'), para('B', 'k2')],
    });
    expect(updated).toMatchObject({ slug: 'small-print', title: 'Disclaimer', blockCount: 2 });
    expect((await call(cms, 'GET', '/sections/legal', { token: cms.adminToken })).status).toBe(404);
    expect(await ok(cms, 'DELETE', '/sections/small-print')).toEqual({ deleted: true, slug: 'small-print' });
  });

  it('validates Portable Text (links follow the url rules) and text both engines store', async () => {
    const cms = await testCms(dialect);
    const link = {
      _type: 'block',
      _key: 'b',
      markDefs: [{ _type: 'link', _key: 'l', href: 'javascript:alert(1)' }],
      children: [{ _type: 'span', _key: 's', text: 'x', marks: ['l'] }],
    };
    for (const content of [[link], ['not a block'], [para('nul\u0000')], 'nope']) {
      const res = await call(cms, 'POST', '/sections', { token: cms.adminToken, body: { title: 'T', content } });
      expect(res.status, JSON.stringify(content)).toBe(400);
      expect(res.body.error.details.issues[0].path[0]).toBe('content');
    }
    expect((await ok(cms, 'GET', '/sections')).items).toEqual([]);
  });
});

describeEachDialect('widget areas', (dialect) => {
  it('holds ordered widgets of each type with checked settings', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    await taxonomy(cms, { name: 'tags', label: 'Tags' });
    await ok(cms, 'POST', '/menus', { name: 'footer', label: 'Footer' });
    await ok(cms, 'POST', '/sections', { title: 'About', slug: 'about' });
    const area = await ok(cms, 'POST', '/widget-areas', { name: 'sidebar', label: 'Sidebar' });
    expect(area).toMatchObject({ name: 'sidebar', widgetCount: 0, widgets: [] });
    const widgets = [];
    for (const body of [
      { type: 'richText', title: 'Hello', settings: { content: [para('Hi')] } },
      { type: 'menu', settings: { menu: 'footer' } },
      { type: 'section', settings: { section: 'about' } },
      { type: 'terms', title: 'Tags', settings: { taxonomy: 'tags', showCounts: true } },
      { type: 'recentEntries', settings: { collection: 'posts' } },
      { type: 'custom', settings: { kind: 'weather', data: { city: 'Oslo' } } },
    ]) {
      widgets.push(await ok(cms, 'POST', '/widget-areas/sidebar/widgets', body));
    }
    expect(widgets.map((w) => w.position)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(widgets[4].settings).toEqual({ collection: 'posts', limit: 5 });
    expect(widgets[3].settings).toEqual({ taxonomy: 'tags', showCounts: true, hideEmpty: false });
    const ids = widgets.map((w) => w.id);
    const reordered = await ok(cms, 'POST', '/widget-areas/sidebar/reorder', { ids: [...ids].reverse() });
    expect(reordered.widgets.map((w: any) => w.type)).toEqual([
      'custom',
      'recentEntries',
      'terms',
      'section',
      'menu',
      'richText',
    ]);
    const stale = await call(cms, 'POST', '/widget-areas/sidebar/reorder', {
      token: cms.adminToken,
      body: { ids: ids.slice(1) },
    });
    expect(stale.status).toBe(409);
    const updated = await ok(cms, 'PUT', `/widget-areas/sidebar/widgets/${ids[4]}`, {
      title: 'Latest',
      settings: { collection: 'posts', limit: 3 },
    });
    expect(updated).toMatchObject({ title: 'Latest', settings: { limit: 3 } });
    await ok(cms, 'DELETE', `/widget-areas/sidebar/widgets/${ids[0]}`);
    const got = await ok(cms, 'GET', '/widget-areas/sidebar');
    expect(got.widgetCount).toBe(5);
    const list = await ok(cms, 'GET', '/widget-areas');
    expect(list.items).toEqual([expect.objectContaining({ name: 'sidebar', widgetCount: 5 })]);
    expect(await ok(cms, 'DELETE', '/widget-areas/sidebar')).toEqual({ deleted: true, name: 'sidebar' });
    expect(await cms.database.db.selectFrom('_cms_widgets').selectAll().execute()).toEqual([]);
  });

  it('refuses settings of the wrong shape or naming missing records, and unknown types', async () => {
    const cms = await testCms(dialect);
    await ok(cms, 'POST', '/widget-areas', { name: 'footer', label: 'Footer' });
    for (const [body, path] of [
      [{ type: 'menu', settings: { menu: 'nope' } }, ['settings', 'menu']],
      [{ type: 'section', settings: {} }, ['settings', 'section']],
      [{ type: 'recentEntries', settings: { collection: 'posts', limit: 50 } }, ['settings', 'limit']],
      [{ type: 'recentEntries', settings: { collection: 'nope' } }, ['settings', 'collection']],
      [{ type: 'terms', settings: { taxonomy: 'nope' } }, ['settings', 'taxonomy']],
      [{ type: 'richText', settings: { content: [{ _type: 'block', children: 'x' }] } }, ['settings', 'content', 0]],
      [{ type: 'custom', settings: { kind: 'x', data: { big: 'y'.repeat(70_000) } } }, ['settings', 'data']],
      [{ type: 'custom', settings: { kind: 'x', data: { 'k\u0000': 1 } } }, ['settings', 'data', 'k\u0000']],
      [{ type: 'menu', settings: { menu: 'x', extra: 1 } }, ['settings']],
      [{ type: 'nope' }, ['type']],
    ] as const) {
      const res = await call(cms, 'POST', '/widget-areas/footer/widgets', { token: cms.adminToken, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.error.details.issues[0].path.slice(0, path.length), JSON.stringify(body).slice(0, 80)).toEqual(
        path,
      );
    }
    const dup = await call(cms, 'POST', '/widget-areas', {
      token: cms.adminToken,
      body: { name: 'footer', label: 'F' },
    });
    expect(dup.status).toBe(409);
    expect((await call(cms, 'GET', '/widget-areas/nope', { token: cms.adminToken })).status).toBe(404);
    expect(
      (await call(cms, 'PUT', '/widget-areas/footer/widgets/nope', { token: cms.adminToken, body: { title: 'x' } }))
        .status,
    ).toBe(404);
  });
});
