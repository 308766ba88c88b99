import { expect, it } from 'vitest';
import { CmsError } from '../../src/core/errors.js';
import { call, testCms } from '../helpers/cms.js';
import { describeEachDialect } from '../helpers/db.js';

describeEachDialect('response envelope and error model', (dialect) => {
  it('answers malformed JSON, wrong content types and unknown routes in the envelope', async () => {
    const cms = await testCms(dialect);
    const malformed = await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      raw: '{"slug": "x",',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      success: false,
      error: { code: 'VALIDATION_ERROR', message: 'Malformed JSON in request body' },
    });

    const wrongType = await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      raw: 'slug=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');

    const unknown = await call(cms, 'GET', '/no/such/route', { token: cms.adminToken });
    expect(unknown.status).toBe(404);
    expect(unknown.body.success).toBe(false);
    expect(unknown.body.error.code).toBe('NOT_FOUND');

    const missingBody = await call(cms, 'POST', '/schema/collections', { token: cms.adminToken });
    expect(missingBody.status).toBe(400);
    expect(missingBody.body.error.code).toBe('VALIDATION_ERROR');
    expect(missingBody.body.error.details.issues.length).toBeGreaterThan(0);
  });

  it('puts zod issues in details of a VALIDATION_ERROR', async () => {
    const cms = await testCms(dialect);
    const res = await call(cms, 'POST', '/schema/collections', { token: cms.adminToken, body: { slug: 5 } });
    expect(res.status).toBe(400);
    const paths = res.body.error.details.issues.map((i: { path: unknown[] }) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['slug', 'label']));
    for (const issue of res.body.error.details.issues) {
      expect(issue).toEqual({ path: expect.any(Array), code: expect.any(String), message: expect.any(String) });
    }
  });

  it('carries a request id on every response, keeping a well-formed client id', async () => {
    const cms = await testCms(dialect);
    const ok = await call(cms, 'GET', '/schema/collections', { token: cms.adminToken });
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9A-Z]{26}$/);
    const err = await call(cms, 'GET', '/nope');
    expect(err.headers.get('x-request-id')).toMatch(/^[0-9A-Z]{26}$/);
    const mine = await call(cms, 'GET', '/schema/collections', {
      token: cms.adminToken,
      headers: { 'x-request-id': 'trace-123' },
    });
    expect(mine.headers.get('x-request-id')).toBe('trace-123');
    const hostile = await call(cms, 'GET', '/schema/collections', {
      token: cms.adminToken,
      headers: { 'x-request-id': 'a b\tc' },
    });
    expect(hostile.headers.get('x-request-id')).not.toBe('a b\tc');
  });

  it('refuses bad credentials with 401 and never falls back to anonymous', async () => {
    const cms = await testCms(dialect);
    for (const header of ['Bearer cms_pat_nope', 'Basic abc', 'Bearer']) {
      const res = await call(cms, 'GET', '/schema/collections', { headers: { authorization: header } });
      expect(res.status, header).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
    const { record, token } = await cms.services.tokens.create(null, { userId: cms.adminId, name: 'short' });
    expect((await call(cms, 'GET', '/schema/collections', { token })).status).toBe(200);
    await cms.services.tokens.revoke(
      { kind: 'user', userId: cms.adminId, name: null, email: null, role: 50, scopes: null, tokenId: null, via: 'cli' },
      record.id,
    );
    expect((await call(cms, 'GET', '/schema/collections', { token })).status).toBe(401);
  });

  it('hides internal failures behind INTERNAL_ERROR without leaking messages', async () => {
    const cms = await testCms(dialect);
    cms.app.get('/_cms/api/boom', () => {
      throw new Error('SELECT secret FROM passwords; stack at /srv/app.js:1');
    });
    // Routes added after composition land outside the API sub-app; drive the handler through the root app.
    const res = await cms.app.request('/_cms/api/boom');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      success: false,
      error: { code: 'INTERNAL_ERROR', message: 'Internal server error' },
    });
    expect(text).not.toContain('secret');
    expect(new CmsError('RATE_LIMITED', 'x').status).toBe(429);
    expect(new CmsError('PAYLOAD_TOO_LARGE', 'x').status).toBe(413);
  });

  it('refuses bodies above the size limit with 413', async () => {
    const cms = await testCms(dialect, { config: { maxUploadSize: 1024 } });
    const big = JSON.stringify({ slug: 'x', label: 'y'.repeat(11 * 1024 * 1024) });
    const res = await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      raw: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
