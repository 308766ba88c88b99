import { expect, it } from 'vitest';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { roleTokens } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { articles, published } from '../../helpers/search.js';

async function suggest(cms: TestCms, q: string, params: Record<string, string> = {}, token = cms.adminToken) {
  const res = await call(cms, 'GET', `/search/suggest?${new URLSearchParams({ q, ...params })}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data.items as Array<{ title: string }>).map((i) => i.title);
}

describeEachDialect('search suggestions', (dialect) => {
  it('completes titles by word prefix, whole-title matches first, without stemming', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    await published(cms, { title: 'Headless content management' });
    await published(cms, { title: 'Going headless' });
    await published(cms, { title: 'Headlines of the week' });
    await published(cms, { title: 'Computers and computing' });
    expect(await suggest(cms, 'head')).toEqual([
      'Headlines of the week',
      'Headless content management',
      'Going headless',
    ]);
    expect(await suggest(cms, 'headli')).toEqual(['Headlines of the week']);
    expect(await suggest(cms, 'headless cont')).toEqual(['Headless content management']);
    expect(await suggest(cms, 'comput')).toEqual(['Computers and computing']);
    expect(await suggest(cms, 'Hé')).toEqual([
      'Headlines of the week',
      'Headless content management',
      'Going headless',
    ]);
    expect(await suggest(cms, 'h')).toEqual([]);
    expect(await suggest(cms, 'head', { limit: '1' })).toHaveLength(1);
  });

  it('suggests only what the caller may read', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const { subscriber } = await roleTokens(cms);
    await published(cms, { title: 'Published puffin' });
    await call(cms, 'POST', '/content/articles', { token: cms.adminToken, body: { data: { title: 'Draft puffin' } } });
    expect(await suggest(cms, 'puff', {}, subscriber.token)).toEqual(['Published puffin']);
    expect((await suggest(cms, 'puff')).sort()).toEqual(['Draft puffin', 'Published puffin']);
  });

  it('completes substrings of three characters or more under trigram', async () => {
    const cms = await testCms(dialect);
    await articles(cms, { tokenizer: 'trigram' });
    await published(cms, { title: '東京都庁の展望台' });
    await published(cms, { title: 'Substring title' });
    expect(await suggest(cms, '東京都')).toEqual(['東京都庁の展望台']);
    expect(await suggest(cms, '東京')).toEqual([]);
    expect(await suggest(cms, 'strin')).toEqual(['Substring title']);
  });
});
