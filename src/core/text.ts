import { issuesError } from './errors.js';

/**
 * Text both database engines store alike. PostgreSQL refuses U+0000 in text
 * and json values and keys, SQLite keeps it; an unpaired UTF-16 surrogate is
 * not Unicode at all and breaks PostgreSQL's jsonb. Every request is checked
 * once at the door, so the same input gets the same 400 on both engines.
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

// With the `u` flag a well-formed pair is one code point; only an unpaired half is in category Cs.
const LONE_SURROGATE = /\p{Cs}/u;

// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what is looked for
const UNSTORABLE = /\u0000|\p{Cs}/gu;

/**
 * Text read from a file (a WordPress export) in the form both engines store:
 * every character isStorableText refuses (U+0000, an unpaired surrogate) is
 * replaced by U+FFFD, and `replaced` counts them so the reader can report the
 * change. A request is refused instead (docs/api.md, "Storable text"); a file carries such
 * bytes legitimately (PHP-serialised objects in WordPress meta values), so it is
 * repaired, never refused.
 */
export function toStorableText(text: string): { text: string; replaced: number } {
  if (isStorableText(text)) return { text, replaced: 0 };
  let replaced = 0;
  const out = text.replace(UNSTORABLE, () => {
    replaced++;
    return '\uFFFD';
  });
  return { text: out, replaced };
}

/** Deeper JSON than this is refused: nothing the API accepts nests that far, and walkers must not overflow the stack. */
export const MAX_JSON_DEPTH = 64;

export interface TextProblem {
  path: (string | number)[];
  code: 'invalid_text' | 'too_deep';
  message: string;
}

const NOT_STORABLE = 'must not contain NUL characters (U+0000) or unpaired surrogates';

/** The first string (value or key) of a JSON value that cannot be stored, or nesting beyond MAX_JSON_DEPTH. */
export function findTextProblem(value: unknown): TextProblem | null {
  // Iterative, so a hostile nesting depth cannot overflow the stack before it is measured.
  const stack: Array<{ value: unknown; path: (string | number)[] }> = [{ value, path: [] }];
  while (stack.length) {
    const { value: v, path } = stack.pop() as { value: unknown; path: (string | number)[] };
    if (typeof v === 'string') {
      if (!isStorableText(v)) return { path, code: 'invalid_text', message: NOT_STORABLE };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (path.length >= MAX_JSON_DEPTH) {
      return { path, code: 'too_deep', message: `nests deeper than ${MAX_JSON_DEPTH} levels` };
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: [...path, i] });
      continue;
    }
    for (const [key, child] of Object.entries(v)) {
      if (!isStorableText(key)) return { path: [...path, key], code: 'invalid_text', message: `key ${NOT_STORABLE}` };
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return null;
}

/** Throw the 400 for a value that cannot be stored (a request body, tool arguments). */
export function assertStorable(value: unknown, what: string): void {
  const problem = findTextProblem(value);
  if (!problem) return;
  throw issuesError(`Invalid ${what}: ${problem.path.length ? problem.path.join('.') : 'value'} ${problem.message}`, [
    { path: problem.path, code: problem.code, message: problem.message },
  ]);
}

/** HTML-escape text so it can be placed in element content or a quoted attribute. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** True when the text has no unpaired surrogate. */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** Unpaired surrogates replaced by U+FFFD (for names taken from headers, never refused). */
export function toWellFormed(text: string): string {
  return text.replace(/\p{Cs}/gu, '\uFFFD');
}

/** NUL or another C0 control character (tab, line feed and carriage return allowed when `multiline`). */
export function hasControlChars(text: string, multiline = false): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
  return multiline ? /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) : /[\u0000-\u001f\u007f]/.test(text);
}
