import { issuesError } from '../../core/errors.js';

/**
 * The search query language, the same on every database (web-search style):
 *
 *   word         entries containing the word (stemmed with `porter unicode61`)
 *   "a phrase"   the words next to each other, in order
 *   word*        words starting with `word`
 *   a OR b       either (OR binds tighter than the implicit AND)
 *   -word        entries without the word (needs at least one positive term)
 *
 * Everything else is text: FTS5 operators (NEAR, AND, NOT, column filters,
 * `^`, parentheses) and tsquery operators (`&`, `|`, `!`, `<->`, `:*`) never
 * reach a query parser, so no input can break the syntax. Parsing never fails
 * on content; only size limits answer 400.
 */
export interface Unit {
  /** Word pieces (letters, digits and marks) for word tokenizers; a phrase when more than one. */
  words: string[];
  /** The unit as typed (whitespace collapsed), for substring (trigram) matching. */
  raw: string;
  /** `word*`: the last word is a prefix. */
  prefix: boolean;
}

export interface ParsedQuery {
  /** AND of OR-groups. */
  groups: Unit[][];
  /** Units no result may contain. */
  exclude: Unit[];
}

export const MAX_QUERY_UNITS = 32;
export const MAX_QUERY_WORDS = 64;

const WORD_SPLIT = /[^\p{L}\p{N}\p{M}]+/u;

export function wordsOf(text: string): string[] {
  return text.split(WORD_SPLIT).filter(Boolean);
}

interface Token {
  kind: 'unit' | 'or';
  unit?: Unit;
  negated?: boolean;
}

function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < q.length) {
    const ch = q[i];
    if (/\s/u.test(ch)) {
      i++;
      continue;
    }
    let negated = false;
    if ((ch === '-' || ch === '+') && i + 1 < q.length && !/\s/u.test(q[i + 1])) {
      negated = ch === '-';
      i++;
    }
    if (q[i] === '"') {
      const end = q.indexOf('"', i + 1);
      const body = end === -1 ? q.slice(i + 1) : q.slice(i + 1, end);
      i = end === -1 ? q.length : end + 1;
      const raw = body.trim().replace(/\s+/gu, ' ');
      tokens.push({ kind: 'unit', negated, unit: { words: wordsOf(raw), raw, prefix: false } });
      continue;
    }
    let j = i;
    while (j < q.length && !/\s/u.test(q[j]) && q[j] !== '"') j++;
    const word = q.slice(i, j);
    i = j;
    if (word === 'OR' && !negated) {
      tokens.push({ kind: 'or' });
      continue;
    }
    const prefix = /\*+$/.test(word);
    const raw = word.replace(/\*+$/, '');
    tokens.push({ kind: 'unit', negated, unit: { words: wordsOf(raw), raw, prefix } });
  }
  return tokens;
}

/** Parse user input; see the module comment for the language. */
export function parseQuery(q: string): ParsedQuery {
  const tokens = tokenize(q);
  const groups: Unit[][] = [];
  const exclude: Unit[] = [];
  let joinNext = false;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (t.kind === 'or') {
      joinNext = groups.length > 0;
      continue;
    }
    const unit = t.unit!;
    const inOrChain = joinNext || tokens[k + 1]?.kind === 'or';
    if (t.negated && !inOrChain) {
      exclude.push(unit);
    } else if (joinNext) {
      groups[groups.length - 1].push(unit);
    } else {
      groups.push([unit]);
    }
    joinNext = false;
  }
  const units = groups.flat().length + exclude.length;
  const words = [...groups.flat(), ...exclude].reduce((n, u) => n + u.words.length, 0);
  if (units > MAX_QUERY_UNITS || words > MAX_QUERY_WORDS) {
    throw issuesError('Search query too complex', [
      {
        path: ['q'],
        code: 'too_complex',
        message: `at most ${MAX_QUERY_UNITS} terms and ${MAX_QUERY_WORDS} words`,
      },
    ]);
  }
  return { groups, exclude };
}

/** Code points, not UTF-16 units: the trigram limit counts Unicode characters. */
export const charCount = (s: string): number => [...s].length;

/**
 * The query as a tokenizer can run it: units that cannot match (no word piece
 * for a word tokenizer, under three characters for trigrams) are left out, as
 * punctuation is; null when nothing positive is left (such a query matches
 * nothing, a lone exclusion included).
 */
function keep(p: ParsedQuery, usable: (u: Unit) => boolean): ParsedQuery | null {
  const groups = p.groups.map((g) => g.filter(usable)).filter((g) => g.length > 0);
  if (!groups.length) return null;
  return { groups, exclude: p.exclude.filter(usable) };
}

export const forWords = (p: ParsedQuery) => keep(p, (u) => u.words.length > 0);
export const forTrigrams = (p: ParsedQuery) => keep(p, (u) => charCount(u.raw) >= 3);

/** Positive texts, for highlighting matches outside the database. */
export function positiveTexts(p: ParsedQuery): string[] {
  return p.groups.flat().map((u) => u.raw);
}
