import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { type CliSite, cliSite, describeEachTarget } from '../helpers/cli.js';
import { call } from '../helpers/cms.js';

const SEED = `
version: 1
collections:
  - slug: authors
    label: Authors
    fields:
      - { slug: name, label: Name, type: string, required: true }
  - slug: posts
    label: Posts
    fields:
      - { slug: title, label: Title, type: string, required: true }
      - { slug: views, label: Views, type: integer }
      - { slug: author, label: Author, type: reference, validation: { targetCollection: authors } }
content:
  authors:
    - { id: ada, slug: ada, data: { name: Ada } }
  posts:
    - id: hello
      slug: hello
      locale: en
      data: { title: Hello, views: 1 }
      references: { author: [ada] }
    - id: hello-fr
      slug: bonjour
      locale: fr
      translationOf: hello
      data: { title: Bonjour, views: 1 }
    - { slug: later, status: draft, data: { title: Later } }
`;

/** Everything a load could change: entry rows with their versions, revisions, links and the schema. */
async function snapshot(site: CliSite) {
  const db = site.cms.database.db;
  const rows = async (table: string) =>
    (
      await sql<
        Record<string, unknown>
      >`select id, slug, locale, status, version, updated_at, translation_group from ${sql.table(table)} order by id`.execute(
        db,
      )
    ).rows;
  return {
    posts: await rows('ec_posts'),
    authors: await rows('ec_authors'),
    revisions: (await sql`select count(*) as n from _cms_revisions`.execute(db)).rows,
    links: (await sql`select * from _cms_links order by parent_group, position`.execute(db)).rows,
    schema: await db.selectFrom('_cms_meta').selectAll().where('key', '=', 'schema_version').execute(),
  };
}

/** Taxonomies, terms, assignments, menus and settings as stored. */
async function structure(site: CliSite) {
  const db = site.cms.database.db;
  const all = async (table: string) =>
    (await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db)).rows
      .map((r) => JSON.stringify(r))
      .sort();
  return {
    taxonomies: await all('_cms_taxonomy_defs'),
    terms: await all('_cms_terms'),
    assignments: await all('_cms_content_terms'),
    menus: await all('_cms_menus'),
    items: await all('_cms_menu_items'),
    settings: (await call(site.cms, 'GET', '/settings', { token: site.cms.adminToken })).body.data,
  };
}

