import { expect, it } from 'vitest';
import { ROLES } from '../../../src/auth/roles.js';
import type { DialectName } from '../../../src/db/dialect.js';
import { call } from '../../helpers/cms.js';
import { createEntry, postsCollection, publish } from '../../helpers/content.js';
import { describeEachDialect } from '../../helpers/db.js';
import { mcpClient, serve } from '../../helpers/mcp.js';
import { mediaCms, png, uploaded } from '../../helpers/media.js';
import { submitComment } from '../../helpers/public.js';
import { sessionFor } from '../../helpers/session.js';
import {
  executeImport,
  fetchBytes,
  type PackageEntry,
  planOf,
  repack,
  runExport,
  untar,
  withFile,
} from '../../helpers/transfer.js';

/**
 * A site package is a file from elsewhere: every record in it must pass the
 * rules the normal write path applies to its kind, or be normalised by a
 * reported transformation. These packages are made on a real site, then
 * rewritten the way an attacker would, with digests that match.
 */
type Rows = Record<string, unknown>[];

const packages = new Map<DialectName, Promise<PackageEntry[]>>();

/** One source site's package per database: a collection with URL, repeater and block fields, a comment, a redirect, a sign-up domain. */
function sourcePackage(dialect: DialectName): Promise<PackageEntry[]> {
  let made = packages.get(dialect);
  if (!made) {
    made = (async () => {
      const source = await mediaCms(dialect, 'file', { config: { trustedProxyHeaders: ['x-forwarded-for'] } });
      const block = await call(source, 'POST', '/schema/block-types', {
        token: source.adminToken,
        body: { slug: 'cta', label: 'Call to action', fields: [{ slug: 'target', label: 'Target', type: 'url' }] },
      });
      expect(block.status, JSON.stringify(block.body)).toBe(201);
      await postsCollection(source, {
        supports: ['drafts', 'revisions', 'comments'],
        fields: [
          {
            slug: 'items',
            label: 'Items',
            type: 'repeater',
            validation: { subFields: [{ slug: 'href', label: 'Href', type: 'url' }] },
          },
          { slug: 'sections', label: 'Sections', type: 'blocks', validation: { allowedTypes: ['cta'] } },
        ],
      });
      await uploaded(source, await png(8, 8));
      const entry = await createEntry(source, {
        slug: 'hello',
        data: {
          title: 'Hello',
          link: 'https://example.com/',
          items: [{ href: 'https://a.example/' }],
          sections: [{ _type: 'cta', _key: 'k1', target: 'https://b.example/' }],
        },
      });
      await publish(source, entry.item.id);
      const sent = await submitComment(source, entry.item.id, {
        body: 'Nice post',
        authorName: 'Visitor',
        authorEmail: 'visitor@example.test',
        authorUrl: 'https://visitor.example/',
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      const redirect = await call(source, 'POST', '/redirects', {
        token: source.adminToken,
        body: { source: '/old', target: '/new' },
      });
      expect(redirect.status, JSON.stringify(redirect.body)).toBe(201);
      const domain = await call(source, 'POST', '/admin/allowed-domains', {
        token: source.adminToken,
        body: { domain: 'example.org', defaultRole: ROLES.CONTRIBUTOR },
      });
      expect(domain.status, JSON.stringify(domain.body)).toBe(201);
      await source.userToken(ROLES.AUTHOR);
      const op = await runExport(source, source.adminToken);
      const archive = await fetchBytes(source, `/admin/transfer/exports/${op.id}/archive`, source.adminToken);
      return untar(archive.bytes);
    })();
    packages.set(dialect, made);
  }
  return made;
}

const one = (path: string) => `records/${path}/00001.ndjson`;
const ENTRIES = 'records/entries/posts/00001.ndjson';

/** Rewrite the first row of a record file. */
const first =
  (change: (row: Record<string, unknown>) => Record<string, unknown>) =>
  (rows: Rows): Rows => [change(rows[0]), ...rows.slice(1)];

/** Rewrite a JSON text column of the first row. */
const firstJson = (column: string, change: (value: any) => any) =>
  first((row) => ({ ...row, [column]: JSON.stringify(change(JSON.parse(String(row[column])))) }));

async function blockersOf(dialect: DialectName, edits: Record<string, (rows: Rows) => Rows>) {
  const target = await mediaCms(dialect);
  const { plan } = await planOf(target, target.adminToken, repack(await sourcePackage(dialect), edits));
  return plan.blockers.items as Array<{ code: string; message: string }>;
}

describeEachDialect('site import: records pass the rules of their kind', (dialect) => {
  it('imports the untouched package with no blocker (the baseline every case below changes one thing of)', async () => {
    const target = await mediaCms(dialect);
    const { id, plan } = await planOf(target, target.adminToken, await sourcePackage(dialect));
    expect(plan.blockers.items).toEqual([]);
    const receipt = await executeImport(target, target.adminToken, id, plan);
    expect(receipt.records.entries).toBe(1);
    expect(receipt.records.comments).toBe(1);
  });

  const unsafeUrls: Array<[string, Record<string, (rows: Rows) => Rows>, RegExp]> = [
    ['a URL field', { [ENTRIES]: first((r) => ({ ...r, link: 'javascript:alert(document.domain)' })) }, /link/],
    [
      'a repeater row',
      { [ENTRIES]: first((r) => ({ ...r, items: [{ href: 'javascript:alert(1)' }] })) },
      /items\.0\.href/,
    ],
    [
      'a block',
      {
        [ENTRIES]: first((r) => ({
          ...r,
          sections: [{ _type: 'cta', _key: 'k1', _version: 1, target: 'data:text/html,x' }],
        })),
      },
      /sections\.0\.target/,
    ],
    ['a revision', { [one('revisions')]: firstJson('data', (d) => ({ ...d, link: 'javascript:alert(1)' })) }, /link/],
  ];
  for (const [where, edits, path] of unsafeUrls) {
    it(`refuses a script URL in ${where}, naming the file and line`, async () => {
      const blockers = await blockersOf(dialect, edits);
      expect(blockers.map((b) => b.code)).toEqual(['invalid_record']);
      expect(blockers[0].message).toMatch(/\.ndjson, line 1: /);
      expect(blockers[0].message).toMatch(path);
    });
  }

  it('refuses redirect targets the redirect rules refuse (CR/LF, script schemes)', async () => {
    for (const target of ['/next\r\nSet-Cookie: a=b', 'javascript:alert(1)', '//evil.example/']) {
      const blockers = await blockersOf(dialect, { [one('redirects')]: first((r) => ({ ...r, target })) });
      expect(
        blockers.map((b) => b.code),
        target,
      ).toEqual(['invalid_record']);
      expect(blockers[0].message, target).toMatch(/records\/redirects\/00001\.ndjson, line 1: .*target/);
    }
  });

  it('refuses a role that is not in the role table, for users and sign-up domains', async () => {
    const users = await blockersOf(dialect, {
      [one('users')]: (rows) => rows.map((r, i) => (i === rows.length - 1 ? { ...r, role: 9999 } : r)),
    });
    expect(users.map((b) => b.code)).toEqual(['invalid_record']);
    expect(users[0].message).toMatch(/records\/users\/00001\.ndjson, line \d+: .*role/);
    // Sign-up gives a domain's role to anyone who can receive mail there: at most Editor, as the API says.
    for (const role of [ROLES.ADMIN, 9999]) {
      const domains = await blockersOf(dialect, {
        [one('allowedDomains')]: first((r) => ({ ...r, default_role: role })),
      });
      expect(
        domains.map((b) => b.code),
        String(role),
      ).toEqual(['invalid_record']);
      expect(domains[0].message).toMatch(/default_role/);
    }
  });

  it('refuses a media item of a type the library does not accept', async () => {
    const blockers = await blockersOf(dialect, {
      [one('media')]: first((r) => ({ ...r, mime_type: 'text/html' })),
    });
    expect(blockers.map((b) => b.code)).toEqual(['invalid_record']);
    expect(blockers[0].message).toMatch(/mime_type/);
  });

  it('refuses media bytes whose type contradicts the record, as an upload would', async () => {
    const entries = await sourcePackage(dialect);
    const image = entries.find((e) => e.name.startsWith('media/'))!;
    const page = Buffer.from('<!doctype html><html><body><script>alert(document.domain)</script></body></html>');
    const target = await mediaCms(dialect);
    const { plan } = await planOf(target, target.adminToken, withFile(entries, image.name, page));
    expect(plan.blockers.items.map((b: any) => b.code)).toEqual(['invalid_record']);
    expect(plan.blockers.items[0].message).toMatch(
      /records\/media\/00001\.ndjson, line 1: .*text\/html, not the recorded image\/png/,
    );
  });

  it('refuses text no database stores inside JSON kept as text, at any depth', async () => {
    const revision = await blockersOf(dialect, {
      [one('revisions')]: firstJson('data', (d) => ({ ...d, title: 'Ti\u0000tle' })),
    });
    expect(revision.map((b) => b.code)).toEqual(['invalid_record']);
    expect(revision[0].message).toMatch(/records\/revisions\/00001\.ndjson, line 1: data.*NUL/);
    const comment = await blockersOf(dialect, {
      [one('comments')]: first((r) => ({ ...r, spam_reasons: JSON.stringify(['\ud800']) })),
    });
    expect(comment.map((b) => b.code)).toEqual(['invalid_record']);
    expect(comment[0].message).toMatch(/spam_reasons/);
  });

  it('stores comment text the way the comment rules do, and reports it as a transformation', async () => {
    const target = await mediaCms(dialect);
    const entries = repack(await sourcePackage(dialect), {
      [one('comments')]: first((r) => ({
        ...r,
        status: 'approved',
        body: '<img src=x onerror=alert(1)> hi',
        author_name: '<script>alert(1)</script>',
        author_url: 'javascript:alert(1)',
      })),
    });
    const { id, plan } = await planOf(target, target.adminToken, entries);
    expect(plan.blockers.items).toEqual([]);
    expect(plan.transformations).toContainEqual({ code: 'comment_text_normalised', kind: 'comments', count: 1 });
    await executeImport(target, target.adminToken, id, plan);
    const entry = (await call(target, 'GET', '/content/posts', { token: target.adminToken })).body.data.items[0];
    const list = await call(target, 'GET', `/comments/posts/${entry.id}`, { token: null });
    expect(list.status).toBe(200);
    const [c] = list.body.data.items;
    expect(c.body).toBe('&lt;img src=x onerror=alert(1)&gt; hi');
    expect(c.authorName).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(c.authorUrl ?? null).toBeNull();
  });

  it('shows the importing Admin, in a session, the accounts and roles it will create; MCP summaries leave out addresses', async () => {
    const target = await mediaCms(dialect);
    const { id } = await planOf(target, target.adminToken, await sourcePackage(dialect));
    const browser = await sessionFor(target, target.adminId);
    const plan = await browser.call('GET', `/admin/transfer/imports/${id}/plan`);
    expect(plan.status).toBe(200);
    const created = plan.body.data.principals.items.filter((p: any) => p.mappedUserId === null);
    expect(created.length).toBeGreaterThan(0);
    for (const p of created) {
      expect(p.email).toMatch(/@example\.test$/);
      expect(p.roleName).toMatch(/^(admin|author)$/);
    }
    const client = await mcpClient(await serve(target), target.adminToken);
    const summary = await client.ok('site_import_analyze', { id });
    expect(summary.plan.principals.items.length).toBe(plan.body.data.principals.items.length);
    expect(JSON.stringify(summary)).not.toMatch(/@example\.test/);
    await client.close();
  });

  it('writes kinds in dependency order whatever order the manifest lists them in, and no read answers 500 meanwhile', async () => {
    const target = await mediaCms(dialect);
    const entries = repack(await sourcePackage(dialect), {}, (manifest) => {
      // Search settings (and everything else) listed before the collections they belong to.
      manifest.files.reverse();
    });
    const { id, plan } = await planOf(target, target.adminToken, entries);
    expect(plan.blockers.items).toEqual([]);
    const started = await call(target, 'POST', `/admin/transfer/imports/${id}/execute`, {
      token: target.adminToken,
      body: { packageDigest: plan.packageDigest, planDigest: plan.planDigest },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    let op = started.body.data;
    const reads = ['/content/posts', '/schema/collections', '/search?q=hello', '/media', '/taxonomies'];
    for (let i = 0; op.nextRequestInMs !== null && i < 500; i++) {
      for (const path of reads) {
        const res = await call(target, 'GET', path, { token: target.adminToken });
        expect(res.status, `${path} during step ${i}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      }
      const res = await call(target, 'POST', `/admin/transfer/imports/${id}/advance`, { token: target.adminToken });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      op = res.body.data;
    }
    expect(op.state, JSON.stringify(op)).toBe('complete');
    const list = await call(target, 'GET', '/content/posts', { token: target.adminToken });
    expect(list.body.data.items.map((e: any) => e.slug)).toEqual(['hello']);
  });
});
