import type { Tokenizer } from './model.js';

// ASCII symbols FTS5 would otherwise keep inside words; PostgreSQL's parser splits on them.
const SEPARATORS = "separators '$+<=>^`|~'";
export const FTS_TOKENIZE: Record<Tokenizer, string> = {
  'porter unicode61': `porter unicode61 remove_diacritics 2 ${SEPARATORS}`,
  unicode61: `unicode61 remove_diacritics 2 ${SEPARATORS}`,
  trigram: 'trigram',
};
/** Titles are matched by word prefix without stemming (or by substring for trigram indexes). */
export const TITLE_TOKENIZE: Record<Tokenizer, string> = {
  'porter unicode61': FTS_TOKENIZE.unicode61,
  unicode61: FTS_TOKENIZE.unicode61,
  trigram: 'trigram',
};
