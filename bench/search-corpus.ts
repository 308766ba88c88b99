/**
 * Deterministic English-like text for the search benchmark: a vocabulary of
 * pronounceable pseudo-words drawn with a Zipf distribution (a few words in
 * nearly every entry, most words rare), like real prose.
 */
export function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ONSETS = 'b c d f g h j k l m n p r s t v w z br st tr pl gr sh ch th'.split(' ');
const VOWELS = 'a e i o u ai ea ou io'.split(' ');
const CODAS = ['', '', '', ...'n r s l m nd st rk ng'.split(' ')];

export interface Corpus {
  words: string[];
  /** Draw one word (Zipf, s = 1). */
  word(): string;
  sentence(minWords: number, maxWords: number): string;
  rand: () => number;
}

export function corpus(vocabularySize: number, seed = 7): Corpus {
  const rand = rng(seed);
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
  const seen = new Set<string>();
  const words: string[] = [];
  while (words.length < vocabularySize) {
    const syllables = 1 + Math.floor(rand() * 3);
    let w = '';
    for (let i = 0; i < syllables; i++) w += pick(ONSETS) + pick(VOWELS);
    w += pick(CODAS);
    if (w.length < 3 || seen.has(w)) continue;
    seen.add(w);
    words.push(w);
  }
  // Cumulative Zipf weights for binary-search sampling.
  const cumulative: number[] = [];
  let total = 0;
  for (let r = 1; r <= vocabularySize; r++) {
    total += 1 / r;
    cumulative.push(total);
  }
  const word = () => {
    const x = rand() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo];
  };
  const sentence = (minWords: number, maxWords: number) => {
    const n = minWords + Math.floor(rand() * (maxWords - minWords + 1));
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(word());
    const s = out.join(' ');
    return `${s[0].toUpperCase()}${s.slice(1)}.`;
  };
  return { words, word, sentence, rand };
}

/** About `bytes` of prose: sentences until the size is reached. */
export function paragraph(c: Corpus, bytes: number): string {
  let text = '';
  while (text.length < bytes) text += (text ? ' ' : '') + c.sentence(6, 16);
  return text;
}
