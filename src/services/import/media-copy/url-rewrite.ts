/**
 * Replacing the old site's media addresses inside field values.
 *
 * Each string is scanned once for `http(s)://…` runs (a single character class,
 * so the scan is linear, with no backtracking on untrusted text); each run is
 * looked up in the map as it stands, then without its query or fragment, then
 * without trailing punctuation a sentence puts after a link. The lookup ignores
 * the scheme and the host's case: WordPress content mixes `http:` and `https:`
 * links to the same upload. A run that is not in the map is left untouched, so
 * `photo.jpg` never matches inside `photo.jpg.webp`.
 */

const URL_RUN = /https?:\/\/[^\s"'<>\\`]+/gi;
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', ')', ']', '}']);
/** Keys a Portable Text value uses for structure, and the converter's record of where a file came from. */
const SKIPPED_KEYS = new Set(['_key', '_type', 'style', 'listItem', 'sourceUrl']);

/** `//host/path…` with the host lowercased; null when the text is not an absolute http(s) URL. */
export function urlKey(url: string): string | null {
  const m = /^https?:(\/\/[^/?#]*)(.*)$/is.exec(url);
  if (!m) return null;
  return m[1].toLowerCase() + m[2];
}

export interface Rewritten<T> {
  value: T;
  /** URLs replaced (0: `value` is the input itself). */
  count: number;
}

export class UrlRewriter {
  private readonly map = new Map<string, string>();

  constructor(urlMap: Record<string, string>) {
    for (const [from, to] of Object.entries(urlMap)) {
      const key = urlKey(from.trim());
      if (key && to !== from) this.map.set(key, to);
    }
  }

  get size(): number {
    return this.map.size;
  }

  private lookup(run: string): { length: number; to: string } | null {
    const tries = [run];
    const cut = run.search(/[?#]/);
    if (cut > 0) tries.push(run.slice(0, cut));
    for (const t of [...tries]) {
      let end = t.length;
      while (end > 0 && TRAILING.has(t[end - 1])) end--;
      if (end < t.length) tries.push(t.slice(0, end));
    }
    for (const t of tries) {
      const key = urlKey(t);
      const to = key === null ? undefined : this.map.get(key);
      if (to !== undefined) return { length: t.length, to };
    }
    return null;
  }

  /** Every mapped URL in the text replaced. */
  string(text: string): Rewritten<string> {
    if (this.map.size === 0 || !/https?:\/\//i.test(text)) return { value: text, count: 0 };
    let out = '';
    let last = 0;
    let count = 0;
    for (const m of text.matchAll(URL_RUN)) {
      const hit = this.lookup(m[0]);
      if (!hit) continue;
      out += text.slice(last, m.index) + hit.to;
      last = m.index + hit.length;
      count++;
    }
    return count ? { value: out + text.slice(last), count } : { value: text, count: 0 };
  }

  /**
   * Every mapped URL in the strings of a JSON value (Portable Text, an image or
   * file object, a plain string) replaced; unchanged parts are shared, and an
   * unchanged value is returned as is.
   */
  value<T>(input: T): Rewritten<T> {
    return this.walk(input, 0) as Rewritten<T>;
  }

  private walk(v: unknown, depth: number): Rewritten<unknown> {
    if (typeof v === 'string') return this.string(v);
    // Field values are validated and shallow; the bound only guards against a pathological stored value.
    if (depth > 64 || v === null || typeof v !== 'object') return { value: v, count: 0 };
    if (Array.isArray(v)) {
      let count = 0;
      let copy: unknown[] | null = null;
      v.forEach((item, i) => {
        const r = this.walk(item, depth + 1);
        if (!r.count) return;
        copy ??= [...v];
        copy[i] = r.value;
        count += r.count;
      });
      return { value: copy ?? v, count };
    }
    let count = 0;
    let copy: Record<string, unknown> | null = null;
    for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
      if (SKIPPED_KEYS.has(k)) continue;
      const r = this.walk(item, depth + 1);
      if (!r.count) continue;
      copy ??= { ...(v as Record<string, unknown>) };
      copy[k] = r.value;
      count += r.count;
    }
    return { value: copy ?? v, count };
  }
}
