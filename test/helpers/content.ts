import { expect } from 'vitest';
import { ROLES } from '../../src/auth/roles.js';
import { call, type TestCms } from './cms.js';

/** A `posts` collection with a few typical fields. */
export async function postsCollection(
  cms: TestCms,
  extra: { supports?: string[]; fields?: unknown[]; slug?: string } = {},
) {
  const res = await call(cms, 'POST', '/schema/collections', {
    token: cms.adminToken,
    body: {
      slug: extra.slug ?? 'posts',
      label: 'Posts',
      ...(extra.supports ? { supports: extra.supports } : {}),
      fields: [
        { slug: 'title', label: 'Title', type: 'string', required: true, indexed: true },
        { slug: 'body', label: 'Body', type: 'text' },
        { slug: 'views', label: 'Views', type: 'integer', indexed: true },
        { slug: 'link', label: 'Link', type: 'url' },
        ...(extra.fields ?? []),
      ],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

export async function createEntry(
  cms: TestCms,
  body: Record<string, unknown>,
  token = cms.adminToken,
  collection = 'posts',
) {
  const res = await call(cms, 'POST', `/content/${collection}`, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { item: any; _rev: string };
}

export async function publish(cms: TestCms, id: string, token = cms.adminToken, collection = 'posts') {
  const res = await call(cms, 'POST', `/content/${collection}/${id}/publish`, { token, body: {} });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { item: any; _rev: string };
}

/** Tokens for one user of each role below Admin. */
export async function roleTokens(cms: TestCms) {
  return {
    subscriber: await cms.userToken(ROLES.SUBSCRIBER),
    contributor: await cms.userToken(ROLES.CONTRIBUTOR),
    author: await cms.userToken(ROLES.AUTHOR),
    editor: await cms.userToken(ROLES.EDITOR),
  };
}
