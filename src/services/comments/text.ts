import type { ValidationIssue } from '../../core/errors.js';
import { escapeHtml } from '../../core/text.js';
import { LIMITS } from './model.js';

/**
 * Comment text is plain text. It is normalised (NFC, line endings, control
 * characters, runs of blank lines) and stored HTML-escaped, so markup sent in
 * a comment is never stored or returned as markup: `<b>` arrives as `&lt;b&gt;`
 * and shows as the characters a visitor typed. Line breaks stay `\n`.
 */
export function normaliseText(raw: string, multiline: boolean): string {
  let s = raw.normalize('NFC').replace(/\r\n?/g, '\n');
  // C0/C1 controls except tab and newline (NUL and lone surrogates were refused by the request schema).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  s = s.replace(/[\u0001-\u0008\u000B-\u001F\u007F-\u009F\u200B\u2028\u2029\uFEFF]/g, '');
  if (!multiline) return s.replace(/\s+/g, ' ').trim();
  return s
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/g, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export const storedText = (normalised: string): string => escapeHtml(normalised);

/** Undo storedText (for heuristics that look at what was typed). */
export function unescapeStored(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => UNESCAPES[e]);
}

const UNESCAPES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/**
 * An author's link: absolute http(s) only, normalised by the URL parser, with
 * the characters that could leave an HTML attribute percent-encoded.
 */
export function normaliseAuthorUrl(raw: string): string | null {
  const trimmed = raw.trim();
  if (!trimmed) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  return url.href.replace(/'/g, '%27').replace(/"/g, '%22').replace(/</g, '%3C').replace(/>/g, '%3E');
}

export interface CommentText {
  /** Normalised, not yet escaped (storedText escapes it). */
  body: string;
  authorName: string;
  authorUrl: string | null;
}

/**
 * The text rules of a comment, in one place for every writer (a public
 * submission, a site import): normalised text, non-empty and within LIMITS,
 * an author link that is an absolute http(s) address.
 */
export function checkCommentText(raw: { body: string; authorName: string; authorUrl?: string | null }): {
  value: CommentText;
  issues: ValidationIssue[];
} {
  const issues: ValidationIssue[] = [];
  const issue = (field: string, code: string, message: string) => issues.push({ path: [field], code, message });
  const body = normaliseText(raw.body, true);
  if (!body) issue('body', 'too_small', 'must not be empty');
  else if ([...body].length > LIMITS.body) issue('body', 'too_big', `must be at most ${LIMITS.body} characters`);
  const authorName = normaliseText(raw.authorName, false);
  if (!authorName) issue('authorName', 'too_small', 'is required');
  else if ([...authorName].length > LIMITS.authorName) {
    issue('authorName', 'too_big', `must be at most ${LIMITS.authorName} characters`);
  }
  let authorUrl: string | null = null;
  if (raw.authorUrl !== undefined && raw.authorUrl !== null && raw.authorUrl.trim() !== '') {
    authorUrl = raw.authorUrl.length > LIMITS.authorUrl ? null : normaliseAuthorUrl(raw.authorUrl);
    if (!authorUrl) {
      issue('authorUrl', 'invalid_url', 'must be an absolute http or https address');
    }
  }
  return { value: { body, authorName, authorUrl }, issues };
}
