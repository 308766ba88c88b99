import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { ok, taxonomy } from './helpers.js';

/** One write per structure domain, each against fresh names so any of them may succeed. */
function writes(
  n: number,
): Array<{ domain: 'taxonomies' | 'menus' | 'sections' | 'widgets'; method: string; path: string; body?: unknown }> {
  return [
    { domain: 'taxonomies', method: 'POST', path: '/taxonomies', body: { name: `t${n}`, label: 'T' } },
    { domain: 'taxonomies', method: 'POST', path: '/taxonomies/tags/terms', body: { label: `Term ${n}` } },
    { domain: 'taxonomies', method: 'PUT', path: '/taxonomies/tags', body: { label: `Tags ${n}` } },
    { domain: 'menus', method: 'POST', path: '/menus', body: { name: `m${n}`, label: 'M' } },
    { domain: 'menus', method: 'POST', path: '/menus/main/items', body: { kind: 'url', url: '/x', label: `x${n}` } },
    { domain: 'sections', method: 'POST', path: '/sections', body: { title: `Section ${n}` } },
    { domain: 'widgets', method: 'POST', path: '/widget-areas', body: { name: `w${n}`, label: 'W' } },
  ];
}

const READS = [
  '/taxonomies',
  '/taxonomies/tags',
  '/taxonomies/tags/terms',
  '/menus',
  '/menus/main',
  '/sections',
  '/widget-areas',
];

async function site(dialect: 'sqlite' | 'postgres'): Promise<TestCms> {
  const cms = await testCms(dialect);
  await taxonomy(cms, { name: 'tags', label: 'Tags' });
  await ok(cms, 'POST', '/menus', { name: 'main', label: 'Main' });
  return cms;
}

describeEachDialect('structure roles and scopes', (dialect) => {
  it('Subscribers read; managing needs an Editor (every role below is refused)', async () => {
    const cms = await site(dialect);
    let n = 0;
    for (const role of [ROLES.SUBSCRIBER, ROLES.CONTRIBUTOR, ROLES.AUTHOR]) {
      const { token } = await cms.userToken(role);
      for (const path of READS)
        expect((await call(cms, 'GET', path, { token })).status, `${role} GET ${path}`).toBe(200);
      for (const w of writes(n++)) {
        const res = await call(cms, w.method, w.path, { token, body: w.body });
        expect(res.status, `${role} ${w.method} ${w.path}`).toBe(403);
        expect(res.body.error.code).toBe('INSUFFICIENT_PERMISSIONS');
      }
    }
    const { token } = await cms.userToken(ROLES.EDITOR);
    for (const w of writes(n++)) {
      const res = await call(cms, w.method, w.path, { token, body: w.body });
      expect(res.status, `editor ${w.method} ${w.path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    }
    for (const path of READS) expect((await call(cms, 'GET', path, { token: null })).status).toBe(401);
  });

  it('token scopes: content:write covers every structure write; taxonomies:manage and menus:manage only their own', async () => {
    const cms = await site(dialect);
    const grants: Record<string, string[]> = {
      'content:read': [],
      'taxonomies:manage': ['taxonomies'],
      'menus:manage': ['menus'],
      'content:write': ['taxonomies', 'menus', 'sections', 'widgets'],
      'settings:read': [],
    };
    let n = 100;
    for (const [scope, allowed] of Object.entries(grants)) {
      const { token } = await cms.userToken(ROLES.EDITOR, [scope]);
      for (const w of writes(n++)) {
        const res = await call(cms, w.method, w.path, { token, body: w.body });
        if (allowed.includes(w.domain)) expect(res.status, `${scope} ${w.method} ${w.path}`).toBeLessThan(300);
        else {
          expect(res.status, `${scope} ${w.method} ${w.path}`).toBe(403);
          expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
        }
      }
    }
    // Reading needs content:read (or content:write).
    const settingsOnly = await cms.userToken(ROLES.EDITOR, ['settings:read']);
    const res = await call(cms, 'GET', '/taxonomies', { token: settingsOnly.token });
    expect(res.body.error.code).toBe('INSUFFICIENT_SCOPE');
  });
});
