import { MARK_CLOSE, MARK_OPEN } from './engine.js';

/**
 * The passage of a text a result shows, chosen the same way on both engines:
 * the engine marks every match in the whole text (FTS5's `highlight()`, or
 * the PostgreSQL lexemes of `pg-lexemes.ts`) and this picks the window of
 * `words` words holding the most different matched words (then the most
 * matches, then the earliest), a few words of context before its first match.
 * Cheap next to `ts_headline`, which parsed and stemmed every returned text
 * again in PostgreSQL (about 5 ms of a 20-result page).
 */
export const PASSAGE_WORDS = 24;
/** Words kept before the window's first match, when the window allows it. */
const LEAD = 4;

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

interface Word {
  start: number;
  end: number;
  hit: string | null;
}

/** Split marked text into the plain text and its marked ranges (in plain-text offsets). */
function unmark(marked: string): { plain: string; ranges: Array<[number, number]> } {
  let plain = '';
  const ranges: Array<[number, number]> = [];
  let open = -1;
  let at = 0;
  for (;;) {
    const o = marked.indexOf(MARK_OPEN, at);
    const c = marked.indexOf(MARK_CLOSE, at);
    const next = o < 0 ? c : c < 0 ? o : Math.min(o, c);
    if (next < 0) break;
    plain += marked.slice(at, next);
    if (marked[next] === MARK_OPEN) {
      if (open < 0) open = plain.length;
    } else {
      if (open >= 0 && plain.length > open) ranges.push([open, plain.length]);
      open = -1;
    }
    at = next + 1;
  }
  plain += marked.slice(at);
  if (open >= 0 && plain.length > open) ranges.push([open, plain.length]);
  return { plain, ranges };
}

/** The window of `words` words out of marked text, with the marks inside it; '…' where text was cut. */
export function passageWindow(marked: string, words = PASSAGE_WORDS): string {
  if (!marked) return '';
  const { plain, ranges } = unmark(marked);
  if (!ranges.length) return leading(plain, words);
  const list: Word[] = [];
  let r = 0;
  for (const m of plain.matchAll(WORD)) {
    const start = m.index;
    const end = start + m[0].length;
    while (r < ranges.length && ranges[r][1] <= start) r++;
    const hit = r < ranges.length && ranges[r][0] < end ? m[0].toLowerCase() : null;
    list.push({ start, end, hit });
  }
  if (!list.length) return marked;
  let from = 0;
  if (list.length > words) from = bestStart(list, words);
  const to = Math.min(list.length, from + words);
  const cutStart = from === 0 ? 0 : list[from].start;
  const cutEnd = to === list.length ? plain.length : list[to - 1].end;
  let out = '';
  let at = cutStart;
  for (const [s, e] of ranges) {
    const a = Math.max(s, cutStart);
    const b = Math.min(e, cutEnd);
    if (a >= b) continue;
    out += plain.slice(at, a) + MARK_OPEN + plain.slice(a, b) + MARK_CLOSE;
    at = b;
  }
  out += plain.slice(at, cutEnd);
  return `${cutStart > 0 ? '…' : ''}${out}${cutEnd < plain.length ? '…' : ''}`;
}

/** The first `words` words of unmarked text. */
function leading(plain: string, words: number): string {
  let n = 0;
  let end = 0;
  for (const m of plain.matchAll(WORD)) {
    if (++n > words) return `${plain.slice(0, end)}…`;
    end = m.index + m[0].length;
  }
  return plain;
}

/** Start of the best window (sliding counts: different matched words, then matches, then earliest). */
function bestStart(list: Word[], size: number): number {
  const counts = new Map<string, number>();
  let distinct = 0;
  let hits = 0;
  const add = (w: Word, d: 1 | -1) => {
    if (!w.hit) return;
    hits += d;
    const n = (counts.get(w.hit) ?? 0) + d;
    counts.set(w.hit, n);
    if (d === 1 && n === 1) distinct++;
    if (d === -1 && n === 0) distinct--;
  };
  for (let i = 0; i < size; i++) add(list[i], 1);
  let best = 0;
  let bestDistinct = distinct;
  let bestHits = hits;
  for (let s = 1; s + size <= list.length; s++) {
    add(list[s - 1], -1);
    add(list[s + size - 1], 1);
    if (distinct > bestDistinct || (distinct === bestDistinct && hits > bestHits)) {
      best = s;
      bestDistinct = distinct;
      bestHits = hits;
    }
  }
  if (!bestHits) return 0;
  // Move back for some context before the first match, keeping the last match of the window inside.
  let first = best;
  while (!list[first].hit) first++;
  let last = best + size - 1;
  while (!list[last].hit) last--;
  return Math.max(0, Math.min(first - LEAD, list.length - size), last - size + 1);
}
