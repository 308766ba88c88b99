import { CmsError } from '../../../core/errors.js';

/** How long one outbound call to an identity service may take (discovery, token exchange, profile reads). */
export const PROVIDER_TIMEOUT_MS = 10_000;

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * fetch for a provider's outbound calls. Only origins the provider allowed are
 * reached (its configured addresses, and the endpoints its discovery document,
 * fetched from a configured address, names); plain http only on loopback;
 * redirects are never followed (an identity service answers, it does not send
 * the service elsewhere); every call ends at the deadline.
 */
export interface OutboundFetch {
  (url: string | URL, init?: RequestInit): Promise<Response>;
  /** Permit calls to this URL's origin. */
  allow(url: string | URL): void;
  /** Whether calls to this URL's origin are permitted. */
  allows(url: string | URL): boolean;
}

export function outboundFetch(provider: string, timeoutMs = PROVIDER_TIMEOUT_MS): OutboundFetch {
  const origins = new Set<string>();
  const fetcher = (async (url: string | URL, init: RequestInit = {}) => {
    const target = new URL(url);
    if (!origins.has(target.origin)) {
      throw new CmsError(
        'PROVIDER_FAILED',
        `The ${provider} sign-in tried to reach ${target.origin}, which it may not`,
      );
    }
    if (target.protocol !== 'https:' && !(target.protocol === 'http:' && LOOPBACK.has(target.hostname))) {
      throw new CmsError('PROVIDER_FAILED', `The ${provider} sign-in needs https (${target.origin})`);
    }
    const deadline = AbortSignal.timeout(timeoutMs);
    return fetch(target, {
      ...init,
      redirect: 'manual',
      signal: init.signal ? AbortSignal.any([init.signal, deadline]) : deadline,
    });
  }) as OutboundFetch;
  fetcher.allow = (url) => {
    origins.add(new URL(url).origin);
  };
  fetcher.allows = (url) => origins.has(new URL(url).origin);
  return fetcher;
}
