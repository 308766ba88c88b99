import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { listen } from '../../src/http/server.js';
import { cliSite, runIn } from '../helpers/cli.js';
import { callOk } from '../helpers/cms.js';
import { postgresAvailable } from '../helpers/db.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const CLIENT = resolve(__dirname, '../../src/client/index.ts');

/** Every one of the 17 field types, a block type, a relation and select options. */
async function everyFieldType(site: Awaited<ReturnType<typeof cliSite>>) {
  const { cms } = site;
  await callOk(cms, cms.adminToken, 'POST', '/schema/block-types', {
    slug: 'call_out',
    label: 'Call-out',
    fields: [
      { slug: 'heading', label: 'Heading', type: 'string', required: true },
      { slug: 'tone', label: 'Tone', type: 'select', validation: { options: ['warm', 'cool'] } },
    ],
  });
  await callOk(cms, cms.adminToken, 'POST', '/schema/collections', {
    slug: 'authors',
    label: 'Authors',
    fields: [{ slug: 'name', label: 'Name', type: 'string', required: true }],
  });
  await callOk(cms, cms.adminToken, 'POST', '/schema/collections', {
    slug: 'posts',
    label: 'Posts',
    urlPattern: '/posts/{slug}',
    fields: [
      { slug: 'title', label: 'Title', type: 'string', required: true },
      { slug: 'summary', label: 'Summary', type: 'text' },
      { slug: 'link', label: 'Link', type: 'url' },
      { slug: 'rating', label: 'Rating', type: 'number' },
      { slug: 'views', label: 'Views', type: 'integer' },
      { slug: 'featured', label: 'Featured', type: 'boolean' },
      { slug: 'when', label: 'When', type: 'datetime' },
      { slug: 'kind', label: 'Kind', type: 'select', validation: { options: ['news', 'essay'] } },
      { slug: 'labels', label: 'Labels', type: 'multiSelect', validation: { options: ['b', 'a'] } },
      { slug: 'body', label: 'Body', type: 'portableText' },
      { slug: 'cover', label: 'Cover', type: 'image' },
      { slug: 'attachment', label: 'Attachment', type: 'file' },
      { slug: 'author', label: 'Author', type: 'reference', validation: { targetCollection: 'authors' } },
      { slug: 'legacy_ref', label: 'Legacy ref', type: 'reference' },
      { slug: 'extra', label: 'Extra', type: 'json' },
      { slug: 'handle', label: 'Handle', type: 'slug' },
      {
        slug: 'links',
        label: 'Links',
        type: 'repeater',
        validation: {
          subFields: [
            { slug: 'label', label: 'Label', type: 'string', required: true },
            { slug: 'href', label: 'Href', type: 'url' },
          ],
        },
      },
      { slug: 'sections', label: 'Sections', type: 'blocks', validation: { allowedTypes: ['call_out'] } },
    ],
  });
}

