/**
 * A WordPress shortcode tokenizer: `[name attr="v" positional]`, `[name/]`, `[/name]`.
 * Hand-written and linear (each character is looked at a bounded number of times), so
 * hostile input such as thousands of unmatched `[` cannot make it backtrack.
 */

export interface ShortcodeTag {
  name: string;
  attrs: Record<string, string>;
  positional: string[];
  /** Index just past the closing `]`. */
  end: number;
  closing: boolean;
  selfClosing: boolean;
}

const isNameChar = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
const isNameStart = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isWs = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 160;

/** Longest attribute text read; WordPress shortcodes are short, and a bound keeps scans cheap. */
const MAX_TAG = 4096;

/**
 * Reads the tag that starts at `s[i] === '['`, or returns null with `resume` set to where the
 * caller should look for the next `[` (never before i + 1, so callers always advance).
 */
export function readShortcodeTag(s: string, i: number): ShortcodeTag | { resume: number } {
  let p = i + 1;
  let closing = false;
  if (s.charCodeAt(p) === 47) {
    closing = true;
    p++;
  }
  if (!isNameStart(s.charCodeAt(p))) return { resume: i + 1 };
  const nameStart = p;
  while (p < s.length && isNameChar(s.charCodeAt(p))) p++;
  const name = s.slice(nameStart, p);
  const after = s.charCodeAt(p);
  if (!(after === 93 || after === 47 || after === 61 || isWs(after))) return { resume: p };
  // The attribute text runs to the next ']'; a '[' first means this was not a tag.
  const limit = Math.min(s.length, p + MAX_TAG);
  let q = p;
  while (q < limit) {
    const c = s.charCodeAt(q);
    if (c === 93) break;
    if (c === 91) return { resume: q };
    q++;
  }
  if (q >= limit) return { resume: q };
  let body = s.slice(p, q);
  let selfClosing = false;
  if (body.endsWith('/')) {
    selfClosing = true;
    body = body.slice(0, -1);
  }
  if (closing && body.trim() !== '') return { resume: q };
  const { attrs, positional } = parseAttrs(body);
  return { name: name.toLowerCase(), attrs, positional, end: q + 1, closing, selfClosing };
}

/** `a="x" b='y' c=z "pos" pos` plus Jetpack's `[youtube=URL]` form (a leading `=value` is positional). */
export function parseAttrs(body: string): { attrs: Record<string, string>; positional: string[] } {
  const attrs: Record<string, string> = Object.create(null);
  const positional: string[] = [];
  let p = 0;
  const n = body.length;
  if (body.charCodeAt(0) === 61) {
    positional.push(body.slice(1).trim());
    return { attrs, positional };
  }
  while (p < n) {
    while (p < n && isWs(body.charCodeAt(p))) p++;
    if (p >= n) break;
    const c = body[p];
    if (c === '"' || c === "'") {
      const e = body.indexOf(c, p + 1);
      const end = e === -1 ? n : e;
      positional.push(body.slice(p + 1, end));
      p = end + 1;
      continue;
    }
    const start = p;
    while (p < n && isNameChar(body.charCodeAt(p))) p++;
    if (p === start || body[p] !== '=') {
      // Not `name=`: a positional value such as a URL (which may itself contain '=').
      while (p < n && !isWs(body.charCodeAt(p))) p++;
      positional.push(body.slice(start, p));
      continue;
    }
    const word = body.slice(start, p);
    p++;
    const q = body[p];
    let value: string;
    if (q === '"' || q === "'") {
      const e = body.indexOf(q, p + 1);
      const end = e === -1 ? n : e;
      value = body.slice(p + 1, end);
      p = end + 1;
    } else {
      const vs = p;
      while (p < n && !isWs(body.charCodeAt(p))) p++;
      value = body.slice(vs, p);
    }
    if (word) attrs[word.toLowerCase()] = value;
  }
  return { attrs, positional };
}

/**
 * Finds `[/name]` from `from` on. Remembers the last answer per name so that many unmatched
 * openers of one name cost one scan in total, not one scan each.
 */
export class CloserFinder {
  private memo = new Map<string, { from: number; at: number }>();
  constructor(private readonly s: string) {}
  find(name: string, from: number): number {
    const m = this.memo.get(name);
    if (m && m.from <= from && (m.at === -1 || m.at >= from)) return m.at;
    const needle = `[/${name}]`;
    let at = -1;
    // Case-insensitive on the name, as WordPress matches registered names case-sensitively
    // but exports seen in the wild mix cases; compare lowercase copies only where '[/' occurs.
    let p = this.s.indexOf('[/', from);
    while (p !== -1) {
      if (this.s.slice(p, p + needle.length).toLowerCase() === needle) {
        at = p;
        break;
      }
      p = this.s.indexOf('[/', p + 2);
    }
    this.memo.set(name, { from, at });
    return at;
  }
}

/** Jetpack-style embed shortcodes: the address they stand for, when one can be told. */
export function shortcodeEmbedUrl(name: string, attrs: Record<string, string>, positional: string[]): string | null {
  const first = attrs.url ?? attrs.src ?? attrs.id ?? positional[0] ?? '';
  const isUrl = /^https?:\/\//i.test(first);
  switch (name) {
    case 'youtube':
      return isUrl ? first : first ? `https://www.youtube.com/watch?v=${encodeURIComponent(first)}` : null;
    case 'vimeo':
      return isUrl ? first : first ? `https://vimeo.com/${encodeURIComponent(first)}` : null;
    case 'dailymotion':
      return isUrl ? first : first ? `https://www.dailymotion.com/video/${encodeURIComponent(first)}` : null;
    case 'facebook':
    case 'soundcloud':
    case 'instagram':
    case 'spotify':
    case 'twitter':
    case 'tweet':
    case 'flickr':
    case 'ted':
    case 'slideshare':
    case 'mixcloud':
    case 'scribd':
    case 'gist':
    case 'hulu':
    case 'embed':
      return isUrl ? first : null;
    default:
      return null;
  }
}
