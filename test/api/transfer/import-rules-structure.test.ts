import { expect, it } from 'vitest';
import type { DialectName } from '../../../src/db/dialect.js';
import { call } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { type MediaCms, mediaCms, png, uploaded } from '../../helpers/media.js';
import {
  executeImport,
  fetchBytes,
  type PackageEntry,
  planOf,
  repack,
  runExport,
  untar,
} from '../../helpers/transfer.js';
import { ok, taxonomy, term } from '../structure/helpers.js';

/**
 * The site-structure records of a package (settings, schema, search settings,
 * taxonomies, media folders, bylines, links and assignments, menus, sections,
 * widgets, SEO) pass the rules their own domain's write path applies, or are
 * normalised by a reported transformation. The package comes from a real
 * site holding every one of these kinds; each case rewrites one record the
 * way an attacker would (digests fixed up) and expects a blocker naming the
 * file and line.
 */
type Rows = Record<string, unknown>[];
type Row = Record<string, unknown>;

const packages = new Map<DialectName, Promise<PackageEntry[]>>();

const link = (href: string) => [
  {
    _type: 'block',
    _key: 'b1',
    style: 'normal',
    markDefs: [{ _type: 'link', _key: 'l1', href }],
    children: [{ _type: 'span', _key: 's1', text: 'Read more', marks: ['l1'] }],
  },
];

/** A source site with a record of every structure kind. */
async function structureSite(source: MediaCms) {
  const image = await uploaded(source, await png(8, 8));
  await ok(source, 'PUT', '/settings', {
    title: 'Source site',
    tagline: 'Everything moves',
    timezone: 'Europe/Paris',
    siteUrl: 'https://source.example',
    logo: image.id,
    seo: { titleSeparator: '-', description: 'A site to move' },
  });
  await ok(source, 'POST', '/schema/block-types', {
    slug: 'cta',
    label: 'Call to action',
    fields: [{ slug: 'target', label: 'Target', type: 'url' }],
  });
  await ok(source, 'POST', '/schema/collections', {
    slug: 'pages',
    label: 'Pages',
    fields: [{ slug: 'title', label: 'Title', type: 'string', required: true }],
  });
  await postsCollection(source, {
    supports: ['drafts', 'revisions', 'search', 'seo'],
    fields: [
      { slug: 'code', label: 'Code', type: 'string', validation: { pattern: '[A-Z]{2}[0-9]+' } },
      {
        slug: 'items',
        label: 'Items',
        type: 'repeater',
        validation: { subFields: [{ slug: 'href', label: 'Href', type: 'url' }] },
      },
      { slug: 'sections', label: 'Sections', type: 'blocks', validation: { allowedTypes: ['cta'] } },
      { slug: 'parent', label: 'Parent page', type: 'reference', validation: { targetCollection: 'pages' } },
      { slug: 'summary', label: 'Summary', type: 'text', searchable: true },
    ],
  });
  await ok(source, 'POST', '/search/enable', { collection: 'posts', weights: { summary: 5 } });
  await ok(source, 'POST', '/media/folders', { name: 'Photos' });
  const byline = await ok(source, 'POST', '/bylines', {
    displayName: 'Ada Guest',
    websiteUrl: 'https://ada.example/',
    bio: 'Writes things',
  });
  const page = (await createEntry(source, { data: { title: 'About' } }, source.adminToken, 'pages')).item;
  await publish(source, page.id, source.adminToken, 'pages');
  const entry = (
    await createEntry(source, {
      slug: 'hello',
      data: { title: 'Hello', code: 'AB12', summary: 'Moving a whole site' },
      references: { parent: [page.id] },
      bylines: [{ bylineId: byline.id, roleLabel: 'Guest writer' }],
    })
  ).item;
  await publish(source, entry.id);
  const later = (await createEntry(source, { slug: 'later', data: { title: 'Later' } })).item;
  const current = await call(source, 'GET', `/content/posts/${later.id}`, { token: source.adminToken });
  await ok(source, 'POST', `/content/posts/${later.id}/schedule`, {
    scheduledAt: '2099-01-01T00:00:00Z',
    _rev: current.body.data._rev,
  });
  await taxonomy(source, { name: 'topics', label: 'Topics', hierarchical: true, collections: ['posts'] });
  const news = await term(source, 'topics', { label: 'News', description: 'Fresh' });
  await term(source, 'topics', { label: 'Local', parentId: news.id });
  await ok(source, 'POST', `/content/posts/${entry.id}/terms/topics`, { terms: [news.id] });
  await ok(source, 'POST', '/menus', { name: 'main', label: 'Main' });
  await ok(source, 'POST', '/menus/main/items', { kind: 'url', url: '/contact', label: 'Contact' });
  await ok(source, 'POST', '/menus/main/items', { kind: 'content', collection: 'posts', entryId: entry.id });
  await ok(source, 'POST', '/menus/main/items', { kind: 'term', termId: news.id });
  await ok(source, 'POST', '/sections', { title: 'Newsletter', slug: 'newsletter', content: link('/subscribe') });
  await ok(source, 'POST', '/widget-areas', { name: 'sidebar', label: 'Sidebar' });
  await ok(source, 'POST', '/widget-areas/sidebar/widgets', { type: 'section', settings: { section: 'newsletter' } });
  await ok(source, 'POST', '/widget-areas/sidebar/widgets', {
    type: 'richText',
    title: 'Hello',
    settings: { content: link('https://example.com/') },
  });
  await ok(source, 'PUT', `/seo/posts/${entry.id}`, {
    title: 'Hello, searched',
    description: 'A page about moving',
    canonical: 'https://source.example/hello',
  });
}

