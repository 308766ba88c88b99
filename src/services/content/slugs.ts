import { issuesError } from '../../core/errors.js';

/** Slugs: 1–200 characters, no whitespace, slashes, `?`, `#`, `%` or control characters; unique per locale. */
const FORBIDDEN = /[\s/\\?#%]/u;

function hasControl(text: string): boolean {
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x20 || cp === 0x7f) return true;
  }
  return false;
}

export function checkSlug(slug: string, path: (string | number)[] = ['slug']): string {
  const normalized = slug.normalize('NFC');
  if (!normalized || [...normalized].length > 200 || FORBIDDEN.test(normalized) || hasControl(normalized)) {
    throw issuesError('Invalid slug', [
      {
        path,
        code: 'invalid_slug',
        message: 'must be 1-200 characters without spaces, slashes, ?, #, % or control characters',
      },
    ]);
  }
  return normalized;
}

/** A readable slug from any text: lower case, ASCII-folded where possible, words joined by hyphens. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120);
}
