import { expect, it } from 'vitest';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';

const HOSTILE = '(a|a)+(?!c)b';
const THIRTY = 'a'.repeat(30);

async function collectionWithPattern(cms: TestCms, pattern: string) {
  return call(cms, 'POST', '/schema/collections', {
    token: cms.adminToken,
    body: {
      slug: 'codes',
      label: 'Codes',
      fields: [{ slug: 'code', label: 'Code', type: 'string', validation: { pattern } }],
    },
  });
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

describeEachDialect('field patterns never block the process', (dialect) => {
  it('refuses lookaround and back-references when a field is defined, naming the pattern', async () => {
    const cms = await testCms(dialect);
    for (const pattern of [HOSTILE, '(?=x)x', '(?<=a)b', '(a)\\1', '(?<n>a)\\k<n>']) {
      const res = await collectionWithPattern(cms, pattern);
      expect(res.status, pattern).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      const issue = res.body.error.details.issues[0];
      expect(issue.path.slice(-2)).toEqual(['validation', 'pattern']);
      expect(issue.message).toMatch(/linear time/);
    }
    // Adding such a field to an existing collection is refused the same way.
    expect((await collectionWithPattern(cms, '[a-z]+')).status).toBe(201);
    const added = await call(cms, 'POST', '/schema/collections/codes/fields', {
      token: cms.adminToken,
      body: { slug: 'other', label: 'Other', type: 'text', validation: { pattern: HOSTILE } },
    });
    expect(added.status).toBe(400);
    expect(added.body.error.details.issues[0].path).toEqual(['validation', 'pattern']);
  });

  it('matches a catastrophic-backtracking pattern in linear time', async () => {
    const cms = await testCms(dialect);
    // Exponential on a backtracking engine (2^30 paths for 30 characters); linear on ours.
    expect((await collectionWithPattern(cms, '(a|a)+b')).status).toBe(201);
    const { value: refused, ms } = await timed(() =>
      call(cms, 'POST', '/content/codes', { token: cms.adminToken, body: { data: { code: THIRTY } } }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.issues[0]).toMatchObject({ path: ['data', 'code'], code: 'invalid_format' });
    // Backtracking would take minutes; the loose bound leaves a busy machine room for the request itself.
    expect(ms).toBeLessThan(5_000);
    const ok = await call(cms, 'POST', '/content/codes', {
      token: cms.adminToken,
      body: { data: { code: `${THIRTY}b` } },
    });
    expect(ok.status).toBe(201);
  });

  it('never runs a hostile pattern stored before the rule, and refuses the value instead of skipping the check', async () => {
    const cms = await testCms(dialect);
    expect((await collectionWithPattern(cms, '[a-z]+b')).status).toBe(201);
    // A pattern accepted by an earlier version, written straight into the schema tables.
    await cms.ctx.db
      .updateTable('_cms_fields')
      .set({ validation: JSON.stringify({ pattern: HOSTILE }) })
      .where('slug', '=', 'code')
      .execute();
    cms.services.schema.cache.invalidate();
    const { value: res, ms } = await timed(() =>
      call(cms, 'POST', '/content/codes', { token: cms.adminToken, body: { data: { code: THIRTY } } }),
    );
    // As above: minutes if the pattern ran, so a bound loose enough for a busy machine.
    expect(ms).toBeLessThan(5_000);
    expect(res.status).toBe(400);
    expect(res.body.error.details.issues[0]).toMatchObject({ path: ['data', 'code'], code: 'invalid_format' });
    expect(res.body.error.details.issues[0].message).toMatch(/an Admin must change it/);
    // An Admin fixes it by defining a supported pattern.
    const fixed = await call(cms, 'PUT', '/schema/collections/codes/fields/code', {
      token: cms.adminToken,
      body: { validation: { pattern: 'a+b' } },
    });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(
      (await call(cms, 'POST', '/content/codes', { token: cms.adminToken, body: { data: { code: 'aab' } } })).status,
    ).toBe(201);
  });

  it('understands the JavaScript escapes the editor uses (\\uXXXX, surrogate pairs, \\u{…}, \\p{…})', async () => {
    const cms = await testCms(dialect);
    const pattern = '\\u00e9+\\uD83D\\uDE00?\\u{1F600}?\\p{Lu}*';
    expect((await collectionWithPattern(cms, pattern)).status).toBe(201);
    const write = (code: string) =>
      call(cms, 'POST', '/content/codes', { token: cms.adminToken, body: { data: { code } } });
    expect((await write('éé😀😀ÀB')).status).toBe(201);
    expect((await write('e')).status).toBe(400);
    expect((await write('é😀😀😀')).status).toBe(400);
  });
});
