/**
 * What the contract fuzzer (fuzz.test.ts) found, one regression each, on both databases: each was
 * a 500 or an answer the OpenAPI document did not list.
 */
import { expect, it } from 'vitest';
import { call, testCms } from '../helpers/cms.js';
import { postsCollection } from '../helpers/content.js';
import { describeEachDialect } from '../helpers/db.js';

describeEachDialect('contract fuzzer regressions', (dialect) => {
  it('refuses odd list orders, filters and cursors, odd sort orders and JSON sent to uploads with 4xx', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms, { fields: [{ slug: 'rank', label: 'Rank', type: 'number', indexed: true }] });
    const get = (q: string) => call(cms, 'GET', `/content/posts?${q}`, { token: cms.adminToken });

    // An empty orderBy was taken as "no order" and then looked up as the order named "" (500).
    const empty = await get('orderBy=');
    expect(empty.status, JSON.stringify(empty.body)).toBe(400);
    expect(empty.body.error.code).toBe('VALIDATION_ERROR');

    // Numbers beyond double range (Infinity once parsed) and beyond an integer column's range (PostgreSQL 500).
    for (const filter of ['{"views":1e309}', '{"views":{"gte":1e300}}', '{"views":1.5}', '{"rank":{"lt":-1e309}}']) {
      const res = await get(`fieldFilters=${encodeURIComponent(filter)}`);
      expect(res.status, `${filter}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await get(`fieldFilters=${encodeURIComponent('{"rank":{"gte":1e300}}')}`)).status).toBe(200);
    const cursor = Buffer.from('[1e300,"01ARZ3NDEKTSV4RRFFQ69G5FAV"]').toString('base64url');
    const crafted = await get(`orderBy=views&cursor=${cursor}`);
    expect(crafted.status, JSON.stringify(crafted.body)).toBe(400);
    expect(crafted.body.error.code).toBe('VALIDATION_ERROR');

    // A non-integer or out-of-range sortOrder on a field (PostgreSQL 500 on an integer column).
    for (const sortOrder of [1.5, 1e12]) {
      const res = await call(cms, 'POST', '/schema/collections/posts/fields', {
        token: cms.adminToken,
        body: { slug: 'extra', label: 'Extra', type: 'string', sortOrder },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }

    // A JSON body sent to an octet-stream upload route: its stream was already read at the door (500).
    for (const token of [cms.adminToken, null]) {
      for (const path of [
        '/media/01ARZ3NDEKTSV4RRFFQ69G5FAV/upload',
        '/admin/transfer/imports/01ARZ3NDEKTSV4RRFFQ69G5FAV/files/a',
      ]) {
        const res = await call(cms, 'PUT', path, { token, body: { name: 'x.png' } });
        expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
        expect(res.body.success).toBe(false);
        if (token) expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      }
    }
  });

  it('documents the 415 of JSON operations and the CSRF, size and rate answers of public writes', async () => {
    const cms = await testCms(dialect);
    const doc = (await (await cms.app.request('/_cms/api/openapi.json')).json()) as any;
    const create = doc.paths['/content/{collection}'].post.responses;
    expect(create['415']).toBeDefined();
    const comment = doc.paths['/comments/{collection}/{contentId}'].post;
    expect(Object.keys(comment.responses)).toEqual(expect.arrayContaining(['401', '403', '429', '415']));
    await postsCollection(cms);
    const res = await call(cms, 'POST', '/content/posts', {
      token: cms.adminToken,
      raw: '{"data":{"title":"x"}}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('documents what the manifest, deduplicated uploads, conflicts and nullable named values answer', async () => {
    const cms = await testCms(dialect);
    const doc = (await (await cms.app.request('/_cms/api/openapi.json')).json()) as any;
    // The manifest is a JSON object, not bytes.
    const manifest = doc.paths['/admin/transfer/exports/{id}/manifest'].get.responses['200'].content;
    expect(manifest['application/json'].schema.type).toBe('object');
    expect(manifest['application/json'].schema.properties.files).toBeDefined();
    // A deduplicated upload answers 200 (spec), a new one 201: both documented.
    for (const [path, method] of [
      ['/media', 'post'],
      ['/media/upload-url', 'post'],
    ]) {
      expect(Object.keys(doc.paths[path][method].responses)).toEqual(expect.arrayContaining(['200', '201']));
    }
    // 409 names its codes.
    const conflict = doc.paths['/content/{collection}'].post.responses['409'].description;
    for (const code of ['ALREADY_EXISTS', 'REV_CONFLICT', 'CONFLICT']) expect(conflict).toContain(code);
    // Nullable values of a named schema keep their null.
    const schemas = doc.components.schemas;
    for (const [name, prop] of [
      ['MediaItem', 'focalPoint'],
      ['ContentItem', 'byline'],
    ]) {
      const s = schemas[name].properties[prop];
      expect(s.anyOf ?? s.oneOf, `${name}.${prop}`).toEqual(expect.arrayContaining([{ type: 'null' }]));
    }
  });

  it('refuses a word as a number filter bound and an integer cursor key beyond range with 400 (PostgreSQL 500)', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms, { fields: [{ slug: 'rank', label: 'Rank', type: 'integer', indexed: true }] });
    const get = (path: string) => call(cms, 'GET', path, { token: cms.adminToken });
    for (const filter of ['{"views":{"gte":"x"}}', '{"rank":"x"}', '{"rank":{"in":["1","y"]}}', '{"views":true}']) {
      const res = await get(`/content/posts?fieldFilters=${encodeURIComponent(filter)}`);
      expect(res.status, `${filter}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    // A numeral written as a string is its number.
    expect((await get(`/content/posts?fieldFilters=${encodeURIComponent('{"views":{"gte":"2"}}')}`)).status).toBe(200);
    await call(cms, 'POST', '/taxonomies', {
      token: cms.adminToken,
      body: { name: 'tags', label: 'Tags', hierarchical: false, collections: ['posts'] },
    });
    const cursor = Buffer.from('[99999999999999999999,"01ARZ3NDEKTSV4RRFFQ69G5FAV"]').toString('base64url');
    for (const path of [`/taxonomies/tags/terms?cursor=${cursor}`, `/redirects?sort=hits&cursor=${cursor}`]) {
      const res = await get(path);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });
});
