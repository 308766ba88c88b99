import { expect, it } from 'vitest';
import { testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { articles, published, search } from '../../helpers/search.js';

async function snippet(cms: Awaited<ReturnType<typeof testCms>>, q: string) {
  const res = await search(cms, q);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data.items as Array<{ snippet: string }>)[0]?.snippet;
}

const filler = (n: number, word = 'lorem') => Array.from({ length: n }, () => word).join(' ');

/** Passages are cut the same way on both engines: the window of 24 words with the most matched words. */
describeEachDialect('search snippets', (dialect) => {
  it('marks stemmed forms and prefixes, and shows the same window on both engines', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    await published(cms, {
      title: 'Machines',
      body: `${filler(40)} the computers were computing quietly ${filler(40, 'ipsum')}.`,
    });
    const expected = '…lorem lorem lorem the <mark>computers</mark> were <mark>computing</mark> quietly ipsum ipsum';
    expect(await snippet(cms, 'computer')).toMatch(new RegExp(`^${expected}( ipsum){14}…$`));
    expect(await snippet(cms, 'comput*')).toMatch(new RegExp(`^${expected}( ipsum){14}…$`));
  });

  it('prefers the passage holding the most different query words', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    await published(cms, {
      title: 'Harbour',
      body: `Gulls over the harbour. ${filler(40)} The harbour lighthouse at dusk. ${filler(40)}`,
    });
    const s = await snippet(cms, 'harbour lighthouse');
    expect(s).toContain('The <mark>harbour</mark> <mark>lighthouse</mark> at dusk.');
    expect(s.startsWith('…')).toBe(true);
  });

  it('marks words whose first letter carries an accent the index folds', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    await published(cms, { title: 'Dessert', body: 'The Élan of a crème brûlée, served cold.' });
    const s = await snippet(cms, 'elan creme');
    expect(s).toContain('<mark>Élan</mark>');
    expect(s).toContain('<mark>crème</mark>');
  });
});
