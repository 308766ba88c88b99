import { expect, it } from 'vitest';
import { call, testCms } from '../../helpers/cms.js';
import { roleTokens } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { articles, ids, published, search } from '../../helpers/search.js';

describeEachDialect('search results', (dialect) => {
  it('pages through every match once, in rank order, across collections', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    await articles(cms, { slug: 'notes' });
    const all: string[] = [];
    for (let i = 0; i < 13; i++) {
      // Repeating the word ranks entries apart; equal counts tie and are ordered by collection then ID.
      const body = `${'heron '.repeat((i % 4) + 1)}${'filler '.repeat(i)}`;
      all.push(await published(cms, { title: `Article ${i}`, body }, 'articles'));
      if (i < 8) all.push(await published(cms, { title: `Note ${i}`, body }, 'notes'));
    }
    expect((await search(cms, 'heron')).body.data.items).toHaveLength(20);
    const full = await search(cms, 'heron', { limit: '100' });
    const everything = full.body.data.items as Array<{ id: string; score: number; collection: string }>;
    expect(everything).toHaveLength(21);
    expect(full.body.data.nextCursor).toBeUndefined();

    const seen: Array<{ id: string; score: number; collection: string }> = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await search(cms, 'heron', { limit: '6', ...(cursor ? { cursor } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      seen.push(...res.body.data.items);
      cursor = res.body.data.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen.map((h) => h.id)).toEqual(everything.map((h) => h.id));
    expect(new Set(seen.map((h) => h.id)).size).toBe(21);
    expect(new Set(seen.map((h) => h.id))).toEqual(new Set(all));
    for (let i = 1; i < seen.length; i++) expect(seen[i - 1].score).toBeGreaterThanOrEqual(seen[i].score);
    expect(new Set(seen.map((h) => h.collection))).toEqual(new Set(['articles', 'notes']));

    const notes = await ids(cms, 'heron', { collection: 'notes', limit: '100' });
    expect(notes).toHaveLength(8);
    const both = await ids(cms, 'heron', { collection: 'notes,articles', limit: '100' });
    expect(both).toHaveLength(21);
  });

  it('refuses cursors from another query and malformed paging', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    for (let i = 0; i < 3; i++) await published(cms, { title: `Kestrel ${i}` });
    const page = await search(cms, 'kestrel', { limit: '1' });
    const cursor = page.body.data.nextCursor as string;
    expect(cursor).toBeTruthy();
    for (const params of [
      { q: 'falcon', cursor },
      { q: 'kestrel', cursor, locale: 'en', collection: 'articles' },
      { q: 'kestrel', cursor: 'garbage' },
      { q: 'kestrel', cursor: `${cursor}x` },
      { q: 'kestrel', limit: '0' },
      { q: 'kestrel', limit: '101' },
      { q: 'kestrel', limit: 'ten' },
      { q: '' },
      { q: '   ' },
      { q: 'a'.repeat(1001) },
      { q: 'nul\u0000byte' },
      { q: 'kestrel', collection: 'Not-A-Slug' },
    ]) {
      const { q, ...rest } = params;
      const res = await search(cms, q, rest as Record<string, string>);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      // A NUL byte anywhere in the address is refused at the door, before the search parameters.
      const field = q.includes('\u0000')
        ? 'url'
        : 'cursor' in params
          ? 'cursor'
          : 'limit' in params
            ? 'limit'
            : 'collection' in params
              ? 'collection'
              : 'q';
      expect(res.body.error.details.issues[0].path[0], JSON.stringify(params)).toBe(field);
    }
    expect((await search(cms, 'kestrel', { collection: 'nothing' })).status).toBe(404);
    expect((await search(cms, 'missing', {})).body.data).toEqual({ items: [] });
  });

  it('shows readers without draft access only published entries, in every collection', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const { subscriber, contributor } = await roleTokens(cms);
    const live = await published(cms, { title: 'Visible osprey' });
    const draft = (
      await call(cms, 'POST', '/content/articles', {
        token: cms.adminToken,
        body: { data: { title: 'Hidden osprey' } },
      })
    ).body.data.item.id;
    expect(await ids(cms, 'osprey', {}, subscriber.token)).toEqual([live]);
    expect((await ids(cms, 'osprey', {}, contributor.token)).sort()).toEqual([live, draft].sort());
    // A scope without the role's draft access cannot widen it either.
    const scoped = await cms.userToken(10, ['content:read']);
    expect(await ids(cms, 'osprey', {}, scoped.token)).toEqual([live]);
  });
  it('ranks at most searchRankWindow matches of a broad query in each collection', async () => {
    const cms = await testCms(dialect, { config: { searchRankWindow: 100 } });
    await articles(cms);
    const created: string[] = [];
    for (let i = 0; i < 105; i++) {
      created.push(await published(cms, { title: `Entry ${i}`, body: `plover marker${i}` }));
    }
    // Every entry is indexed: each one's own word finds it.
    for (const i of [0, 52, 104]) expect(await ids(cms, `marker${i}`)).toEqual([created[i]]);
    // The shared word matches all 105; only the window's 100 are ranked and paged through.
    const found = new Set<string>();
    let cursor: string | undefined;
    do {
      const res = await search(cms, 'plover', { limit: '30', ...(cursor ? { cursor } : {}) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      for (const item of res.body.data.items as Array<{ id: string }>) found.add(item.id);
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(found.size).toBe(100);
    for (const id of found) expect(created).toContain(id);
  });
});
