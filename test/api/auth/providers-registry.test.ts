import { expect, it } from 'vitest';
import { z } from 'zod';
import { resolveConfig } from '../../../src/core/config.js';
import { CmsError } from '../../../src/core/errors.js';
import { createCms, type LoginProviderDefinition, registerLoginProvider } from '../../../src/index.js';
import { call } from '../../helpers/cms.js';
import { describeEachDialect, freshDatabase } from '../../helpers/db.js';
import { callbackOf, providerSite, SiteBrowser, whoami } from '../../helpers/providers.js';
import { sessionFor } from '../../helpers/session.js';

/**
 * The provider list the login page, setup wizard and invite page render, and a provider another
 * package registers through the public interface: a form provider that asks for a handle and
 * answers a DID, the way the AT Protocol provider will.
 */
const handles: LoginProviderDefinition = {
  id: 'handles',
  config: { options: z.object({ allowed: z.array(z.string()).optional() }).strict(), credentials: 'none' },
  create(settings, env) {
    return {
      id: 'handles',
      label: 'Handle',
      kind: 'form',
      descriptor: {
        id: 'handles',
        label: 'Handle',
        adminEntry: 'handles-admin',
        routes: [{ pattern: '/_cms/api/auth/oauth/handles/callback', entrypoint: 'handles/callback' }],
        publicRoutes: ['/_cms/api/auth/oauth/handles/'],
        storage: ['handles_sessions'],
      },
      async begin(input) {
        const url = new URL('https://handles.invalid/authorize');
        url.searchParams.set('state', input.state);
        url.searchParams.set('redirect_uri', input.redirectUri);
        return { url: url.toString(), keep: { handle: input.input, allowed: settings.options.allowed ?? [] } };
      },
      async complete(input) {
        const handle = String(input.kept.handle);
        if (!(input.kept.allowed as string[]).includes(handle)) {
          throw new CmsError('PROVIDER_SIGNUP_NOT_ALLOWED', `${handle} is not on the allowlist`);
        }
        if (input.callbackUrl.searchParams.get('code') !== 'ok') throw new Error('wrong code');
        expect(env.callbackUrl).toBe(callbackOf('handles'));
        return {
          provider: 'handles',
          subject: `did:plc:${handle}`,
          address: null,
          addressVerified: false,
          name: null,
          did: `did:plc:${handle}`,
          handle,
        };
      },
    };
  },
};
registerLoginProvider(handles);

/** What the stand-in "handles" service would send back. */
function back(startUrl: string, code = 'ok'): URL {
  const u = new URL(startUrl);
  const out = new URL(u.searchParams.get('redirect_uri')!);
  out.searchParams.set('state', u.searchParams.get('state')!);
  out.searchParams.set('code', code);
  return out;
}

