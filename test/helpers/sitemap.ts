import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validateXML } from 'xmllint-wasm';

const dir = fileURLToPath(new URL('../fixtures/sitemap/', import.meta.url));
const read = (name: string) => ({ fileName: name, contents: readFileSync(`${dir}${name}`, 'utf8') });

/** Validate a sitemap (urlset) or sitemap index against the protocol's XML schema; returns the errors. */
export async function sitemapErrors(xml: string, kind: 'urlset' | 'index'): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'sitemap.xml', contents: xml }],
    schema: [read(kind === 'index' ? 'siteindex.xsd' : 'sitemap.xsd')],
    preload: kind === 'index' ? [] : [read('xhtml-link.xsd')],
    // A 50,000-URL file needs more than the default 16 MiB of wasm memory.
    initialMemoryPages: 512,
    maxMemoryPages: 8192,
  });
  return result.errors.map((e) => e.message);
}

/** `<loc>` values of a sitemap, in order. */
export const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);

/** Each `<url>`'s loc with its alternates as `hreflang=href`. */
export function urlsWithAlternates(xml: string): Array<{ loc: string; alternates: string[] }> {
  return [...xml.matchAll(/<url>(.*?)<\/url>/gs)].map((m) => ({
    loc: /<loc>([^<]*)<\/loc>/.exec(m[1])![1],
    alternates: [...m[1].matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].map(
      (a) => `${a[1]}=${a[2]}`,
    ),
  }));
}
