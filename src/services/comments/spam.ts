/**
 * Simple spam heuristics. A submission that trips one is stored with status
 * `spam` (and the names of the heuristics, for moderators) instead of
 * `pending`; the submitter gets the same answer either way, so a bot learns
 * nothing. Moderators can approve a false positive.
 */
export interface SpamFacts {
  body: string;
  authorName: string;
  authorUrl: string | null;
  honeypot: string | undefined;
  /** An identical comment from the same client (or email) on the same entry in the last day. */
  duplicate: boolean;
}

/** More links than this in the text looks like link spam. */
export const MAX_LINKS = 3;

const LINK = /\b(?:https?:\/\/|www\.)[^\s]+/gi;
const LINK_MARKUP = /<a\s[^>]*href|\[url[=\]]|\[link[=\]]/i;

export function spamReasons(f: SpamFacts): string[] {
  const reasons: string[] = [];
  if (f.honeypot !== undefined && f.honeypot.trim() !== '') reasons.push('honeypot');
  if ((f.body.match(LINK) ?? []).length > MAX_LINKS) reasons.push('too_many_links');
  if (LINK_MARKUP.test(f.body)) reasons.push('link_markup');
  if (/https?:\/\/|www\.|\.(?:com|net|ru|xyz|top)\b/i.test(f.authorName)) reasons.push('link_in_name');
  if (f.duplicate) reasons.push('duplicate');
  return reasons;
}
