/** Counting words of the transfer commands' messages and summaries. */

/** `1 record`, `3 records`. */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** All records of counts by kind. */
export const recordTotal = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
