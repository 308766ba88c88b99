import { describe, expect, it } from 'vitest';
import { testCms } from '../../helpers/cms.js';

const DOCUMENTED = [
  'listUsers',
  'getUser',
  'updateUser',
  'disableUser',
  'enableUser',
  'listAllowedDomains',
  'createAllowedDomain',
  'updateAllowedDomain',
  'deleteAllowedDomain',
];

describe('OpenAPI document: identity routes', () => {
  it('documents the users and allowed-domain operations and hides sign-in, setup, invites and tokens', async () => {
    const cms = await testCms('sqlite', { withAdmin: false });
    const doc = (await (await cms.app.request('/_cms/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
    for (const id of DOCUMENTED) expect(ids).toContain(id);
    const paths = Object.keys(doc.paths);
    expect(paths).toContain('/admin/users/{id}/disable');
    expect(paths).toContain('/admin/allowed-domains/{domain}');
    for (const p of paths) {
      expect(p).not.toMatch(/^\/(auth|setup)\b/);
      expect(p).not.toMatch(/recovery-link|\/admin\/invites/);
    }
  });
});
