import { isIP } from 'node:net';

/**
 * Which client IP a request comes from, for rate limits. Only the socket and
 * the headers named in `trustedProxyHeaders` count; any other header (an
 * X-Forwarded-For the client wrote itself) is ignored.
 *
 * - `x-forwarded-for` and `forwarded` list hops left to right; the right-most
 *   entry is the one our trusted proxy appended (the address that connected to
 *   it), while everything to its left was written by the client and can be
 *   forged. We take the right-most valid address. Behind a chain of proxies,
 *   configure a single-value header the edge sets (`cf-connecting-ip`,
 *   `x-real-ip`, `true-client-ip`, `fly-client-ip`).
 * - When a trusted header is absent, the socket address is used (a request
 *   that did not come through the proxy); when there is neither, null: the
 *   per-IP limits are then skipped.
 * - IPv4-mapped IPv6 addresses count as IPv4; other IPv6 addresses are grouped
 *   by their /64 prefix, since one client usually holds a whole /64.
 */
export interface RequestFacts {
  socketAddress: string | null;
  header(name: string): string | undefined;
}

export function clientIp(facts: RequestFacts, trustedHeaders: readonly string[]): string | null {
  for (const name of trustedHeaders) {
    const value = facts.header(name);
    if (!value) continue;
    const ip = name === 'forwarded' ? fromForwarded(value) : lastValid(value.split(','));
    if (ip) return rateKeyOf(ip);
  }
  const socket = facts.socketAddress ? clean(facts.socketAddress) : null;
  return socket ? rateKeyOf(socket) : null;
}

function lastValid(entries: string[]): string | null {
  for (let i = entries.length - 1; i >= 0; i--) {
    const ip = clean(entries[i]);
    if (ip) return ip;
  }
  return null;
}

/** RFC 7239: `Forwarded: for=192.0.2.60;proto=http, for="[2001:db8::1]:4711"`. */
function fromForwarded(value: string): string | null {
  const fors: string[] = [];
  for (const element of value.split(',')) {
    for (const pair of element.split(';')) {
      const m = /^\s*for\s*=\s*(.+?)\s*$/i.exec(pair);
      if (m) fors.push(m[1].replace(/^"|"$/g, ''));
    }
  }
  return lastValid(fors);
}

/** A bare IP from `1.2.3.4`, `1.2.3.4:80`, `[::1]:80`, `::1`, `fe80::1%eth0`; null when not an IP. */
function clean(raw: string): string | null {
  let v = raw.trim();
  const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(v);
  if (bracket) v = bracket[1];
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(v)) v = v.slice(0, v.lastIndexOf(':'));
  v = v.replace(/%.*$/, '');
  return isIP(v) ? v.toLowerCase() : null;
}

function rateKeyOf(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1];
  if (isIP(ip) === 4) return ip;
  return `${expandIpv6(ip).slice(0, 4).join(':')}::/64`;
}

function expandIpv6(ip: string): string[] {
  let tail: string[] = [];
  let text = ip;
  const v4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1].split('.').map(Number);
    tail = [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    text = text.slice(0, -v4[1].length).replace(/:$/, '') || ':';
  }
  const [head, rest] = text.split('::');
  const left = head ? head.split(':').filter(Boolean) : [];
  const right = rest !== undefined ? rest.split(':').filter(Boolean) : [];
  const fill = 8 - tail.length - left.length - right.length;
  const groups = rest !== undefined ? [...left, ...Array(Math.max(fill, 0)).fill('0'), ...right] : left;
  return [...groups, ...tail].map((g) => Number.parseInt(g, 16).toString(16));
}
