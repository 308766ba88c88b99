import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { articles, published } from '../../helpers/search.js';

/** Pieces that mean something to FTS5, tsquery, LIKE or SQL, plus awkward Unicode. */
const PIECES = [
  '"',
  "'",
  '(',
  ')',
  '*',
  '-',
  '+',
  ':',
  '^',
  '{',
  '}',
  '[',
  ']',
  '\\',
  '%',
  '_',
  '&',
  '|',
  '!',
  '<->',
  ':*',
  '<',
  '>',
  'NEAR',
  'NEAR(',
  'NEAR/3',
  'OR',
  'AND',
  'NOT',
  'or',
  'title:',
  '{a b}:',
  'a:*',
  '!!',
  '&&',
  '||',
  ';',
  '--',
  "'; drop table _cms_users; --",
  'café',
  'CAFÉ',
  '東京都',
  '東',
  '😀',
  '👩‍👩‍👧',
  'שלום',
  'e\u0301',
  '\u200b',
  '\t',
  '\n',
  'run',
  'running',
  'x'.repeat(300),
  'ab',
  '\\"',
  '""',
  '*"*',
  '-"',
  'ǅ',
  'ß',
  'İ',
  '\ufeff',
  '\u2028',
];

function prng(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

function queries(count: number): string[] {
  const rand = prng(42);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = 1 + Math.floor(rand() * 12);
    let q = '';
    for (let k = 0; k < n; k++) q += PIECES[Math.floor(rand() * PIECES.length)] + (rand() < 0.6 ? ' ' : '');
    out.push(q.slice(0, 1000));
  }
  return out;
}

describeEachDialect('search query fuzzing', (dialect) => {
  it('answers any input with results, no results or a 400, never a 500', async () => {
    const cms = await testCms(dialect);
    await articles(cms, { slug: 'porter' });
    await articles(cms, { slug: 'plain', tokenizer: 'unicode61' });
    await articles(cms, { slug: 'trigrams', tokenizer: 'trigram' });
    for (const collection of ['porter', 'plain', 'trigrams']) {
      await published(
        cms,
        { title: 'Café "quoted" (paren) NEAR OR', body: '東京都 run running 100% a_b \\ x:y' },
        collection,
      );
    }
    const inputs = [...queries(250), 'a'.repeat(1000), `${'w '.repeat(32)}`, `${'w '.repeat(33)}`, '-', '*', '"', 'OR'];
    const statuses = new Map<number, number>();
    for (const q of inputs) {
      for (const path of ['/search', '/search/suggest']) {
        const res = await call(cms, 'GET', `${path}?${new URLSearchParams({ q })}`, { token: cms.adminToken });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect([200, 400], `${path} ${JSON.stringify(q)}: ${JSON.stringify(res.body)}`).toContain(res.status);
        if (res.status === 400) expect(res.body.error.code).toBe('VALIDATION_ERROR');
      }
    }
    // The fuzzing reached real searches, not only refusals.
    expect(statuses.get(200)).toBeGreaterThan(300);
    const hit = await call(cms, 'GET', `/search?${new URLSearchParams({ q: '"quoted" (paren) NEAR OR café' })}`, {
      token: cms.adminToken,
    });
    expect(hit.body.data.items.length).toBeGreaterThanOrEqual(2);
  });
});
