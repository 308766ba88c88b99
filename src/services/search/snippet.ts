import { escapeHtml } from '../../core/text.js';
import { MARK_CLOSE, MARK_OPEN } from './engine.js';
import { TIERS, type Tier } from './model.js';

/**
 * A snippet with raw match markers → safe HTML: everything escaped, markers
 * turned into `<mark>` (balanced even if a marker was cut off).
 */
export function markedToHtml(marked: string): string {
  let open = false;
  let out = '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the markers are control characters on purpose
  for (const part of marked.split(/([\u0001\u0002])/)) {
    if (part === MARK_OPEN) {
      if (!open) out += '<mark>';
      open = true;
    } else if (part === MARK_CLOSE) {
      if (open) out += '</mark>';
      open = false;
    } else {
      out += escapeHtml(part);
    }
  }
  return open ? `${out}</mark>` : out;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A passage found outside the database (substring search on PostgreSQL): the
 * window around the first match, every occurrence of a term marked.
 * Case-insensitive, like the search itself; '' when nothing matches.
 */
export function substringSnippet(text: string, terms: string[], width = 160): string {
  const usable = terms.filter((t) => t.length > 0);
  if (!usable.length || !text) return '';
  const pattern = new RegExp(usable.map(escapeRegExp).join('|'), 'giu');
  const first = pattern.exec(text);
  if (!first) return '';
  let start = Math.max(0, first.index - Math.floor(width / 3));
  let end = Math.min(text.length, start + width);
  start = Math.max(0, Math.min(start, end - width));
  // Do not cut a surrogate pair in half.
  if (start > 0 && /[\udc00-\udfff]/.test(text[start])) start--;
  if (end < text.length && /[\ud800-\udbff]/.test(text[end - 1])) end++;
  const marked = text.slice(start, end).replace(pattern, (m) => `${MARK_OPEN}${m}${MARK_CLOSE}`);
  return `${start > 0 ? '…' : ''}${marked}${end < text.length ? '…' : ''}`;
}

const plain = (marked: string) =>
  marked.split(MARK_OPEN).join('').split(MARK_CLOSE).join('').replace(/^…|…$/g, '').trim();

/**
 * The passage a result shows: from the heaviest tier with a match, passing
 * over a tier that holds nothing but the title (shown beside the snippet
 * already) when another tier matches too, and without the title it opens
 * with when the rest matches too (fields of one weight share a tier, the
 * title first).
 */
export function pickSnippet(snippets: Record<Tier, string>, weights: Record<Tier, number>, title: string): string {
  const order = [...TIERS].sort((x, y) => weights[y] - weights[x]);
  const matched = order.filter((t) => snippets[t].includes(MARK_OPEN));
  const informative = matched.filter((t) => plain(snippets[t]) !== title.trim());
  const tier = informative[0] ?? matched[0] ?? order.find((t) => snippets[t] && plain(snippets[t]) !== title.trim());
  return tier ? withoutTitleLead(snippets[tier], title.trim()) : '';
}

/** `marked` after a leading `title` (markers ignored) and the space after it, when that rest has a match. */
function withoutTitleLead(marked: string, title: string): string {
  if (!title) return marked;
  let i = 0;
  for (let j = 0; j < title.length; i++) {
    if (i >= marked.length) return marked;
    if (marked[i] === MARK_OPEN || marked[i] === MARK_CLOSE) continue;
    if (marked[i] !== title[j]) return marked;
    j++;
  }
  if (marked[i] === MARK_CLOSE) i++;
  if (!/^\s/.test(marked.slice(i, i + 1))) return marked;
  const rest = marked.slice(i).trimStart();
  return rest.includes(MARK_OPEN) ? rest : marked;
}