/** Compile the generated file with a front end's code that uses it through the client. */
function compile(generated: string, usage: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'cms-types-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'cms-types.ts'), generated);
  writeFileSync(
    join(dir, 'site.ts'),
    `import { createClient } from ${JSON.stringify(CLIENT.replace(/\.ts$/, '.js'))};\nimport type * as T from './cms-types.js';\n${usage}\n`,
  );
  const program = ts.createProgram([join(dir, 'site.ts')], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [resolve(__dirname, '../../node_modules/@types')],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file ? `${d.file.fileName}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

const USAGE = `
const client = createClient<T.CmsSchema>({ baseUrl: 'http://cms.example' });
export async function page(): Promise<string> {
  const post = await client.get('posts', 'hello');
  const title: string = post.data.title;
  const kind: 'news' | 'essay' | null | undefined = post.data.kind;
  const labels: Array<'a' | 'b'> = post.data.labels ?? [];
  const srcset: string | undefined = post.data.cover?.srcset;
  const widths: number[] = (post.data.cover?.srcsetCandidates ?? []).map((c) => c.width);
  const blocks = post.data.sections ?? [];
  const heading: string | undefined = blocks[0]?.heading;
  const tone: 'warm' | 'cool' | null | undefined = blocks[0]?.tone;
  const first = post.data.body?.[0];
  const links: string[] = (post.data.links ?? []).map((l) => l.label);
  const legacy: string | null | undefined = post.data.legacy_ref;
  const locale: T.CmsLocale = 'en';
  const status: T.CmsStatus = post.status;
  const author: T.CmsReferences['posts']['author'] = undefined;
  for await (const a of client.iterate('authors')) void a.data.name;
  return [title, kind, labels, srcset, widths, heading, tone, first?._type, links, legacy, locale, status, author].join();
}
`;

const BAD_USAGE = `
const client = createClient<T.CmsSchema>({ baseUrl: 'http://cms.example' });
export async function page() {
  const post = await client.get('posts', 'hello');
  const kind: 'news' = post.data.kind ?? 'news';
  const wrong: 'other' = post.data.kind ?? 'news';
  // @ts-expect-error relation-bound references are not in data
  void post.data.author;
  await client.get('nope', 'x');
  return [kind, wrong];
}
`;

const dialects = ['sqlite', ...(postgresAvailable ? ['postgres' as const] : [])] as const;

describe.each(dialects)('cms types [%s]', (dialect) => {
  it('writes every field type, the same text locally and over --url, and writes it again when the schema changes', async () => {
    const site = await cliSite(dialect, {
      fileConfig: { i18n: { locales: ['en', 'fr', 'de'], defaultLocale: 'en' } },
    });
    await everyFieldType(site);

    const local = await site.run(['types']);
    expect(local.code, local.stderr).toBe(0);
    const text = local.stdout;
    expect(text).toMatch(/^\/\*\*\n \* Generated by `cms types` from schema [0-9a-f]{16} /);
    expect(text).toContain('export type CmsLocale = "de" | "en" | "fr";');
    expect(text).toContain("export type CmsStatus = 'draft' | 'published' | 'scheduled' | 'trashed';");
    for (const line of [
      '  title: string;',
      '  summary?: string | null;',
      '  link?: string | null;',
      '  rating?: number | null;',
      '  views?: number | null;',
      '  featured?: boolean | null;',
      '  when?: CmsDateTime | null;',
      '  kind?: "essay" | "news" | null;',
      '  labels?: Array<"a" | "b"> | null;',
      '  body?: PortableTextBlock[] | null;',
      '  cover?: CmsImage | null;',
      '  attachment?: CmsFile | null;',
      '  legacy_ref?: string | null;',
      '  extra?: CmsJson | null;',
      '  handle?: string | null;',
      '  sections?: Array<BlockCallOut>;',
      '  _type: "call_out";',
      '  heading: string;',
      '  tone?: "cool" | "warm" | null;',
      '  author?: CmsReferencePage<"authors">;',
      '  srcset?: string;',
      '  srcsetCandidates?: SrcsetCandidate[];',
      '  posts: PostsData;',
      '  authors: AuthorsData;',
    ]) {
      expect(text).toContain(line);
    }
    expect(text).toMatch(/links\?: Array<\{\n {4}\/\*\* Label \(string\) \*\/\n {4}label: string;/);
    // Sorted: authors before posts, whatever the sidebar order.
    expect(text.indexOf('interface AuthorsData')).toBeLessThan(text.indexOf('interface PostsData'));

    // The same schema read over the REST API gives the same text.
    const server = await listen(site.cms, 0, '127.0.0.1');
    cleanups.push(
      () =>
        new Promise<void>((done) => {
          (server.server as unknown as { closeAllConnections(): void }).closeAllConnections();
          server.server.close(() => done());
        }),
    );
    const env = { CMS_LOG_LEVEL: 'silent', CMS_CREDENTIALS_FILE: join(site.dir, 'none.json') };
    const remote = await runIn(site.dir, ['--url', server.url, '--token', site.cms.adminToken, 'types'], env);
    expect(remote.code, remote.stderr).toBe(0);
    expect(remote.stdout).toBe(text);

    // It compiles with the client, and the types catch mistakes (once: the text does not depend on the database).
    if (dialect === 'sqlite') {
      expect(compile(text, USAGE)).toEqual([]);
      const errors = compile(text, BAD_USAGE).join('\n');
      expect(errors).toMatch(/"news"' is not assignable to type '"other"'/);
      expect(errors).toMatch(/"nope"/);
      expect(errors).not.toMatch(/Unused '@ts-expect-error'/);
    }

    // --out, and a changed schema changes the file and its hash.
    const again = await site.run(['types', '--out', 'cms-types.ts']);
    expect(again.code, again.stderr).toBe(0);
    expect(readFileSync(join(site.dir, 'cms-types.ts'), 'utf8')).toBe(text);
    await callOk(site.cms, site.cms.adminToken, 'POST', '/schema/collections/posts/fields', {
      slug: 'subtitle',
      label: 'Subtitle',
      type: 'string',
    });
    site.cms.services.schema.cache.invalidate();
    const changed = await site.run(['types', '--out', 'cms-types.ts']);
    expect(changed.code, changed.stderr).toBe(0);
    const next = readFileSync(join(site.dir, 'cms-types.ts'), 'utf8');
    expect(next).toContain('  subtitle?: string | null;');
    expect(next.split('\n')[1]).not.toBe(text.split('\n')[1]);
  });
});