describeEachTarget('cms seed', (kind) => {
  it('loads collections, entries, translations and references; a second load changes nothing', async () => {
    const site = await cliSite(kind, { fileConfig: { i18n: { locales: ['en', 'fr'], defaultLocale: 'en' } } });
    writeFileSync(join(site.dir, 'seed.yaml'), SEED);

    const first = await site.run(['seed', 'seed.yaml']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('collections: 2 created, 0 fields added');
    expect(first.stdout).toContain('entries:     4 created, 0 updated, 0 unchanged');
    expect(first.stderr).toContain('[3/4] + posts/bonjour (fr)');
    expect(first.stderr).toContain('[4/4] + posts/later as a draft');

    const hello = (await site.run(['content', 'get', 'posts', 'hello', '--json'])).json().item;
    const bonjour = (await site.run(['content', 'get', 'posts', 'bonjour', '--locale', 'fr', '--json'])).json().item;
    expect(hello).toMatchObject({ status: 'published', locale: 'en' });
    expect(bonjour).toMatchObject({ status: 'published', locale: 'fr', translationGroup: hello.translationGroup });
    expect(hello.references.author.items.map((l: any) => l.slug)).toEqual(['ada']);
    const shown = await site.run(['content', 'get', 'posts', 'hello']);
    expect(shown.stdout).toMatch(/\n→ author +\S+ \(authors\/[0-9A-Z]{26}\)\n/);
    expect((await site.run(['content', 'get', 'posts', 'later', '--json'])).json().item.status).toBe('draft');

    const before = await snapshot(site);
    const second = await site.run(['seed', 'seed.yaml', '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.json()).toMatchObject({
      collections: { created: 0, fieldsAdded: 0 },
      entries: { created: 0, updated: 0, unchanged: 4 },
    });
    expect(second.stderr).toContain('[1/4] = authors/ada exists');
    expect(await snapshot(site)).toEqual(before);

    // A changed value is reported and kept; --update brings the entry to the file.
    writeFileSync(
      join(site.dir, 'seed.yaml'),
      SEED.replace('{ title: Hello, views: 1 }', '{ title: Hello, views: 2 }'),
    );
    const kept = await site.run(['seed', 'seed.yaml']);
    expect(kept.stderr).toContain('= posts/hello (en) exists, differs (views): kept, see --update');
    expect(await snapshot(site)).toEqual(before);
    const dry = await site.run(['seed', 'seed.yaml', '--update', '--dry-run']);
    expect(dry.stdout).toContain('(dry run: nothing was written)');
    expect(await snapshot(site)).toEqual(before);
    const updated = await site.run(['seed', 'seed.yaml', '--update']);
    expect(updated.stdout).toContain('entries:     0 created, 1 updated, 3 unchanged');
    const views = (await site.run(['content', 'get', 'posts', 'hello', '--json'])).json().item;
    expect(views).toMatchObject({ status: 'published', hasDraft: false, data: { views: 2 } });
    const settled = await snapshot(site);
    expect((await site.run(['seed', 'seed.yaml', '--update'])).stdout).toContain('0 created, 0 updated, 4 unchanged');
    expect(await snapshot(site)).toEqual(settled);
  });

  it('ships a starter blog (settings, taxonomies, entry terms, a menu) that loads on an empty site, twice', async () => {
    const site = await cliSite(kind);
    const dry = await site.run(['seed', '--starter', 'blog', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect((await site.run(['schema', 'list', '--json'])).json()).toEqual([]);
    const first = await site.run(['seed', '--starter', 'blog']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('collections: 2 created');
    expect(first.stdout).toContain('entries:     5 created');
    expect(first.stdout).toContain('settings:    0 created, 1 updated, 0 unchanged');
    expect(first.stdout).toContain('taxonomies:  8 created, 0 updated, 0 unchanged');
    expect(first.stdout).toContain('menus:       1 created, 0 updated, 0 unchanged');
    const posts = (await site.run(['content', 'list', 'posts', '--json'])).json().items;
    expect(posts.map((p: any) => [p.slug, p.status]).sort()).toEqual([
      ['ideas', 'draft'],
      ['welcome', 'published'],
      ['writing-with-the-cli', 'published'],
    ]);
    const get = (path: string) => call(site.cms, 'GET', path, { token: site.cms.adminToken });
    expect((await get('/settings')).body.data).toMatchObject({ title: 'My blog', tagline: 'Notes, guides and news' });
    const cli = posts.find((p: any) => p.slug === 'writing-with-the-cli');
    const terms = await get(`/content/posts/${cli.id}/terms/category`);
    expect(terms.body.data.items.map((t: any) => [t.slug, t.parentId !== null])).toEqual([['cli', true]]);
    const menu = (await get('/menus/main')).body.data;
    expect(menu.items.map((i: any) => [i.depth, i.kind, i.label])).toEqual([
      [0, 'url', 'Home'],
      [0, 'term', 'Guides'],
      [1, 'term', 'Command line'],
      [0, 'content', 'About'],
      [0, 'content', 'Contact'],
    ]);

    const before = await structure(site);
    const again = await site.run(['seed', '--starter', 'blog']);
    expect(again.stdout).toContain('entries:     0 created, 0 updated, 5 unchanged');
    expect(again.stdout).toContain('taxonomies:  0 created, 0 updated, 8 unchanged');
    expect(again.stdout).toContain('menus:       0 created, 0 updated, 1 unchanged');
    expect(await structure(site)).toEqual(before);

    // What a person changed is kept on a reload, and brought back with --update.
    await call(site.cms, 'PUT', '/settings', { token: site.cms.adminToken, body: { title: 'Renamed' } });
    await call(site.cms, 'POST', `/content/posts/${cli.id}/terms/category`, {
      token: site.cms.adminToken,
      body: { terms: ['news'] },
    });
    const kept = await site.run(['seed', '--starter', 'blog']);
    expect(kept.stderr).toContain('= settings title differ: kept, see --update');
    expect(kept.stderr).toContain('= posts/writing-with-the-cli exists, differs (terms.category): kept, see --update');
    expect((await get('/settings')).body.data.title).toBe('Renamed');
    const updated = await site.run(['seed', '--starter', 'blog', '--update']);
    expect(updated.stdout).toContain('entries:     0 created, 1 updated, 4 unchanged');
    expect((await get('/settings')).body.data.title).toBe('My blog');
    expect((await get(`/content/posts/${cli.id}/terms/category`)).body.data.items.map((t: any) => t.slug)).toEqual([
      'cli',
    ]);

    const unknown = await site.run(['seed', '--starter', 'shop']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No starter seed "shop" (available: blog)');
  });

  it('refuses a seed file whose translations come before their source, naming the entry', async () => {
    const site = await cliSite(kind);
    writeFileSync(
      join(site.dir, 'bad.json'),
      JSON.stringify({
        content: {
          posts: [
            { slug: 'bonjour', locale: 'fr', translationOf: 'hello', data: {} },
            { id: 'hello', slug: 'hello', data: {}, colour: 'red' },
          ],
        },
      }),
    );
    const res = await site.run(['seed', 'bad.json']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('content.posts.1: Unrecognized key: "colour"');
    writeFileSync(
      join(site.dir, 'order.json'),
      JSON.stringify({
        content: {
          posts: [
            { slug: 'bonjour', locale: 'fr', translationOf: 'hello', data: {} },
            { id: 'hello', slug: 'hello', data: {} },
          ],
        },
      }),
    );
    const order = await site.run(['seed', 'order.json']);
    expect(order.code).toBe(2);
    expect(order.stderr).toContain('content.posts.0: translationOf "hello" must name an entry earlier in the file');
    expect((await site.run(['seed'])).code).toBe(2);
    const seedOf = async (name: string, value: unknown) => {
      writeFileSync(join(site.dir, name), JSON.stringify(value));
      const res = await site.run(['seed', name]);
      expect(res.code).toBe(2);
      return res.stderr;
    };
    expect(
      await seedOf('terms.json', {
        taxonomies: [
          {
            name: 'tags',
            label: 'Tags',
            terms: [
              { slug: 'b', label: 'B', parent: 'a' },
              { slug: 'a', label: 'A' },
            ],
          },
        ],
      }),
    ).toContain('taxonomies.0.terms.0: parent "a" must be a term earlier in the list');
    expect(
      await seedOf('menu.json', { menus: [{ name: 'main', label: 'Main', items: [{ url: '/', entry: 'home' }] }] }),
    ).toContain('menus.0.items.0: a menu item has exactly one of url, entry and term');
    expect(
      await seedOf('menu-entry.json', {
        menus: [{ name: 'main', label: 'Main', items: [{ label: 'X', entry: 'nowhere' }] }],
      }),
    ).toContain('menus.0.items.0: entry "nowhere" is not the id of an entry of this file');
    // An entry the site refuses names itself and how far the load got.
    writeFileSync(
      join(site.dir, 'refused.json'),
      JSON.stringify({
        collections: [
          { slug: 'notes', label: 'Notes', fields: [{ slug: 'title', label: 'T', type: 'string', required: true }] },
        ],
        content: {
          notes: [
            { slug: 'ok', data: { title: 'Fine' } },
            { slug: 'empty', data: {} },
          ],
        },
      }),
    );
    const refused = await site.run(['seed', 'refused.json']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error: [VALIDATION_ERROR] notes/empty: ');
    expect(refused.stderr).toContain('1 entry was loaded before it; load the file again once fixed to continue.');
    expect((await site.run(['seed', 'order.json', '--starter', 'blog'])).code).toBe(2);
  });
});
