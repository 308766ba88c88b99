import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { call, type TestCms, testCms } from '../../helpers/cms.js';
import { describeEachDialect } from '../../helpers/db.js';
import { articles, ids, published, search } from '../../helpers/search.js';

const admin = (cms: TestCms, method: string, path: string, body?: unknown) =>
  call(cms, method, path, { token: cms.adminToken, body });

async function stats(cms: TestCms, collection = 'articles') {
  return (await admin(cms, 'GET', `/search/stats?collection=${collection}`)).body.data.collections[0];
}

/** Index tables that exist in the database, whatever the engine. */
async function indexTables(cms: TestCms): Promise<string[]> {
  const rows =
    cms.database.dialect === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from sqlite_schema where name like '\\_cms\\_fts\\_%' escape '\\'`.execute(cms.database.db)
      : await sql<{ name: string }>`select tablename as name from pg_tables
          where schemaname = current_schema() and tablename like '\\_cms\\_fts\\_%'`.execute(cms.database.db);
  return rows.rows.map((r) => r.name);
}

/** Schema changes reach the index inside the schema transaction. */
describeEachDialect('search and schema changes', (dialect) => {
  it('adds, re-flags, renames and removes searchable fields', async () => {
    const cms = await testCms(dialect);
    await articles(cms);
    const id = await published(cms, { title: 'Quokka', notes: 'Private margin scribbles' });
    expect(await ids(cms, 'scribbles')).toEqual([]);

    // Re-flag an existing field: its values become searchable at once.
    expect((await admin(cms, 'PUT', '/schema/collections/articles/fields/notes', { searchable: true })).status).toBe(
      200,
    );
    expect(await ids(cms, 'scribbles')).toEqual([id]);
    // Rename it: still found, and its weight follows the new slug.
    await admin(cms, 'PUT', '/schema/collections/articles/fields/notes', { slug: 'remarks' });
    expect(await ids(cms, 'scribbles')).toEqual([id]);
    expect((await stats(cms)).weights).toHaveProperty('remarks');
    // Flag it off: gone from the index.
    await admin(cms, 'PUT', '/schema/collections/articles/fields/remarks', { searchable: false });
    expect(await ids(cms, 'scribbles')).toEqual([]);

    // A new searchable field with a default value: existing entries are found by it.
    const added = await admin(cms, 'POST', '/schema/collections/articles/fields', {
      slug: 'kind',
      label: 'Kind',
      type: 'string',
      searchable: true,
      defaultValue: 'marsupial',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(await ids(cms, 'marsupial')).toEqual([id]);

    // Deleting a searchable field removes its text.
    await admin(cms, 'DELETE', '/schema/collections/articles/fields/kind');
    expect(await ids(cms, 'marsupial')).toEqual([]);
    expect(await ids(cms, 'quokka')).toEqual([id]);
  });

  it('turns the index on and off with supports: search, keeping the settings, and drops it with the collection', async () => {
    const cms = await testCms(dialect);
    await articles(cms, { tokenizer: 'unicode61', weights: { title: 5, body: 1, content: 1 } });
    const id = await published(cms, { title: 'Capybara' });
    expect((await indexTables(cms)).length).toBeGreaterThan(0);

    await admin(cms, 'PUT', '/schema/collections/articles', { supports: ['drafts', 'revisions'] });
    expect((await stats(cms)).state).toBe('disabled');
    const off = await search(cms, 'capybara', { collection: 'articles' });
    expect(off.status).toBe(400);
    expect(off.body.error.details.issues[0].path).toEqual(['collection', 0]);
    expect(await ids(cms, 'capybara')).toEqual([]);
    expect(await indexTables(cms)).toEqual([]);

    await admin(cms, 'PUT', '/schema/collections/articles', { supports: ['drafts', 'revisions', 'search'] });
    const on = await stats(cms);
    expect(on).toMatchObject({ state: 'ready', tokenizer: 'unicode61', weights: { title: 5, body: 1, content: 1 } });
    expect(await ids(cms, 'capybara')).toEqual([id]);

    await admin(cms, 'DELETE', '/schema/collections/articles');
    expect(await indexTables(cms)).toEqual([]);
    expect(await cms.database.db.selectFrom('_cms_search_collections').selectAll().execute()).toEqual([]);
  });

  it('refuses a change that would need a fifth weight class, changing nothing', async () => {
    const cms = await testCms(dialect);
    await articles(cms, { weights: { title: 8, body: 4, content: 2 } });
    const extra = await admin(cms, 'POST', '/schema/collections/articles/fields', {
      slug: 'extra',
      label: 'Extra',
      type: 'text',
      searchable: true,
    });
    expect(extra.status).toBe(201);
    expect((await admin(cms, 'POST', '/search/enable', { collection: 'articles', weights: { extra: 3 } })).status).toBe(
      200,
    );
    // Four weights in use (8, 4, 3, 2): a new searchable field at the default weight 1 would be a fifth.
    const fifth = await admin(cms, 'POST', '/schema/collections/articles/fields', {
      slug: 'more',
      label: 'More',
      type: 'text',
      searchable: true,
    });
    expect(fifth.status).toBe(400);
    expect(fifth.body.error.details.issues[0].path).toEqual(['weights']);
    expect((await admin(cms, 'GET', '/schema/collections/articles/fields/more')).status).toBe(404);
    const viaWeights = await admin(cms, 'POST', '/search/enable', { collection: 'articles', weights: { extra: 1 } });
    expect(viaWeights.status).toBe(200);
    const again = await admin(cms, 'POST', '/search/enable', { collection: 'articles', weights: { extra: 0.5 } });
    expect(again.status).toBe(200);
    expect((await stats(cms)).weights).toEqual({ title: 8, body: 4, content: 2, extra: 0.5 });
  });

  it('rebuilds a large collection in steps after a schema change, answering from the old index meanwhile', async () => {
    const cms = await testCms(dialect, { config: { searchRebuildBatch: 2 } });
    await articles(cms);
    const entries: string[] = [];
    for (let i = 0; i < 5; i++) entries.push(await published(cms, { title: `Entry ${i}`, body: `wombat burrow ${i}` }));
    expect((await ids(cms, 'wombat')).length).toBe(5);

    await admin(cms, 'PUT', '/schema/collections/articles/fields/body', { searchable: false });
    const building = await stats(cms);
    expect(building.state).toBe('building');
    expect(building.build).toMatchObject({ done: 0, total: 5, reason: 'schema change' });
    // Until the swap, searches answer from the previous index.
    expect((await ids(cms, 'wombat')).length).toBe(5);

    const c = (await cms.services.schema.snapshot()).collections.get('articles')!;
    await cms.services.search.advance(c.id, 0);
    expect((await stats(cms)).build).toMatchObject({ done: 2, total: 5 });
    // A write during the rebuild reaches both the live index and the one being built.
    const late = await published(cms, { title: 'Latecomer platypus', body: 'wombat' });
    expect(await ids(cms, 'platypus')).toEqual([late]);

    // A writer whose schema cache still said "no search" (another process) reaches neither table:
    // the last step catches up with entries written since the build began, and drops vanished ones.
    const table = c.table;
    await sql`update ${sql.id(table)} set title = 'Stealthy echidna', updated_at = ${new Date().toISOString()},
      version = version + 1 where id = ${entries[0]}`.execute(cms.database.db);
    await cms.database.db
      .deleteFrom(table as never)
      .where('id' as never, '=', entries[1] as never)
      .execute();

    const resumed = await admin(cms, 'POST', '/search/rebuild', { collection: 'articles' });
    expect(resumed.status).toBe(200);
    expect(resumed.body.data).toMatchObject({ state: 'ready', build: null, nextRequestInMs: null });
    expect(await ids(cms, 'wombat')).toEqual([]);
    expect(await ids(cms, 'platypus')).toEqual([late]);
    expect(await ids(cms, 'echidna')).toEqual([entries[0]]);
    expect(await ids(cms, 'entry')).toHaveLength(3);
    expect(
      (await indexTables(cms)).filter(
        (t) => !/_(data|idx|docsize|config|docs|entry|title|text|vocab|heads|hkeys|hfloors|hmeta|pairs|pwords)/.test(t),
      ),
    ).toHaveLength(1);
  });
});
