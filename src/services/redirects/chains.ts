import type { Matcher, RuleRecord } from './matcher.js';
import { canonicalPath, parsePath } from './paths.js';
import { type ParsedSource, parseSource } from './rule.js';

/** Hops followed before a path counts as a loop (browsers give up around 20). */
export const MAX_HOPS = 10;

export interface Walk {
  /** The starting path, then every location visitors are sent to. */
  chain: string[];
  loop: boolean;
}

/** A path that stands for every path a source matches (captures get sample values). */
export function samplePath(parsed: ParsedSource): string {
  if (parsed.kind === 'exact') return parsed.source;
  const segs = parsed.source
    .split('/')
    .map((s) => (s === '*' ? 'sample-rest' : s.startsWith(':') ? `sample-${s.slice(1)}` : s));
  return canonicalPath(segs.join('/'));
}

/** The canonical site path of a location, or null when it leaves the site. */
export function localPath(location: string, siteOrigin: string | null): string | null {
  if (location.startsWith('/')) {
    const url = parsePath(location);
    return url ? canonicalPath(url.pathname) : null;
  }
  try {
    const url = new URL(location);
    return siteOrigin && url.origin === siteOrigin ? canonicalPath(url.pathname) : null;
  } catch {
    return null;
  }
}

/** Follow redirects from a path until one leaves the site, no rule matches, a path repeats or MAX_HOPS. */
export function walk(matcher: Matcher, start: string, siteOrigin: string | null): Walk {
  const chain = [start];
  const seen = new Set([start]);
  let path = start;
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const m = matcher.match(path);
    if (!m) return { chain, loop: false };
    chain.push(m.location);
    const next = localPath(m.location, siteOrigin);
    if (next === null) return { chain, loop: false };
    if (seen.has(next)) return { chain, loop: true };
    seen.add(next);
    path = next;
  }
  return { chain, loop: matcher.match(path) !== null };
}

export interface RedirectWarning {
  code: 'redirect_chain' | 'chained_into';
  message: string;
  chain: string[];
  ruleId?: string;
}

/** Visitors of this rule's source are sent on more than once. */
export function forwardChain(matcher: Matcher, rule: RuleRecord, siteOrigin: string | null): RedirectWarning | null {
  const parsed = parseSource(rule.source);
  if (Array.isArray(parsed)) return null;
  const w = walk(matcher, samplePath(parsed), siteOrigin);
  if (w.chain.length <= 2) return null;
  return {
    code: 'redirect_chain',
    message: `Visitors are redirected ${w.chain.length - 1} times${w.loop ? ' in a loop' : ''}; point the target at the final address`,
    chain: w.chain,
  };
}

/** Other rules whose target now lands on this rule's source (they make a chain through it). */
export function rulesChainingInto(
  matcher: Matcher,
  rules: RuleRecord[],
  ruleId: string,
  siteOrigin: string | null,
  max = 20,
): RedirectWarning[] {
  const out: RedirectWarning[] = [];
  for (const other of rules) {
    if (other.id === ruleId) continue;
    const parsed = parseSource(other.source);
    if (Array.isArray(parsed)) continue;
    const first = matcher.match(samplePath(parsed));
    if (!first || first.rule.id !== other.id) continue;
    const landing = localPath(first.location, siteOrigin);
    if (landing === null) continue;
    const second = matcher.match(landing);
    if (second?.rule.id !== ruleId) continue;
    out.push({
      code: 'chained_into',
      message: `Rule ${other.source} → ${other.target} now redirects twice through this rule`,
      chain: [samplePath(parsed), first.location, second.location],
      ruleId: other.id,
    });
    if (out.length >= max) break;
  }
  return out;
}
