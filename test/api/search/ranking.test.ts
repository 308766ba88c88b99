import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { articles, ids, pt, published, search } from '../../helpers/search.js';

/** The same queries answer the same entries in the same order on SQLite (FTS5) and PostgreSQL. */
describeEachDialect('search ranking', (dialect) => {
  it('stems English words with the default tokenizer, and does not without it', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const running = await published(cms, { title: 'Morning', body: 'She was running along the river' });
    const runs = await published(cms, { title: 'Evening', body: 'He runs every day' });
    await published(cms, { title: 'Track', body: 'The runner stretched' });
    expect((await ids(cms, 'run')).sort()).toEqual([running, runs].sort());
    expect((await ids(cms, 'runs')).sort()).toEqual([running, runs].sort());

    const res = await call(cms, 'POST', '/search/enable', {
      token: cms.adminToken,
      body: { collection: 'articles', tokenizer: 'unicode61' },
    });
    expect(res.body.data).toMatchObject({ tokenizer: 'unicode61', state: 'ready' });
    expect(await ids(cms, 'run')).toEqual([]);
    expect(await ids(cms, 'runs')).toEqual([runs]);
  });

  it('folds accents and case under both word tokenizers', async () => {
    for (const tokenizer of ['porter unicode61', 'unicode61']) {
      const cms = await testCms(dialect);
      await articles(cms, { tokenizer });
      const cafe = await published(cms, { title: 'Café Crème', body: 'Naïve résumé from Zürich' });
      await published(cms, { title: 'Tea', body: 'Nothing accented' });
      for (const q of ['cafe', 'CAFÉ', 'creme', 'naive resume', 'ZURICH', 'Café crème']) {
        expect(await ids(cms, q), `${tokenizer}: ${q}`).toEqual([cafe]);
      }
    }
  });

  it('ranks by field weight, and a weight change reorders without a rebuild', async () => {
    const cms = await testCms(dialect);
    await articles(cms, { weights: { title: 10, body: 1, content: 1 } });
    const inTitle = await published(cms, { title: 'Zebra crossing', body: 'A road marking for pedestrians' });
    const inBody = await published(cms, { title: 'Road markings', body: 'The zebra crossing is striped' });
    expect(await ids(cms, 'zebra')).toEqual([inTitle, inBody]);
    const before = (await call(cms, 'GET', '/search/stats?collection=articles', { token: cms.adminToken })).body.data
      .collections[0];
    const res = await call(cms, 'POST', '/search/enable', {
      token: cms.adminToken,
      body: { collection: 'articles', weights: { title: 1, body: 10, content: 10 } },
    });
    expect(res.body.data.weights).toEqual({ title: 1, body: 10, content: 10 });
    expect(await ids(cms, 'zebra')).toEqual([inBody, inTitle]);
    // Same grouping of fields: the query-time weights changed, the index did not.
    expect(res.body.data.lastRebuildAt).toBe(before.lastRebuildAt);
  });

  it('ranks more occurrences higher, and shorter documents over longer ones', async () => {
    const cms = await testCms(dialect);
    await articles(cms, { weights: { title: 1, body: 1, content: 1 } });
    const once = await published(cms, { title: 'One', body: 'alpha beta gamma delta epsilon zeta' });
    const thrice = await published(cms, { title: 'Three', body: 'alpha beta alpha gamma alpha delta' });
    const long = await published(cms, {
      title: 'Long',
      body: `alpha ${'filler words that say nothing in particular '.repeat(30)}`,
    });
    expect(await ids(cms, 'alpha')).toEqual([thrice, once, long]);
  });

  it('matches phrases only as written, prefixes, alternatives and exclusions', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const fox = await published(cms, { title: 'Fox', body: 'The quick brown fox jumps over the lazy dog' });
    const other = await published(cms, { title: 'Mixed', body: 'Brown and quick, the dog computed a compiler' });
    const cat = await published(cms, { title: 'Cat', body: 'A cat accompanied the dog' });
    expect(await ids(cms, '"quick brown"')).toEqual([fox]);
    expect(await ids(cms, '"brown quick"')).toEqual([]);
    expect((await ids(cms, 'quick brown')).sort()).toEqual([fox, other].sort());
    expect(await ids(cms, 'comp*')).toEqual([other]);
    expect((await ids(cms, 'fox OR cat')).sort()).toEqual([fox, cat].sort());
    expect((await ids(cms, 'dog -fox')).sort()).toEqual([other, cat].sort());
    expect(await ids(cms, 'dog -fox -"quick, the"')).toEqual([cat]);
  });

  it('matches phrases with stemming, stop words, three words and repeated words the same way', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const hat = await published(cms, { title: 'Hat', body: 'The cat in the hat came back' });
    const running = await published(cms, { title: 'Dogs', body: 'Running dogs bark; the dogs were running' });
    const chain = await published(cms, { title: 'Chain', body: 'one two three four, three two one' });
    const apart = await published(cms, { title: 'Apart', body: 'cat and hat, dog running, two one three' });
    expect(await ids(cms, '"cat in the hat"')).toEqual([hat]);
    expect(await ids(cms, '"runs dog"')).toEqual([running]);
    expect(await ids(cms, '"dogs were running"')).toEqual([running]);
    expect(await ids(cms, '"two three four"')).toEqual([chain]);
    expect(await ids(cms, '"three two one"')).toEqual([chain]);
    expect(await ids(cms, '"two one three"')).toEqual([apart]);
    expect(await ids(cms, '"one two" "three four"')).toEqual([chain]);
    expect(await ids(cms, '"four three"')).toEqual([chain]);
    expect(await ids(cms, '"four one"')).toEqual([]);
    expect((await ids(cms, '"cat in the hat" OR "two one"')).sort()).toEqual([hat, chain, apart].sort());
  });

  it('finds CJK text and substrings with the trigram tokenizer; under three characters finds nothing', async () => {
    const cms = await testCms(dialect);
    await articles(cms, { tokenizer: 'trigram' });
    const tokyo = await published(cms, { title: '東京の天気', body: '東京都の天気は晴れです' });
    const kyoto = await published(cms, { title: '京都', body: '京都府は雨でした' });
    const sub = await published(cms, { title: 'Matching', body: 'Substring matching inside words' });
    expect(await ids(cms, '東京都')).toEqual([tokyo]);
    expect(await ids(cms, '天気は')).toEqual([tokyo]);
    expect(await ids(cms, '京都府')).toEqual([kyoto]);
    expect(await ids(cms, '東京')).toEqual([]);
    expect(await ids(cms, 'ab')).toEqual([]);
    expect(await ids(cms, 'ubstrin')).toEqual([sub]);
    expect(await ids(cms, 'SUBSTRING')).toEqual([sub]);
    expect(await ids(cms, '"ing ins"')).toEqual([sub]);
    const hit = (await search(cms, '天気は')).body.data.items[0];
    expect(hit.snippet).toContain('<mark>天気は</mark>');
    // Title weight 10 beats the body: both mention 都 in a three-character match.
    const both = await published(cms, { title: '東京都庁', body: 'ビル' });
    expect(await ids(cms, '東京都')).toEqual([both, tokyo]);
  });

  it('indexes Portable Text as its text only', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const doc = await published(cms, {
      title: 'Rich',
      content: [
        {
          _type: 'block',
          _key: 'blockkey',
          style: 'blockquote',
          markDefs: [{ _key: 'lnk', _type: 'link', href: 'https://secrethost.example/path' }],
          children: [{ _type: 'span', _key: 'spankey', text: 'Visible paragraph about lighthouses', marks: ['lnk'] }],
        },
      ],
    });
    expect(await ids(cms, 'lighthouse')).toEqual([doc]);
    for (const q of ['blockquote', 'span', 'spankey', 'markDefs', 'secrethost', 'children', '_type', 'marks']) {
      expect(await ids(cms, q), q).toEqual([]);
    }
    const multi = await published(cms, { title: 'Paragraphs', content: pt('First lantern', 'Second beacon') });
    expect(await ids(cms, 'lantern beacon')).toEqual([multi]);
  });

  it('answers snippets as escaped HTML with the matches marked', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    await published(cms, {
      title: 'Markup',
      body: 'Beware <script>alert("x")</script> & <img src=x onerror=y> tasty pickles',
    });
    const hit = (await search(cms, 'pickles')).body.data.items[0];
    expect(hit.snippet).toContain('<mark>pickles</mark>');
    expect(hit.snippet).not.toMatch(/<(?!\/?mark>)/);
    expect(hit.title).toBe('Markup');
  });
});
