import { expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.js';
import { call, testCms } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';

const titles = (res: { body: { data: { items: Array<{ data: { title: string } }> } } }) =>
  res.body.data.items.map((i) => i.data.title);

describeEachDialect('content lists', (dialect) => {
  it('pages with cursors (newest first by default) and with numbered pages and a total', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00.000Z');
    const cms = await testCms(dialect, { clock });
    await postsCollection(cms);
    for (let i = 0; i < 7; i++) {
      await createEntry(cms, { data: { title: `T${i}`, views: i % 3 } });
      clock.advance(1000);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await call(cms, 'GET', `/content/posts?limit=3${cursor ? `&cursor=${cursor}` : ''}`, {
        token: cms.adminToken,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.total).toBeUndefined();
      seen.push(...titles(res));
      cursor = res.body.data.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['T6', 'T5', 'T4', 'T3', 'T2', 'T1', 'T0']);

    const page2 = await call(cms, 'GET', '/content/posts?page=2&limit=3', { token: cms.adminToken });
    expect(titles(page2)).toEqual(['T3', 'T2', 'T1']);
    expect(page2.body.data.total).toBe(7);
    expect(page2.body.data.nextCursor).toBeUndefined();

    const both = await call(cms, 'GET', `/content/posts?page=1&cursor=abc`, { token: cms.adminToken });
    expect(both.status).toBe(400);
    expect(both.body.error.code).toBe('VALIDATION_ERROR');
    for (const q of ['limit=0', 'limit=101', 'page=0', 'cursor=garbage']) {
      expect((await call(cms, 'GET', `/content/posts?${q}`, { token: cms.adminToken })).status, q).toBe(400);
    }
    const def = await call(cms, 'GET', '/content/posts', { token: cms.adminToken });
    expect(def.body.data.items).toHaveLength(7);
  });

  it('orders and filters only on indexed fields', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    for (const [title, views] of [
      ['b', 5],
      ['a', 1],
      ['c', 9],
      ['d', 5],
    ] as const)
      await createEntry(cms, { data: { title, views } });
    const asc = await call(cms, 'GET', '/content/posts?orderBy=views&order=asc', { token: cms.adminToken });
    expect(titles(asc)[0]).toBe('a');
    expect(asc.body.data.items.map((i: { data: { views: number } }) => i.data.views)).toEqual([1, 5, 5, 9]);
    const byTitle = await call(cms, 'GET', '/content/posts?orderBy=title', { token: cms.adminToken });
    expect(titles(byTitle)).toEqual(['a', 'b', 'c', 'd']);
    // Keyset paging over a non-unique order key does not skip or repeat.
    const p1 = await call(cms, 'GET', '/content/posts?orderBy=views&order=desc&limit=2', { token: cms.adminToken });
    const p2 = await call(
      cms,
      'GET',
      `/content/posts?orderBy=views&order=desc&limit=2&cursor=${p1.body.data.nextCursor}`,
      {
        token: cms.adminToken,
      },
    );
    expect([...titles(p1), ...titles(p2)].sort()).toEqual(['a', 'b', 'c', 'd']);

    const notIndexed = await call(cms, 'GET', '/content/posts?orderBy=body', { token: cms.adminToken });
    expect(notIndexed.status).toBe(400);
    expect(notIndexed.body.error.details.issues[0].code).toBe('not_indexed');

    const filter = (f: unknown) =>
      call(cms, 'GET', `/content/posts?orderBy=title&fieldFilters=${encodeURIComponent(JSON.stringify(f))}`, {
        token: cms.adminToken,
      });
    expect(titles(await filter({ views: 5 }))).toEqual(['b', 'd']);
    expect(titles(await filter({ views: { gte: 5, lt: 9 } }))).toEqual(['b', 'd']);
    expect(titles(await filter({ views: { in: [1, 9] } }))).toEqual(['a', 'c']);
    expect((await filter({ body: 'x' })).status).toBe(400);
    expect((await filter({ views: { like: 1 } })).status).toBe(400);
    const notJson = await call(cms, 'GET', '/content/posts?fieldFilters=nope', { token: cms.adminToken });
    expect(notJson.status).toBe(400);
  });

  it('lists one locale (the default unless asked) and never falls back', async () => {
    const cms = await testCms(dialect, {
      config: { i18n: { locales: ['en', 'fr'], defaultLocale: 'en', fallback: { fr: 'en' } } },
    });
    await postsCollection(cms);
    const en = await createEntry(cms, { data: { title: 'Hello' } });
    await createEntry(cms, { data: { title: 'Only English' } });
    await createEntry(cms, { locale: 'fr', translationOf: en.item.id, data: { title: 'Bonjour' } });
    expect(titles(await call(cms, 'GET', '/content/posts?orderBy=title', { token: cms.adminToken }))).toEqual([
      'Hello',
      'Only English',
    ]);
    expect(titles(await call(cms, 'GET', '/content/posts?locale=fr', { token: cms.adminToken }))).toEqual(['Bonjour']);
    expect((await call(cms, 'GET', '/content/posts?locale=de', { token: cms.adminToken })).status).toBe(400);
  });

  it('filters by status for draft readers and resolves references for a page on request', async () => {
    const cms = await testCms(dialect);
    await postsCollection(cms);
    const a = await createEntry(cms, { data: { title: 'A' } });
    await createEntry(cms, { data: { title: 'B' } });
    await publish(cms, a.item.id);
    expect(titles(await call(cms, 'GET', '/content/posts?status=published', { token: cms.adminToken }))).toEqual(['A']);
    expect(titles(await call(cms, 'GET', '/content/posts?status=draft', { token: cms.adminToken }))).toEqual(['B']);
    const plain = await call(cms, 'GET', '/content/posts', { token: cms.adminToken });
    expect(plain.body.data.items[0].references).toBeUndefined();
  });
});
