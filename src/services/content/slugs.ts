import { issuesError } from '../../core/errors.js';

/** Slugs: 1–200 characters, no whitespace, slashes or control characters; unique per locale. */
const SLUG_RULE = /^[^\s/\\?#%\u0000-\u001f\u007f]{1,200}$/u;

export function checkSlug(slug: string, path: (string | number)[] = ['slug']): string {
  const normalized = slug.normalize('NFC');
  if (!SLUG_RULE.test(normalized)) {
    throw issuesError('Invalid slug', [
      { path, code: 'invalid_slug', message: 'must be 1-200 characters without spaces, slashes, ?, #, % or control characters' },
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