describeEachDialect('login providers: the list and the provider interface', (dialect) => {
  it('renders button providers first, then form providers, each group in list order', async () => {
    const s = await providerSite(dialect, {
      providers: [{ id: 'github' }, { id: 'handles', allowed: ['alice.example'] }, { id: 'entra' }, { id: 'google' }],
    });
    const anonymous = await call(s.cms, 'GET', '/auth/providers');
    expect(anonymous.status).toBe(200);
    expect(anonymous.body.data.items).toEqual([
      { id: 'github', label: 'GitHub', kind: 'button' },
      { id: 'entra', label: 'Microsoft', kind: 'button' },
      { id: 'google', label: 'Google', kind: 'button' },
      { id: 'handles', label: 'Handle', kind: 'form' },
    ]);
    // An Admin also sees each callback URL to register and whether the credentials are set.
    const admin = await call(s.cms, 'GET', '/auth/providers', { token: s.cms.adminToken });
    expect(admin.body.data.items[0]).toEqual({
      id: 'github',
      label: 'GitHub',
      kind: 'button',
      callbackUrl: 'http://localhost:4321/_cms/api/auth/oauth/github/callback',
      credentialsSet: true,
      descriptor: {
        id: 'github',
        label: 'GitHub',
        adminEntry: 'builtin:oauth-button',
        routes: [
          { pattern: '/_cms/api/auth/oauth/github/start', entrypoint: 'builtin:oauth/start' },
          { pattern: '/_cms/api/auth/oauth/github/callback', entrypoint: 'builtin:oauth/callback' },
        ],
        publicRoutes: ['/_cms/api/auth/oauth/github/'],
        storage: [],
      },
    });
    expect(admin.body.data.items[3].descriptor.storage).toEqual(['handles_sessions']);
    const editor = await s.cms.userToken(40);
    expect((await call(s.cms, 'GET', '/auth/providers', { token: editor.token })).body.data.items[0]).toEqual({
      id: 'github',
      label: 'GitHub',
      kind: 'button',
    });
    // The routes are outside the documented contract.
    const doc = (await call(s.cms, 'GET', '/openapi.json')).body as unknown as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => /providers|oauth\/\{provider\}|identities/.test(p))).toEqual([]);
  });

  it('signs in with a registered form provider: its input, its kept state, linking by DID', async () => {
    const s = await providerSite(dialect, { providers: [{ id: 'handles', allowed: ['alice.example'] }] });
    const browser = new SiteBrowser(s.cms);
    // A form provider needs its input.
    const missing = await browser.call('POST', '/auth/oauth/handles/start', { body: { intent: 'login' } });
    expect(missing.status).toBe(400);

    // No address: the DID links nobody and makes no account.
    const start = await browser.call('POST', '/auth/oauth/handles/start', {
      body: { intent: 'login', input: 'alice.example' },
    });
    expect(start.status).toBe(200);
    const first = await browser.open(back(start.body.data.url));
    expect(first.headers.get('location')).toBe('/_cms/admin/login?error=PROVIDER_EMAIL_UNVERIFIED');

    // Linked from the account page, the DID signs its user in.
    const account = new SiteBrowser(s.cms);
    account.cookies.set('cms_session', (await sessionFor(s.cms, s.cms.adminId)).cookie!);
    const link = await account.call('POST', '/auth/oauth/handles/start', {
      body: { intent: 'link', input: 'alice.example' },
    });
    expect((await account.open(back(link.body.data.url))).headers.get('location')).toBe(
      '/_cms/admin/account?linked=handles',
    );
    const again = await browser.call('POST', '/auth/oauth/handles/start', {
      body: { intent: 'login', input: 'alice.example' },
    });
    expect((await browser.open(back(again.body.data.url))).headers.get('location')).toBe('/_cms/admin/');
    expect(await whoami(browser)).toMatchObject({ id: s.cms.adminId });
    const identities = (await browser.call('GET', '/auth/identities')).body.data.items;
    expect(identities).toMatchObject([
      { provider: 'handles', subject: 'did:plc:alice.example', handle: 'alice.example' },
    ]);

    // The provider's own refusal keeps its code; an unexpected failure is PROVIDER_FAILED, never a 500.
    const other = await browser.call('POST', '/auth/oauth/handles/start', {
      body: { intent: 'login', input: 'mallory.example' },
    });
    expect((await browser.open(back(other.body.data.url))).headers.get('location')).toBe(
      '/_cms/admin/login?error=PROVIDER_SIGNUP_NOT_ALLOWED',
    );
    const broken = await browser.call('POST', '/auth/oauth/handles/start', {
      body: { intent: 'login', input: 'alice.example' },
    });
    const res = await browser.open(back(broken.body.data.url, 'bad'));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/_cms/admin/login?error=PROVIDER_FAILED');
  });

  it('stops start-up when a listed provider is not registered by any package', async () => {
    const config = resolveConfig({ dataDir: '/tmp/cms-test-data', logLevel: 'silent', providers: [{ id: 'atproto' }] });
    const db = await freshDatabase(dialect);
    try {
      await expect(createCms({ config, database: db.database, scheduler: false })).rejects.toThrow(
        'Invalid configuration: providers[0].id: the "atproto" login provider is listed, but no installed package registers it',
      );
    } finally {
      await db.drop();
    }
  });
});
