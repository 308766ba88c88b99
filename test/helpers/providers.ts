import { afterEach, expect, vi } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import type { ConfigInput } from '../../src/core/config.js';
import type { DialectName } from '../../src/db/dialect.js';
import type { Cms } from '../../src/index.js';
import { type ApiResponse, call, type TestCms, testCms } from './cms.js';
import { type GithubStandin, type GithubUser, startGithubStandin } from './github-standin.js';
import { type OidcStandin, type StandinAccount, startOidcStandin } from './oidc-standin.js';

/** The site's public URL in tests (loopback host → localhost), so callbacks are known before the site starts. */
export const PUBLIC_URL = 'http://localhost:4321';
export const callbackOf = (id: string) => `${PUBLIC_URL}/_cms/api/auth/oauth/${id}/callback`;
export const TENANT = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';

afterEach(() => {
  vi.unstubAllEnvs();
});

/**
 * A browser on the site: keeps every cookie the site sets (session, the
 * provider binding cookie), sends `X-CMS-Request: 1` on writes, and opens
 * callback URLs the way the provider's redirect would.
 */
export class SiteBrowser {
  readonly cookies = new Map<string, string>();

  constructor(readonly cms: Cms) {}

  private header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1);
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async call<T = any>(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) headers.cookie = this.header();
    if (method !== 'GET' && options.csrf !== false) headers['x-cms-request'] ??= '1';
    const res = await call<T>(this.cms, method, path, { body: options.body, headers });
    this.keep(res.headers);
    return res;
  }

  /** Open a URL of the site (a callback), following nothing: the answer is the redirect. */
  async open(url: URL | string): Promise<Response> {
    const u = new URL(url);
    const res = await this.cms.app.request(`${u.pathname}${u.search}`, {
      headers: this.cookies.size ? { cookie: this.header() } : {},
    });
    this.keep(res.headers);
    return res;
  }

  get session(): string | undefined {
    return this.cookies.get('cms_session');
  }
}

export interface ProviderSite {
  cms: TestCms;
  google?: OidcStandin;
  entra?: OidcStandin;
  github?: GithubStandin;
}

/**
 * A site with the given providers listed, each backed by a stand-in on loopback
 * (credentials in the environment, as an operator sets them).
 */
export async function providerSite(
  dialect: DialectName,
  options: {
    providers: Array<Record<string, unknown>>;
    google?: StandinAccount[];
    entra?: StandinAccount[];
    /** Entra tenant value (default: the directory ID TENANT). */
    tenant?: string;
    github?: GithubUser[];
    withAdmin?: boolean;
    config?: ConfigInput;
    clock?: Clock;
  },
): Promise<ProviderSite> {
  const ids = options.providers.map((p) => p.id);
  const site: Partial<ProviderSite> = {};
  if (ids.includes('google')) {
    site.google = await startOidcStandin({
      path: '/google',
      redirectUri: callbackOf('google'),
      accounts: options.google,
    });
    vi.stubEnv('CMS_OAUTH_GOOGLE_CLIENT_ID', site.google.clientId);
    vi.stubEnv('CMS_OAUTH_GOOGLE_CLIENT_SECRET', site.google.clientSecret);
    vi.stubEnv('CMS_OAUTH_GOOGLE_ISSUER', site.google.issuer);
  }
  if (ids.includes('entra')) {
    const tenant = options.tenant ?? TENANT;
    site.entra = await startOidcStandin({
      path: `/${tenant}/v2.0`,
      redirectUri: callbackOf('entra'),
      accounts: options.entra,
    });
    vi.stubEnv('CMS_OAUTH_ENTRA_CLIENT_ID', site.entra.clientId);
    vi.stubEnv('CMS_OAUTH_ENTRA_CLIENT_SECRET', site.entra.clientSecret);
    vi.stubEnv('CMS_OAUTH_ENTRA_TENANT_ID', tenant);
    vi.stubEnv('CMS_OAUTH_ENTRA_AUTHORITY', site.entra.origin);
  }
  if (ids.includes('github')) {
    site.github = await startGithubStandin({ redirectUri: callbackOf('github'), users: options.github });
    vi.stubEnv('CMS_OAUTH_GITHUB_CLIENT_ID', site.github.clientId);
    vi.stubEnv('CMS_OAUTH_GITHUB_CLIENT_SECRET', site.github.clientSecret);
    vi.stubEnv('CMS_OAUTH_GITHUB_URL', site.github.url);
    vi.stubEnv('CMS_OAUTH_GITHUB_API_URL', site.github.apiUrl);
  }
  site.cms = await testCms(dialect, {
    withAdmin: options.withAdmin,
    clock: options.clock,
    config: { ...options.config, providers: options.providers },
  });
  expect(site.cms.config.publicUrl).toBe(PUBLIC_URL);
  return site as ProviderSite;
}

type Body = Record<string, unknown>;

/**
 * Sign in through a provider the way a browser does: start on the site, sign in at the
 * provider (`atProvider` follows the authorization URL and returns where the provider sends the
 * browser back), open that callback on the site. Returns the site's redirect.
 */
export async function providerSignIn(
  browser: SiteBrowser,
  provider: string,
  atProvider: (url: string) => Promise<URL>,
  body: Body = { intent: 'login' },
): Promise<{ location: string; error: string | null; status: number }> {
  const start = await browser.call('POST', `/auth/oauth/${provider}/start`, { body });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const back = await atProvider(start.body.data.url);
  const res = await browser.open(back);
  const location = res.headers.get('location') ?? '';
  return { location, error: new URL(location, PUBLIC_URL).searchParams.get('error'), status: res.status };
}

/** Who the browser is signed in as (null when not signed in). */
export async function whoami(browser: SiteBrowser): Promise<{ id: string; email: string; role: number } | null> {
  const me = await browser.call('GET', '/auth/me');
  return me.status === 200 ? me.body.data.user : null;
}
