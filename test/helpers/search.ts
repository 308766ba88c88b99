import { expect } from 'vitest';
import { call, type TestCms } from './cms.js';

/** A collection with search on: title (searchable, weight 10 unless told), body text and a Portable Text field. */
export async function articles(
  cms: TestCms,
  opts: { slug?: string; tokenizer?: string; weights?: Record<string, number>; supports?: string[] } = {},
) {
  const slug = opts.slug ?? 'articles';
  const res = await call(cms, 'POST', '/schema/collections', {
    token: cms.adminToken,
    body: {
      slug,
      label: 'Articles',
      supports: opts.supports ?? ['drafts', 'revisions', 'search'],
      fields: [
        { slug: 'title', label: 'Title', type: 'string', required: true, searchable: true },
        { slug: 'body', label: 'Body', type: 'text', searchable: true },
        { slug: 'content', label: 'Content', type: 'portableText', searchable: true },
        { slug: 'notes', label: 'Notes', type: 'text' },
      ],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const enable = await call(cms, 'POST', '/search/enable', {
    token: cms.adminToken,
    body: {
      collection: slug,
      ...(opts.tokenizer ? { tokenizer: opts.tokenizer } : {}),
      weights: opts.weights ?? { title: 10, body: 1, content: 1 },
    },
  });
  expect(enable.status, JSON.stringify(enable.body)).toBe(200);
  return enable.body.data;
}

/** Create and publish an entry; returns its ID. */
export async function published(cms: TestCms, data: Record<string, unknown>, collection = 'articles', extra = {}) {
  const created = await call(cms, 'POST', `/content/${collection}`, {
    token: cms.adminToken,
    body: { data, ...extra },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.data.item.id as string;
  const pub = await call(cms, 'POST', `/content/${collection}/${id}/publish`, { token: cms.adminToken, body: {} });
  expect(pub.status, JSON.stringify(pub.body)).toBe(200);
  return id;
}

export async function search(cms: TestCms, q: string, params: Record<string, string> = {}, token = cms.adminToken) {
  const qs = new URLSearchParams({ q, ...params }).toString();
  return call(cms, 'GET', `/search?${qs}`, { token });
}

/** IDs of the results, in rank order (fails the test on an error answer). */
export async function ids(cms: TestCms, q: string, params: Record<string, string> = {}, token = cms.adminToken) {
  const res = await search(cms, q, params, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data.items as Array<{ id: string }>).map((i) => i.id);
}

/** Portable Text with one paragraph per string. */
export const pt = (...paragraphs: string[]) =>
  paragraphs.map((text, i) => ({
    _type: 'block',
    _key: `b${i}`,
    style: 'normal',
    markDefs: [],
    children: [{ _type: 'span', _key: `s${i}`, text, marks: [] }],
  }));
