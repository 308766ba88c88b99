import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { CmsError } from '../../../core/errors.js';
import { forbiddenRange } from '../../import/media-copy/address.js';
import type { OutboundFetch } from './outbound.js';

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Where the AT Protocol client may go besides the addresses the site configured. */
export interface AtprotoReach {
  /** The configured addresses (PLC directory, handle resolver): reached as configured. */
  configured: string[];
  /** Plain http to loopback hosts: on when a configured address is loopback http (development, tests). */
  allowHttp: boolean;
  /** Discovered hosts may resolve to loopback and private addresses (option `allowPrivateNetwork`); never link-local. */
  privateNetwork: boolean;
}

/**
 * The fetch the AT Protocol client library is given. Unlike an OAuth provider's, its addresses are
 * discovered from what a person types: the handle's host (`/.well-known/atproto-did`), a did:web
 * host, the PDS the DID document names and the authorization server the PDS names. Each call goes
 * through the provider's guarded fetch (no redirects, the deadline); a discovered origin must be
 * https (plain http only to loopback, and only in loopback development) and, unless the site runs
 * on one closed network, its host must resolve to public addresses only, so a handle or a DID
 * document cannot aim the service at its own network.
 */
export function atprotoFetch(outbound: OutboundFetch, reach: AtprotoReach): typeof fetch {
  const configured = new Set(reach.configured.map((u) => new URL(u).origin));
  for (const origin of configured) outbound.allow(origin);
  return (async (input: Request | string | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (!configured.has(url.origin)) {
      await checkDiscovered(url, reach);
      outbound.allow(url);
    }
    const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
    return outbound(url, { method: request.method, headers: request.headers, body, signal: request.signal });
  }) as typeof fetch;
}

/** Refuse a discovered address the rules above keep out (PROVIDER_FAILED). */
export async function checkDiscovered(url: URL, reach: Omit<AtprotoReach, 'configured'>): Promise<void> {
  const refuse = (why: string): never => {
    throw new CmsError('PROVIDER_FAILED', `The AT Protocol sign-in may not reach ${url.origin}: ${why}`);
  };
  if (url.protocol === 'http:') {
    if (!reach.allowHttp || !LOOPBACK.has(url.hostname)) refuse('it needs https');
    return;
  }
  if (url.protocol !== 'https:') refuse('it needs https');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(host)
    ? [host]
    : await lookup(host, { all: true, verbatim: true }).then(
        (found) => found.map((a) => a.address),
        () => [],
      );
  if (addresses.length === 0) refuse('its host name does not resolve');
  for (const address of addresses) {
    // Link-local (cloud metadata) stays out even on a private network.
    const range = forbiddenRange(address, reach.privateNetwork);
    if (range) refuse(`its host is on a ${range} address`);
  }
}
