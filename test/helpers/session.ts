import type { Cms } from '../../src/index.js';
import { SoftAuthenticator } from './authenticator.js';
import { type ApiResponse, call } from './cms.js';

/**
 * A browser-like client: keeps the `cms_session` cookie it is given and sends
 * `X-CMS-Request: 1` on writes (unless `csrf: false`), as the admin app does.
 */
export class Browser {
  cookie: string | null = null;
  readonly authenticator: SoftAuthenticator;

  constructor(
    readonly cms: Cms,
    authenticator?: SoftAuthenticator,
  ) {
    this.authenticator = authenticator ?? new SoftAuthenticator(new URL(cms.config.publicUrl).origin);
  }

  async call<T = any>(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookie) headers.cookie = `cms_session=${this.cookie}`;
    if (method !== 'GET' && options.csrf !== false) headers['x-cms-request'] ??= '1';
    const res = await call<T>(this.cms, method, path, { body: options.body, headers });
    const set = res.headers.get('set-cookie');
    if (set) {
      const m = /cms_session=([^;]*)/.exec(set);
      if (m) this.cookie = m[1] || null;
    }
    return res;
  }

  /** Sign in with the authenticator's passkey. */
  async signInWithPasskey(overrides: Parameters<SoftAuthenticator['assert']>[1] = {}) {
    const opts = await this.call('POST', '/auth/passkey/options', { body: {} });
    if (opts.status !== 200) return opts;
    const credential = this.authenticator.assert(opts.body.data.options, overrides);
    return this.call('POST', '/auth/passkey/verify', {
      body: { challengeId: opts.body.data.challengeId, credential },
    });
  }

  /** Add a passkey to the signed-in account. */
  async addPasskey(name?: string) {
    const opts = await this.call('POST', '/auth/passkeys/options', { body: {} });
    if (opts.status !== 200) return opts;
    const credential = this.authenticator.register(opts.body.data.options);
    return this.call('POST', '/auth/passkeys', { body: { challengeId: opts.body.data.challengeId, credential, name } });
  }
}

/** Complete first-user setup through the API; returns the signed-in browser. */
export async function setupSite(
  cms: Cms,
  input: { siteTitle?: string; tagline?: string; email?: string; name?: string } = {},
): Promise<{ browser: Browser; res: ApiResponse<any> }> {
  const browser = new Browser(cms);
  const opts = await browser.call('POST', '/setup/options', {
    body: {
      siteTitle: input.siteTitle ?? 'My Site',
      tagline: input.tagline,
      email: input.email ?? 'owner@example.test',
      name: input.name ?? 'Owner',
    },
  });
  if (opts.status !== 200) throw new Error(`setup options: ${JSON.stringify(opts.body)}`);
  const credential = browser.authenticator.register(opts.body.data.options);
  const res = await browser.call('POST', '/setup/complete', {
    body: { setupToken: opts.body.data.setupToken, credential, passkeyName: 'Laptop' },
  });
  return { browser, res };
}

/**
 * A signed-in session for an existing user, the way an Admin recovers one:
 * a recovery link (returned because email is not configured), then Continue.
 */
export async function sessionFor(cms: Cms & { adminToken: string }, userId: string): Promise<Browser> {
  const link = await call(cms, 'POST', `/admin/users/${userId}/recovery-link`, { token: cms.adminToken });
  if (link.status !== 200 || !link.body.data.link) throw new Error(`recovery link: ${JSON.stringify(link.body)}`);
  const token = new URL(link.body.data.link).searchParams.get('token')!;
  const browser = new Browser(cms);
  const res = await browser.call('POST', '/auth/magic-link/consume', { body: { token } });
  if (res.status !== 200) throw new Error(`consume: ${JSON.stringify(res.body)}`);
  return browser;
}
