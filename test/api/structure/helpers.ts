import { expect } from 'vitest';
import { call, type TestCms } from '../../helpers/cms.js';

/** Three configured locales, `fr` falling back to `en`. */
export const I18N = { locales: ['de', 'en', 'fr'], defaultLocale: 'en', fallback: { fr: 'en' } };

export async function ok<T = any>(
  cms: TestCms,
  method: string,
  path: string,
  body?: unknown,
  token: string = cms.adminToken,
  status = method === 'POST' ? [200, 201] : [200],
): Promise<T> {
  const res = await call(cms, method, path, { token, body });
  expect(status, `${method} ${path}: ${JSON.stringify(res.body)}`).toContain(res.status);
  return res.body.data as T;
}

export async function taxonomy(cms: TestCms, body: Record<string, unknown>) {
  return ok(cms, 'POST', '/taxonomies', body);
}

export async function term(cms: TestCms, tax: string, body: Record<string, unknown>) {
  return ok(cms, 'POST', `/taxonomies/${tax}/terms`, body);
}
