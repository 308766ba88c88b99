import { expect } from 'vitest';
import { call, type TestCms } from './cms.js';
import { createEntry, publish } from './content.js';

/** A request to the site root (outside /_cms/api), as a visitor or crawler makes it. */
export function visit(cms: TestCms, path: string, init: RequestInit = {}) {
  return cms.app.request(path, init);
}

/** A `posts` collection open to comments with one published entry; returns the entry ID. */
export async function commentablePost(cms: TestCms, options: { supports?: string[] } = {}) {
  const res = await call(cms, 'POST', '/schema/collections', {
    token: cms.adminToken,
    body: {
      slug: 'posts',
      label: 'Posts',
      supports: options.supports ?? ['drafts', 'revisions', 'comments'],
      fields: [{ slug: 'title', label: 'Title', type: 'string', required: true }],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const entry = await createEntry(cms, { data: { title: 'Hello' }, slug: 'hello' });
  await publish(cms, entry.item.id);
  return entry.item.id as string;
}

/** A public comment submission as a browser page of the site sends it. */
export function submitComment(
  cms: TestCms,
  id: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = { 'x-cms-request': '1', 'x-forwarded-for': '203.0.113.9' },
  collection = 'posts',
) {
  return call(cms, 'POST', `/comments/${collection}/${id}`, { body, headers, token: null });
}
