import { ancestors } from './paths.js';
import { capture, fillTarget, type ParsedSource, parseSource, type RedirectStatus } from './rule.js';

export interface RuleRecord {
  id: string;
  source: string;
  target: string;
  statusCode: RedirectStatus;
  createdAt: string;
}

interface Compiled extends RuleRecord {
  parsed: ParsedSource;
}

export interface Match {
  rule: RuleRecord;
  location: string;
}

/**
 * The enabled rules compiled for lookup. Exact sources sit in a hash map;
 * prefix and pattern rules are filed under the literal segments before their
 * first placeholder, so a request only tests the rules filed under one of its
 * own ancestors (an index, not a scan of every rule). When several match, the
 * most specific wins (exact, then more literal segments, then the older rule).
 */
export class Matcher {
  private readonly exact = new Map<string, Compiled>();
  private readonly buckets = new Map<string, Compiled[]>();
  readonly size: number;

  constructor(rules: RuleRecord[]) {
    for (const r of rules) {
      const parsed = parseSource(r.source);
      if (Array.isArray(parsed)) continue;
      const c: Compiled = { ...r, parsed };
      if (parsed.kind === 'exact') this.exact.set(parsed.source, c);
      else this.buckets.set(parsed.head, [...(this.buckets.get(parsed.head) ?? []), c]);
    }
    for (const list of this.buckets.values()) {
      list.sort((a, b) => b.parsed.specificity - a.parsed.specificity || a.createdAt.localeCompare(b.createdAt));
    }
    this.size = rules.length;
  }

  /** The rule for a canonical path and where it sends the visitor (`query` is `?…` or ''). */
  match(path: string, query = ''): Match | null {
    const exact = this.exact.get(path);
    if (exact) return { rule: exact, location: fillTarget(exact.target, {}, query) };
    let best: { rule: Compiled; captures: Record<string, string> } | null = null;
    for (const key of ancestors(path)) {
      const bucket = this.buckets.get(key);
      if (!bucket) continue;
      for (const rule of bucket) {
        if (best && rule.parsed.specificity <= best.rule.parsed.specificity) break;
        const captures = capture(rule.parsed, path);
        if (captures) {
          best = { rule, captures };
          break;
        }
      }
    }
    return best ? { rule: best.rule, location: fillTarget(best.rule.target, best.captures, query) } : null;
  }
}
