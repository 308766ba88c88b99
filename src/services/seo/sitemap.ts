import { escapeHtml } from '../../core/text.js';
import type { Kdb } from '../../db/connect.js';
import type { ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
import type { CollectionInfo } from '../schema/model.js';
import { entryPath } from '../schema/url-pattern.js';
import { siteUrl } from '../settings/site-url.js';
import {
  alternatesOf,
  indexableSiblings,
  indexableWhere,
  isIndexable,
  routableLocales,
  type UrlRow,
} from './eligibility.js';

/** The sitemap protocol's limit of URLs per file. */
export const URLS_PER_SITEMAP = 50_000;
/** Rows read per statement while a file streams (memory stays flat however large the collection). */
const BATCH = 1_000;
/** The protocol's limit on a `loc`. */
const MAX_LOC = 2048;

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const XHTML = 'http://www.w3.org/1999/xhtml';
const xml = escapeHtml;

export interface SitemapFile {
  /** `sitemap-posts.xml`, `sitemap-posts-2.xml` … */
  name: string;
  collection: string;
  page: number;
}

/** `sitemap-{collection}.xml` is page 1; later pages add `-{n}`. */
export function sitemapName(collection: string, page: number): string {
  return page === 1 ? `sitemap-${collection}.xml` : `sitemap-${collection}-${page}.xml`;
}

export function parseSitemapName(name: string): { collection: string; page: number } | null {
  const m = /^sitemap-([a-z][a-z0-9_]*)(?:-([1-9][0-9]{0,5}))?\.xml$/.exec(name);
  if (!m) return null;
  const page = m[2] ? Number(m[2]) : 1;
  return page === 1 && m[2] ? null : { collection: m[1], page };
}

/**
 * Sitemaps (i18n rule 7): `/sitemap.xml` indexes one file per 50,000 URLs of
 * every routable, SEO-enabled collection; each file lists its indexable
 * entries, one URL per translation, with hreflang alternates (every
 * indexable sibling and `x-default`) when the site has more than one locale.
 * Files are streamed in keyset batches.
 */
export function sitemapOps(ctx: ServiceContext, schema: SchemaService) {
  const { i18n } = ctx.config;
  // biome-ignore lint/suspicious/noExplicitAny: entry tables are dynamic
  const dyn = (db: Kdb) => db as any;

  async function stats(c: CollectionInfo): Promise<{ count: number; lastmod: string | null }> {
    const row = await dyn(ctx.db)
      .selectFrom(`${c.table} as t`)
      .select(
        (eb: {
          fn: { countAll: () => { as: (n: string) => unknown }; max: (c: string) => { as: (n: string) => unknown } };
        }) => [eb.fn.countAll().as('n'), eb.fn.max('t.updated_at').as('lastmod')],
      )
      .where(indexableWhere(c, routableLocales(c, i18n)))
      .executeTakeFirst();
    return { count: Number(row?.n ?? 0), lastmod: (row?.lastmod as string | null) ?? null };
  }

  async function collections(): Promise<CollectionInfo[]> {
    return [...(await schema.snapshot()).collections.values()]
      .filter(isIndexable)
      .sort((a, b) => a.slug.localeCompare(b.slug));
  }

  /** The index document, or null when the site has no URL to make absolute links with. */
  async function index(): Promise<string | null> {
    const base = await siteUrl(ctx);
    if (!base) return null;
    const parts = [`<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NS}">\n`];
    for (const c of await collections()) {
      const { count, lastmod } = await stats(c);
      const pages = Math.ceil(count / URLS_PER_SITEMAP);
      for (let page = 1; page <= pages; page++) {
        parts.push(
          `<sitemap><loc>${xml(`${base}/${sitemapName(c.slug, page)}`)}</loc>${lastmod ? `<lastmod>${xml(lastmod)}</lastmod>` : ''}</sitemap>\n`,
        );
      }
    }
    parts.push('</sitemapindex>\n');
    return parts.join('');
  }

  /** Rows of one file, in (locale, created_at, id) order, BATCH at a time. */
  async function* rowsOf(c: CollectionInfo, locales: string[], page: number): AsyncGenerator<UrlRow[]> {
    const cols = ['t.id', 't.slug', 't.locale', 't.translation_group', 't.created_at', 't.updated_at'];
    const base = () => dyn(ctx.db).selectFrom(`${c.table} as t`).select(cols).where(indexableWhere(c, locales));
    const order = (q: ReturnType<typeof base>) => q.orderBy('t.locale').orderBy('t.created_at').orderBy('t.id');
    // The first row of the page (an offset over the index, once per file); then keyset batches.
    const first: UrlRow | undefined = await order(base())
      .limit(1)
      .offset((page - 1) * URLS_PER_SITEMAP)
      .executeTakeFirst();
    if (!first) return;
    let after: UrlRow | null = null;
    let left = URLS_PER_SITEMAP;
    while (left > 0) {
      let q = base();
      if (after) {
        const a = after;
        // biome-ignore lint/suspicious/noExplicitAny: dynamic expression builder
        q = q.where((eb: any) =>
          eb.or([
            eb('t.locale', '>', a.locale),
            eb.and([eb('t.locale', '=', a.locale), eb('t.created_at', '>', a.created_at)]),
            eb.and([eb('t.locale', '=', a.locale), eb('t.created_at', '=', a.created_at), eb('t.id', '>', a.id)]),
          ]),
        );
      } else {
        const f = first;
        // biome-ignore lint/suspicious/noExplicitAny: dynamic expression builder
        q = q.where((eb: any) =>
          eb.or([
            eb('t.locale', '>', f.locale),
            eb.and([eb('t.locale', '=', f.locale), eb('t.created_at', '>', f.created_at)]),
            eb.and([eb('t.locale', '=', f.locale), eb('t.created_at', '=', f.created_at), eb('t.id', '>=', f.id)]),
          ]),
        );
      }
      const want = Math.min(BATCH, left);
      const rows: UrlRow[] = await order(q).limit(want).execute();
      if (!rows.length) return;
      yield rows;
      left -= rows.length;
      after = rows[rows.length - 1];
      if (rows.length < want) return;
    }
  }

  /** One file as a stream of XML chunks, or null when there is no such file. */
  async function file(name: string): Promise<ReadableStream<Uint8Array> | null> {
    const parsed = parseSitemapName(name);
    const base = await siteUrl(ctx);
    if (!parsed || !base) return null;
    const c = (await schema.snapshot()).collections.get(parsed.collection);
    if (!c || !isIndexable(c)) return null;
    const locales = routableLocales(c, i18n);
    if (parsed.page > 1 && (await stats(c)).count <= (parsed.page - 1) * URLS_PER_SITEMAP) return null;
    const multilingual = i18n.enabled;
    const encoder = new TextEncoder();
    const rows = rowsOf(c, locales, parsed.page);
    const log = ctx.log;
    return new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(
          encoder.encode(
            `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}"${multilingual ? ` xmlns:xhtml="${XHTML}"` : ''}>\n`,
          ),
        );
      },
      async pull(controller) {
        try {
          const next = await rows.next();
          if (next.done) {
            controller.enqueue(encoder.encode('</urlset>\n'));
            controller.close();
            return;
          }
          const batch = next.value;
          const siblings = multilingual
            ? await indexableSiblings(ctx.db, c, locales, [...new Set(batch.map((r) => r.translation_group))])
            : new Map<string, UrlRow[]>();
          const out: string[] = [];
          for (const r of batch) {
            const path = entryPath(c.urlPattern, r.locale, r.slug, i18n);
            if (path === null) continue;
            const loc = `${base}${path}`;
            if (loc.length > MAX_LOC) continue;
            out.push(`<url><loc>${xml(loc)}</loc><lastmod>${xml(r.updated_at)}</lastmod>`);
            if (multilingual) {
              for (const a of alternatesOf(c, i18n, base, siblings.get(r.translation_group) ?? [r], locales)) {
                out.push(`<xhtml:link rel="alternate" hreflang="${xml(a.hreflang)}" href="${xml(a.href)}"/>`);
              }
            }
            out.push('</url>\n');
          }
          controller.enqueue(encoder.encode(out.join('')));
        } catch (err) {
          log.error({ err, sitemap: name }, 'sitemap generation failed');
          controller.error(err);
        }
      },
      async cancel() {
        await rows.return(undefined);
      },
    });
  }

  return { index, file };
}
