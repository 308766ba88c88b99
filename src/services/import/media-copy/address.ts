/**
 * Which network addresses an import may fetch from. Only globally routable unicast passes;
 * `allowPrivate` (CMS_IMPORT_ALLOW_PRIVATE_HOSTS, tests and local development) adds loopback
 * and private ranges, never link-local (cloud metadata lives at 169.254.169.254).
 */
import ipaddr from 'ipaddr.js';

const PRIVATE_OK = new Set(['loopback', 'private', 'uniqueLocal']);

/** null when the address may be fetched from, otherwise the range name that forbids it. */
export function forbiddenRange(address: string, allowPrivate: boolean): string | null {
  if (!ipaddr.isValid(address)) return 'invalid';
  // process() turns IPv4-mapped IPv6 (::ffff:127.0.0.1) into the IPv4 address it stands for.
  const range = ipaddr.process(address).range();
  if (range === 'unicast') return null;
  if (allowPrivate && PRIVATE_OK.has(range)) return null;
  return range;
}