/** One source site's package per database. */
function sourcePackage(dialect: DialectName): Promise<PackageEntry[]> {
  let made = packages.get(dialect);
  if (!made) {
    made = (async () => {
      const source = await mediaCms(dialect);
      await structureSite(source);
      const op = await runExport(source, source.adminToken);
      const archive = await fetchBytes(source, `/admin/transfer/exports/${op.id}/archive`, source.adminToken);
      return untar(archive.bytes);
    })();
    packages.set(dialect, made);
  }
  return made;
}

const file = (kind: string) => `records/${kind}/00001.ndjson`;

/** Rewrite the first row of the file that `pick` accepts. */
const where =
  (pick: (row: Row) => boolean, change: (row: Row) => Row) =>
  (rows: Rows): Rows => {
    const at = rows.findIndex(pick);
    expect(at, 'the source package holds such a record').toBeGreaterThanOrEqual(0);
    return rows.map((r, i) => (i === at ? change(r) : r));
  };
const first = (change: (row: Row) => Row) => where(() => true, change);
const json = (value: unknown) => JSON.stringify(value);

interface Case {
  kind: string;
  what: string;
  edit: (rows: Rows) => Rows;
  /** What the blocker's message names (after the file and line). */
  names: RegExp;
}

const CASES: Case[] = [
  {
    kind: 'settings',
    what: 'a script site URL',
    edit: where(
      (r) => r.key === 'siteUrl',
      (r) => ({ ...r, value: json('javascript:alert(1)') }),
    ),
    names: /siteUrl/,
  },
  {
    kind: 'settings',
    what: 'a time zone no runtime knows',
    edit: where(
      (r) => r.key === 'timezone',
      (r) => ({ ...r, value: json('Mars/Olympus_Mons') }),
    ),
    names: /timezone/,
  },
  {
    kind: 'settings',
    what: 'a setting this release does not have',
    edit: (rows) => [...rows, { key: 'zz.scripts', value: json('<script>'), updated_at: rows[0].updated_at }],
    names: /zz\.scripts/,
  },
  {
    kind: 'settings',
    what: 'a logo that is not a media ID',
    edit: where(
      (r) => r.key === 'logo',
      (r) => ({ ...r, value: json('../../etc/passwd') }),
    ),
    names: /logo/,
  },
  {
    kind: 'collections',
    what: 'a support this release does not have',
    edit: where(
      (r) => r.slug === 'posts',
      (r) => ({ ...r, supports: json(['drafts', 'teleport']) }),
    ),
    names: /supports/,
  },
  {
    kind: 'collections',
    what: 'a URL pattern to another site',
    edit: where(
      (r) => r.slug === 'posts',
      (r) => ({ ...r, url_pattern: '//evil.example/{slug}' }),
    ),
    names: /url_pattern/,
  },
  {
    kind: 'collections',
    what: 'an empty label',
    edit: first((r) => ({ ...r, label: '   ' })),
    names: /label/,
  },
  {
    kind: 'fields',
    what: 'a nested repeater',
    edit: where(
      (r) => r.slug === 'items',
      (r) => ({
        ...r,
        validation: json({
          subFields: [
            {
              slug: 'inner',
              label: 'Inner',
              type: 'repeater',
              validation: { subFields: [{ slug: 'x', label: 'X', type: 'string' }] },
            },
          ],
        }),
      }),
    ),
    names: /validation\.subFields/,
  },
  {
    kind: 'fields',
    what: 'a pattern the linear-time engine cannot run',
    edit: where(
      (r) => r.slug === 'code',
      (r) => ({ ...r, validation: json({ pattern: '(a)\\1' }) }),
    ),
    names: /validation\.pattern/,
  },
  {
    kind: 'fields',
    what: 'a column that is not the field’s own',
    edit: where(
      (r) => r.slug === 'code',
      (r) => ({ ...r, column_name: 'status' }),
    ),
    names: /column_name/,
  },
  {
    kind: 'blockTypes',
    what: 'a slug that is not an identifier',
    edit: first((r) => ({ ...r, slug: 'Call To Action' })),
    names: /slug/,
  },
  {
    kind: 'blockTypeVersions',
    what: 'a field type blocks cannot hold',
    edit: first((r) => ({ ...r, fields: json([{ slug: 'meta', label: 'Meta', type: 'json' }]) })),
    names: /fields\.0\.type/,
  },
  {
    kind: 'relations',
    what: 'a multiple flag that is not a flag',
    edit: first((r) => ({ ...r, multiple: 7 })),
    names: /multiple/,
  },
  {
    kind: 'searchSettings',
    what: 'a tokenizer not in the list',
    edit: first((r) => ({ ...r, tokenizer: 'icu' })),
    names: /tokenizer/,
  },
  {
    kind: 'searchSettings',
    what: 'a negative weight',
    edit: first((r) => ({
      ...r,
      weights: json(Object.fromEntries(Object.keys(JSON.parse(String(r.weights))).map((k) => [k, -1]))),
    })),
    names: /weights/,
  },
  {
    kind: 'taxonomies',
    what: 'a name that is not a machine name',
    edit: first((r) => ({ ...r, name: 'Topics!' })),
    names: /name/,
  },
  {
    kind: 'taxonomies',
    what: 'a hierarchical flag that is not a flag',
    edit: first((r) => ({ ...r, hierarchical: 2 })),
    names: /hierarchical/,
  },
  {
    kind: 'taxonomyDefs',
    what: 'an empty label',
    edit: first((r) => ({ ...r, label: '' })),
    names: /label/,
  },
  {
    kind: 'terms',
    what: 'a slug with a slash',
    edit: first((r) => ({ ...r, slug: 'news/../admin' })),
    names: /slug/,
  },
  {
    kind: 'terms',
    what: 'a negative position',
    edit: first((r) => ({ ...r, position: -1 })),
    names: /position/,
  },
  {
    kind: 'mediaFolders',
    what: 'a name longer than 200 characters',
    edit: first((r) => ({ ...r, name: 'x'.repeat(201) })),
    names: /name/,
  },
  {
    kind: 'bylines',
    what: 'a script website URL',
    edit: first((r) => ({ ...r, website_url: 'javascript:alert(1)' })),
    names: /website_url/,
  },
  {
    kind: 'bylines',
    what: 'an empty name',
    edit: first((r) => ({ ...r, display_name: ' ' })),
    names: /display_name/,
  },
  {
    kind: 'links',
    what: 'a negative position',
    edit: first((r) => ({ ...r, position: -1 })),
    names: /position/,
  },
  {
    kind: 'entryBylines',
    what: 'a negative position',
    edit: first((r) => ({ ...r, position: -2 })),
    names: /position/,
  },
  {
    kind: 'entryBylines',
    what: 'a role label longer than a credit takes',
    edit: first((r) => ({ ...r, role_label: 'r'.repeat(101) })),
    names: /role_label/,
  },
  {
    kind: 'entrySchedules',
    what: 'an instant without a zone',
    edit: first((r) => ({ ...r, created_at: '2026-01-02 03:04:05' })),
    names: /created_at/,
  },
  {
    kind: 'contentTerms',
    what: 'a negative position',
    edit: first((r) => ({ ...r, position: -3 })),
    names: /position/,
  },
  {
    kind: 'menus',
    what: 'a name that is not a machine name',
    edit: first((r) => ({ ...r, name: 'Main Menu' })),
    names: /name/,
  },
  {
    kind: 'menuItems',
    what: 'a script link',
    edit: where(
      (r) => r.kind === 'url',
      (r) => ({ ...r, url: 'javascript:alert(1)' }),
    ),
    names: /url/,
  },
  {
    kind: 'menuItems',
    what: 'a protocol-relative link',
    edit: where(
      (r) => r.kind === 'url',
      (r) => ({ ...r, url: '//evil.example/' }),
    ),
    names: /url/,
  },
  {
    kind: 'menuItems',
    what: 'a kind this release does not have',
    edit: where(
      (r) => r.kind === 'url',
      (r) => ({ ...r, kind: 'script' }),
    ),
    names: /kind/,
  },
  {
    kind: 'menuItems',
    what: 'a content item without a target',
    edit: where(
      (r) => r.kind === 'content',
      (r) => ({ ...r, target_group: null }),
    ),
    names: /target_group/,
  },
  {
    kind: 'sections',
    what: 'a script link mark',
    edit: first((r) => ({ ...r, content: json(link('javascript:alert(1)')) })),
    names: /content\.0\.markDefs\.0\.href/,
  },
  {
    kind: 'widgetAreas',
    what: 'a name that is not a machine name',
    edit: first((r) => ({ ...r, name: 'Side Bar' })),
    names: /name/,
  },
  {
    kind: 'widgets',
    what: 'a widget of an unknown type',
    edit: first((r) => ({ ...r, type: 'iframe' })),
    names: /type/,
  },
  {
    kind: 'widgets',
    what: 'a rich-text widget with a script link',
    edit: where(
      (r) => r.type === 'richText',
      (r) => ({ ...r, settings: json({ content: link('data:text/html,<script>alert(1)</script>') }) }),
    ),
    names: /settings\.content\.0\.markDefs\.0\.href/,
  },
  {
    kind: 'seo',
    what: 'a script canonical URL',
    edit: first((r) => ({ ...r, canonical: 'javascript:alert(1)' })),
    names: /canonical/,
  },
  {
    kind: 'seo',
    what: 'a noindex flag that is not a flag',
    edit: first((r) => ({ ...r, noindex: 5 })),
    names: /noindex/,
  },
];

