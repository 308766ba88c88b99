import { describe, expect, it } from 'vitest';
import { passageWindow } from '../../../src/services/search/passage-window.js';

const O = '\u0001';
const C = '\u0002';
const words = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `w${from + i}`).join(' ');

describe('passage window', () => {
  it('keeps a short text whole and its marks as they are', () => {
    expect(passageWindow(`Short ${O}match${C} here.`)).toBe(`Short ${O}match${C} here.`);
    expect(passageWindow('')).toBe('');
  });

  it('shows the start of a text without matches, cut after the last whole word', () => {
    expect(passageWindow(`${words(0, 30)}.`, 5)).toBe('w0 w1 w2 w3 w4…');
  });

  it('prefers the window with the most different matched words, with context before the first', () => {
    const text = `${O}alpha${C} ${words(0, 20)} ${O}alpha${C} ${O}beta${C} ${words(20, 40)}`;
    const out = passageWindow(text, 6);
    expect(out).toBe(`…w16 w17 w18 w19 ${O}alpha${C} ${O}beta${C}…`);
  });

  it('keeps a mark that spans several words (a phrase) and clips marks at the window edge', () => {
    const text = `${words(0, 10)} ${O}red fox${C} ${words(10, 20)}`;
    expect(passageWindow(text, 4)).toBe(`…w8 w9 ${O}red fox${C}…`);
  });
});
