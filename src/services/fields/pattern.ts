import { RE2JS } from 're2js';

/**
 * Field `pattern`s are written by site builders and run against every value
 * an editor or an API client sends, so they must never be able to stall the
 * process: a backtracking engine (V8's RegExp) takes exponential time on
 * patterns such as `(a|a)+b`. Patterns run on RE2JS, a linear-time engine
 * (time proportional to pattern × value, whatever the pattern).
 *
 * A pattern is accepted when it is valid JavaScript `u`-mode syntax (what
 * the editor's HTML `pattern` attribute understands) AND RE2 can run it; RE2
 * has no lookaround and no back-references, which are exactly the constructs
 * that cannot be matched in linear time. JavaScript's `\uXXXX` and `\u{…}`
 * escapes are translated to RE2's `\x{…}`.
 */
export interface CompiledPattern {
  /** Whole-value match, like the HTML `pattern` attribute. */
  matches(value: string): boolean;
}

export class PatternError extends Error {
  override name = 'PatternError';
}

const cache = new Map<string, CompiledPattern | PatternError>();
const CACHE_SIZE = 500;

/** Compile a field pattern; throws PatternError with a message fit for a VALIDATION_ERROR. */
export function compilePattern(pattern: string): CompiledPattern {
  let hit = cache.get(pattern);
  if (!hit) {
    hit = build(pattern);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(pattern, hit);
  }
  if (hit instanceof PatternError) throw hit;
  return hit;
}

function build(pattern: string): CompiledPattern | PatternError {
  try {
    new RegExp(pattern, 'u');
  } catch (err) {
    return new PatternError(`pattern is not a valid regular expression: ${(err as Error).message}`);
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(toRe2Syntax(pattern));
  } catch (err) {
    const detail = (err as Error).message.replace(/^error parsing regexp: /, '');
    return new PatternError(
      `pattern uses a construct that cannot be matched in linear time (lookahead, lookbehind, back-references and ` +
        `control escapes are not supported; repeat counts are at most 1000): ${detail}`,
    );
  }
  return { matches: (value) => re.testExact(value) };
}

const HEX4 = /^[0-9a-fA-F]{4}$/;

/** Rewrite JavaScript-only escapes (`\uXXXX`, surrogate pairs, `\u{…}`) as RE2's `\x{…}`; everything else is kept. */
export function toRe2Syntax(pattern: string): string {
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i];
    if (ch !== '\\' || i + 1 >= pattern.length) {
      out += ch;
      i++;
      continue;
    }
    const next = pattern[i + 1];
    if (next !== 'u') {
      // Keep any other escape as a pair, so `\\u` stays an escaped backslash followed by "u".
      out += ch + next;
      i += 2;
      continue;
    }
    const braced = /^\\u\{([0-9a-fA-F]{1,6})\}/.exec(pattern.slice(i));
    if (braced) {
      out += `\\x{${braced[1]}}`;
      i += braced[0].length;
      continue;
    }
    const hex = pattern.slice(i + 2, i + 6);
    if (!HEX4.test(hex)) {
      out += ch + next;
      i += 2;
      continue;
    }
    let code = Number.parseInt(hex, 16);
    i += 6;
    // A high surrogate escape followed by a low one is one code point in `u` mode.
    const low = pattern.slice(i, i + 6);
    if (code >= 0xd800 && code <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}$/.test(low)) {
      code = 0x10000 + ((code - 0xd800) << 10) + (Number.parseInt(low.slice(2), 16) - 0xdc00);
      i += 6;
    }
    out += `\\x{${code.toString(16)}}`;
  }
  return out;
}
