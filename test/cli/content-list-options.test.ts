import { expect, it } from 'vitest';
import { cliSite, describeEachTarget } from '../helpers/cli.js';
import { call } from '../helpers/cms.js';
import { createEntry, postsCollection } from '../helpers/content.js';

/**
 * `content list` takes every list parameter REST takes (page, term, bylineId with
 * includeAuthorByline, include=references), and the local target answers as the API does.
 */
describeEachTarget('cms content list options', (kind) => {
  it('--page, --term, --byline-id, --include-author-byline and --include-references answer as the API does', async () => {
    const site = await cliSite(kind);
    const { cms } = site;
    const made = await call(cms, 'POST', '/schema/collections', {
      token: cms.adminToken,
      body: { slug: 'people', label: 'People', fields: [{ slug: 'name', label: 'Name', type: 'string' }] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await postsCollection(cms, {
      fields: [{ slug: 'author', label: 'Author', type: 'reference', validation: { targetCollection: 'people' } }],
    });
    const api = async (path: string, body?: unknown, method = 'POST') => {
      const res = await call(cms, method, path, { token: cms.adminToken, body });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      return res.body.data;
    };
    await api('/taxonomies', { name: 'tags', label: 'Tags', collections: ['posts'] });
    await api('/taxonomies/tags/terms', { label: 'News' });
    await api('/taxonomies/tags/terms', { label: 'Sport' });
    const ann = await api('/bylines', { displayName: 'Ann', userId: cms.adminId });
    const person = (await createEntry(cms, { data: { name: 'Pat' } }, cms.adminToken, 'people')).item;

    const a = (await createEntry(cms, { data: { title: 'A' }, bylines: [ann.id], references: { author: [person.id] } }))
      .item;
    const b = (await createEntry(cms, { data: { title: 'B' } })).item;
    const c = (await createEntry(cms, { data: { title: 'C' } })).item;
    const d = (await createEntry(cms, { data: { title: 'D' } })).item;
    await api(`/content/posts/${a.id}/terms/tags`, { terms: ['news'] });
    await api(`/content/posts/${b.id}/terms/tags`, { terms: ['sport'] });
    await api(`/content/posts/${c.id}/terms/tags`, { terms: ['news'] });

    const list = async (flags: string[]) => {
      const run = await site.run(['content', 'list', 'posts', ...flags, '--json']);
      expect(run.code, run.stderr).toBe(0);
      return run.json() as { items: any[]; nextCursor?: string; total?: number };
    };
    const ids = (page: { items: Array<{ id: string }> }) => page.items.map((i) => i.id).sort();
    const rest = async (query: string) => api(`/content/posts?${query}`, undefined, 'GET');

    // term: the entries carrying News.
    const news = await list(['--term', 'tags:news']);
    expect(ids(news)).toEqual([a.id, c.id].sort());
    expect(ids(news)).toEqual(ids(await rest('term=tags:news')));
    expect(ids(await list(['--term', 'tags:news,sport']))).toEqual([a.id, b.id, c.id].sort());

    // bylineId: the entries crediting Ann; with includeAuthorByline also those Ann's user wrote uncredited.
    expect(ids(await list(['--byline-id', ann.id]))).toEqual([a.id]);
    const authored = await list(['--byline-id', ann.id, '--include-author-byline']);
    expect(ids(authored)).toEqual([a.id, b.id, c.id, d.id].sort());
    expect(ids(authored)).toEqual(ids(await rest(`bylineId=${ann.id}&includeAuthorByline=true`)));

    // page: numbered pages with the total, in the API's order.
    const second = await list(['--page', '2', '--limit', '3']);
    expect(second.total).toBe(4);
    expect(second.nextCursor).toBeUndefined();
    expect(second.items).toHaveLength(1);
    expect(second.items.map((i) => i.id)).toEqual((await rest('page=2&limit=3')).items.map((i: any) => i.id));
    const first = await list(['--page', '1', '--limit', '3']);
    expect([...first.items, ...second.items].map((i) => i.id).sort()).toEqual([a.id, b.id, c.id, d.id].sort());
    const table = await site.run(['content', 'list', 'posts', '--page', '2', '--limit', '3']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stderr).toContain('Page 2 of 2 (4 entries)');

    // include=references: each item's references, resolved; left out without the flag.
    const resolved = await list(['--include-references', '--term', 'tags:news']);
    const withRefs = resolved.items.find((i) => i.id === a.id);
    expect(withRefs.references.author.items.map((r: any) => r.id)).toEqual([person.id]);
    expect((await rest('include=references&term=tags:news')).items.find((i: any) => i.id === a.id).references).toEqual(
      withRefs.references,
    );
    expect(news.items.find((i) => i.id === a.id).references).toBeUndefined();

    // The service's own checks, whichever target: page with cursor, a term filter of no taxonomy.
    const both = await site.run(['content', 'list', 'posts', '--page', '2', '--cursor', 'x']);
    expect(both.code).toBe(2);
    const unknownTax = await site.run(['content', 'list', 'posts', '--term', 'nope:news']);
    expect(unknownTax.code).toBe(1);
    expect(unknownTax.stderr).toMatch(/\[(VALIDATION_ERROR|NOT_FOUND)\]/);
  });
});
