import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterEach } from 'vitest';

/**
 * A real OpenID Connect provider (oidc-provider 8.8.1) on a loopback port,
 * standing in for Google and Microsoft Entra ID. Its issuer can carry a path
 * (`/<tenant>/v2.0` as Entra's does). Accounts and their claims are set by the
 * test; sign-in and consent are completed programmatically by `authorize`,
 * which plays the browser at the provider and returns the callback URL the
 * provider redirects to (code, state, iss).
 */
export interface StandinAccount {
  /** The `sub` claim. */
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
  /** Entra claims. */
  tid?: string;
  upn?: string;
  xms_edov?: boolean;
  idp?: string;
  acct?: number;
}

export interface OidcStandin {
  issuer: string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, StandinAccount>;
  /** Accounts the directory refuses at sign-in (disabled or deleted there). */
  refused: Set<string>;
  /**
   * Follow an authorization URL as a browser would, sign in as `sub` (or decline with
   * `{ deny: true }`), and return the URL the provider sends the browser back to.
   */
  authorize(url: string, sub: string, options?: { deny?: boolean }): Promise<URL>;
  /** Requests the provider served, by path (discovery, token, jwks …). */
  requests: string[];
  /** Serve a JWK set of another key (same key ID) than the one ID tokens are signed with. */
  publishWrongKey: boolean;
  close(): Promise<void>;
}

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (open.length) await open.pop()!();
});

/** The stand-in's records in memory (oidc-provider's adapter interface), one store per stand-in. */
function memoryAdapter() {
  const rows = new Map<string, { payload: Record<string, unknown>; expiresAt: number }>();
  return class MemoryAdapter {
    constructor(readonly model: string) {}
    key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: Record<string, unknown>, expiresIn: number) {
      rows.set(this.key(id), { payload, expiresAt: Date.now() + expiresIn * 1000 });
    }
    async find(id: string) {
      const row = rows.get(this.key(id));
      return row && row.expiresAt > Date.now() ? row.payload : undefined;
    }
    async findByUid(uid: string) {
      for (const [k, row] of rows) if (k.startsWith(`${this.model}:`) && row.payload.uid === uid) return row.payload;
      return undefined;
    }
    async findByUserCode() {
      return undefined;
    }
    async consume(id: string) {
      const row = rows.get(this.key(id));
      if (row) row.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      rows.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [k, row] of rows) if (row.payload.grantId === grantId) rows.delete(k);
    }
  };
}

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );

export async function startOidcStandin(options: {
  /** Path of the issuer, e.g. `/0f0e…/v2.0`; empty for an issuer at the root. */
  path?: string;
  redirectUri: string;
  accounts?: StandinAccount[];
}): Promise<OidcStandin> {
  const path = (options.path ?? '').replace(/\/+$/, '');
  const server = createServer();
  const port = await listen(server);
  const origin = `http://127.0.0.1:${port}`;
  const issuer = `${origin}${path}`;
  const accounts = new Map((options.accounts ?? []).map((a) => [a.sub, a]));
  const refused = new Set<string>();
  const clientId = 'cms-test-client';
  const clientSecret = 'cms-test-secret-0123456789abcdef';
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'standin-key', use: 'sig', alg: 'RS256' };
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' });
  const state = { publishWrongKey: false };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [jwk as never] },
    adapter: memoryAdapter() as never,
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    cookies: { keys: ['standin-cookie-key'] },
    // Scope claims in the ID token itself, as Google and Entra put them there.
    conformIdTokenClaims: false,
    claims: {
      openid: ['sub', 'tid', 'upn', 'xms_edov', 'idp', 'acct'],
      email: ['email', 'email_verified'],
      profile: ['name', 'preferred_username'],
    },
    scopes: ['openid', 'email', 'profile'],
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `${path}/interaction/${interaction.uid}` },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        async claims() {
          const { sub, ...rest } = accounts.get(id) ?? account;
          return { sub, ...rest };
        },
      };
    },
  });
  const callback = provider.callback();
  const requests: string[] = [];

  async function interaction(req: IncomingMessage, res: ServerResponse, action: string): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    const url = new URL(req.url ?? '/', origin);
    const sub = url.searchParams.get('sub') ?? '';
    if (action === 'deny' || !accounts.has(sub) || refused.has(sub)) {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The directory refused the sign-in' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    // Consent is given with the sign-in: a grant for what was asked.
    const grant = new provider.Grant({ accountId: sub, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope));
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: sub }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    requests.push(url.split('?')[0]);
    // Another issuer's address serving this issuer's discovery document (an impostor or a misconfiguration).
    if (url === '/impostor/.well-known/openid-configuration') {
      fetch(`${issuer}/.well-known/openid-configuration`)
        .then((r) => r.text())
        .then((doc) => {
          res.setHeader('content-type', 'application/json');
          res.end(doc);
        });
      return;
    }
    if (path && !url.startsWith(`${path}/`)) {
      res.statusCode = 404;
      res.end();
      return;
    }
    const inner = url.slice(path.length);
    if (state.publishWrongKey && inner.split('?')[0] === '/jwks') {
      res.setHeader('content-type', 'application/jwk-set+json');
      res.end(JSON.stringify({ keys: [{ ...other, kid: 'standin-key', use: 'sig', alg: 'RS256' }] }));
      return;
    }
    const m = /^\/interaction\/[^/]+\/(login|deny)(\?|$)/.exec(inner);
    // oidc-provider finds its mount path from originalUrl (as when mounted by express).
    (req as IncomingMessage & { originalUrl?: string }).originalUrl = url;
    req.url = inner;
    if (m) {
      interaction(req, res, m[1]).catch((err) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    callback(req, res);
  });

  async function authorize(authUrl: string, sub: string, opts: { deny?: boolean } = {}): Promise<URL> {
    const jar = new Map<string, string>();
    const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const remember = (res: Response) => {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair.indexOf('=');
        jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
      }
    };
    let next = new URL(authUrl);
    for (let hop = 0; hop < 10; hop++) {
      if (next.origin !== origin) return next;
      const res = await fetch(next, { redirect: 'manual', headers: { cookie: cookieHeader() } });
      remember(res);
      const location = res.headers.get('location');
      if (!location) throw new Error(`stand-in answered ${res.status} at ${next.pathname}: ${await res.text()}`);
      await res.arrayBuffer();
      next = new URL(location, next);
      const at = /\/interaction\/([^/]+)$/.exec(next.pathname);
      if (at && next.origin === origin) {
        next = new URL(`${next.pathname}/${opts.deny ? 'deny' : 'login'}?sub=${encodeURIComponent(sub)}`, origin);
      }
    }
    throw new Error('too many redirects at the stand-in');
  }

  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  open.push(close);
  return {
    issuer,
    origin,
    clientId,
    clientSecret,
    accounts,
    refused,
    authorize,
    requests,
    close,
    get publishWrongKey() {
      return state.publishWrongKey;
    },
    set publishWrongKey(v: boolean) {
      state.publishWrongKey = v;
    },
  };
}
