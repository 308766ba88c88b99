import type { ValidationIssue } from '../../core/errors.js';
import { isStorableText } from '../../core/text.js';
import { canonicalPath, MAX_PATH, parsePath } from './paths.js';

/**
 * Redirect sources and targets.
 *
 * Source: a site path. Segments are literal, `:name` (captures one segment)
 * or a final `*` (captures the rest, possibly empty, as `:splat`). No
 * placeholders: an exact rule; only a final `*`: a prefix rule; anything
 * else: a pattern rule.
 *
 * Target: a site path (`/new/:slug`, may carry a query) or an absolute
 * http(s) URL. `:name` placeholders are filled with the captured, still
 * percent-encoded segments; captures can only land in the path or query,
 * never turn a site path into another site (`//evil.example`).
 */
export const REDIRECT_STATUSES = [301, 302, 307, 308] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];
export type RedirectKind = 'exact' | 'prefix' | 'pattern';

export const MAX_TARGET = 2048;

const PARAM = /^:([A-Za-z_][A-Za-z0-9_]*)$/;
const PLACEHOLDER = /:([A-Za-z_][A-Za-z0-9_]*)/g;

export interface ParsedSource {
  source: string;
  kind: RedirectKind;
  /** Literal segments before the first placeholder: the bucket the rule is filed under. */
  head: string;
  params: string[];
  splat: boolean;
  regex: RegExp;
  /** Higher wins when several rules match: literal segments count double, captures once. */
  specificity: number;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function sourceIssue(message: string): ValidationIssue[] {
  return [{ path: ['source'], code: 'invalid_source', message }];
}

/** Parse and normalise a source; issues name `source`. */
export function parseSource(raw: string): ParsedSource | ValidationIssue[] {
  const trimmed = raw.trim();
  if (!trimmed.startsWith('/') || trimmed.startsWith('//')) return sourceIssue('must be a path starting with one "/"');
  if (/[?#\s\\]/.test(trimmed)) return sourceIssue('must be a path only (no query, fragment, spaces or "\\")');
  if (trimmed.length > MAX_PATH || !isStorableText(trimmed))
    return sourceIssue(`must be a path of at most ${MAX_PATH} characters`);
  const url = parsePath(trimmed);
  if (!url) return sourceIssue('is not a valid path');
  const source = canonicalPath(url.pathname);
  const segments = source === '/' ? [] : source.slice(1).split('/');
  const params: string[] = [];
  let splat = false;
  let head = '';
  let headDone = false;
  let pattern = '';
  let specificity = 0;
  for (const [i, seg] of segments.entries()) {
    if (seg === '*') {
      if (i !== segments.length - 1) return sourceIssue('"*" may only be the last segment');
      splat = true;
      headDone = true;
      continue;
    }
    if (seg.includes('*')) return sourceIssue('"*" must be a whole segment');
    const param = PARAM.exec(seg);
    if (param) {
      if (param[1] === 'splat' || params.includes(param[1])) {
        return sourceIssue(`placeholder ":${param[1]}" is used twice or reserved`);
      }
      params.push(param[1]);
      pattern += '/([^/]+)';
      specificity += 1;
      headDone = true;
      continue;
    }
    if (seg.includes(':') && /:[A-Za-z_]/.test(seg)) return sourceIssue('":name" must be a whole segment');
    pattern += `/${escapeRegex(seg)}`;
    specificity += 2;
    if (!headDone) head += `/${seg}`;
  }
  const regex = new RegExp(`^${pattern}${splat ? '(?:/(.*))?' : ''}$`);
  const kind: RedirectKind = params.length ? 'pattern' : splat ? 'prefix' : 'exact';
  if (!pattern && !splat) return { source: '/', kind, head: '', params, splat, regex: /^\/$/, specificity };
  return { source, kind, head, params, splat, regex, specificity };
}

/** Check a target against its source's placeholders; issues name `target`. */
export function targetIssues(target: string, parsed: ParsedSource): ValidationIssue[] {
  const issue = (message: string): ValidationIssue[] => [{ path: ['target'], code: 'invalid_target', message }];
  const t = target.trim();
  if (!t || t.length > MAX_TARGET || !isStorableText(t)) return issue(`must be 1 to ${MAX_TARGET} characters`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\s\\]/.test(t) || /[\u0000-\u001f\u007f]/.test(t))
    return issue('must not contain spaces, control characters or "\\"');
  if (t.startsWith('/')) {
    if (t.startsWith('//')) return issue('a site path starts with one "/" (use https://… for another site)');
  } else {
    let url: URL;
    try {
      url = new URL(t);
    } catch {
      return issue('must be a site path ("/new") or an absolute http(s) URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return issue('only http and https URLs are allowed');
    if (url.username || url.password) return issue('must not carry credentials');
    const afterOrigin = t.slice(t.indexOf('//') + 2);
    const authority = afterOrigin.split(/[/?#]/)[0];
    if (/:[A-Za-z_]/.test(authority)) return issue('placeholders may only fill the path or query');
  }
  const known = new Set([...parsed.params, ...(parsed.splat ? ['splat'] : [])]);
  for (const m of t.matchAll(/\/:([A-Za-z_][A-Za-z0-9_]*)/g)) {
    if (!known.has(m[1])) return issue(`":${m[1]}" is not captured by the source`);
  }
  return [];
}

/** Fill a target with the captures of a matched path. */
export function fillTarget(target: string, captures: Record<string, string>, query: string): string {
  let out = target.replace(PLACEHOLDER, (m, name: string) => (name in captures ? captures[name] : m));
  if (out.startsWith('/')) {
    // A capture starting with "/" or "\" must not make a site path protocol-relative.
    out = out.replace(/^[/\\]+/, '/');
  }
  if (query && !out.includes('?')) {
    const hash = out.indexOf('#');
    out = hash === -1 ? `${out}${query}` : `${out.slice(0, hash)}${query}${out.slice(hash)}`;
  }
  return out;
}

/** Captures of a path matched by a parsed source, or null. */
export function capture(
  parsed: Pick<ParsedSource, 'regex' | 'params' | 'splat'>,
  path: string,
): Record<string, string> | null {
  const m = parsed.regex.exec(path);
  if (!m) return null;
  const out: Record<string, string> = {};
  parsed.params.forEach((name, i) => {
    out[name] = m[i + 1];
  });
  if (parsed.splat) out.splat = m[parsed.params.length + 1] ?? '';
  return out;
}