describeEachDialect('site import: structure records pass the rules of their domain', (dialect) => {
  it('imports the untouched package with no blocker and no transformation', async () => {
    const target = await mediaCms(dialect);
    const entries = await sourcePackage(dialect);
    const manifest = JSON.parse(entries[0].data.toString('utf8'));
    const kinds = new Set(manifest.files.map((f: { kind: string }) => f.kind));
    for (const c of CASES) expect(kinds.has(c.kind), c.kind).toBe(true);
    const { id, plan } = await planOf(target, target.adminToken, entries);
    expect(plan.blockers.items).toEqual([]);
    // What every import does (users mapped, indexes built) is reported; no record needed changing.
    const changed = (plan.transformations as Array<{ code: string }>).filter((t) =>
      /_normalised$|_cleaned$/.test(t.code),
    );
    expect(changed).toEqual([]);
    const receipt = await executeImport(target, target.adminToken, id, plan);
    expect(receipt.records.menuItems).toBe(3);
    expect(receipt.records.widgets).toBe(2);
  });

  for (const kind of new Set(CASES.map((c) => c.kind))) {
    const cases = CASES.filter((c) => c.kind === kind);
    it(`refuses ${kind} the write path refuses (${cases.map((c) => c.what).join('; ')}), naming the file and line`, async () => {
      const target = await mediaCms(dialect);
      const path = file(kind);
      for (const c of cases) {
        const { plan } = await planOf(
          target,
          target.adminToken,
          repack(await sourcePackage(dialect), { [path]: c.edit }),
        );
        const blockers = plan.blockers.items as Array<{ code: string; message: string }>;
        expect(
          blockers.map((b) => b.code),
          `${c.what}: ${JSON.stringify(blockers)}`,
        ).toEqual(['invalid_record']);
        expect(blockers[0].message, c.what).toContain(`${path}, line `);
        expect(blockers[0].message.split(/, line \d+: /)[1], c.what).toMatch(c.names);
      }
    });
  }

  it('normalises what the write path would trim, reports it, and the site reads the trimmed values', async () => {
    const target = await mediaCms(dialect);
    const entries = repack(await sourcePackage(dialect), {
      [file('menuItems')]: where(
        (r) => r.kind === 'url',
        (r) => ({ ...r, label: '  Contact  ' }),
      ),
      [file('settings')]: where(
        (r) => r.key === 'tagline',
        (r) => ({ ...r, value: json('  Everything moves  ') }),
      ),
      [file('mediaFolders')]: first((r) => ({ ...r, name: ' Photos ' })),
    });
    const { id, plan } = await planOf(target, target.adminToken, entries);
    expect(plan.blockers.items).toEqual([]);
    expect(plan.transformations).toEqual(
      expect.arrayContaining([
        { code: 'menu_item_normalised', kind: 'menuItems', count: 1 },
        { code: 'setting_normalised', kind: 'settings', count: 1 },
        { code: 'media_folder_normalised', kind: 'mediaFolders', count: 1 },
      ]),
    );
    await executeImport(target, target.adminToken, id, plan);
    const menu = await ok(target, 'GET', '/menus/main');
    expect(menu.items.find((i: any) => i.kind === 'url').label).toBe('Contact');
    expect((await ok(target, 'GET', '/settings')).tagline).toBe('Everything moves');
    expect((await ok(target, 'GET', '/media/folders')).items.map((f: any) => f.name)).toEqual(['Photos']);
  });
});
