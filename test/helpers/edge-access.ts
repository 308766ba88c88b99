import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll } from 'vitest';
import type { ConfigInput } from '../../src/core/config.js';
import type { Cms } from '../../src/index.js';
import { type ApiResponse, call } from './cms.js';

/**
 * A stand-in edge access gateway on loopback: it publishes a JWK set at
 * `/cdn-cgi/access/certs` like a gateway team does, and signs tokens with the
 * keys generated here, so the service checks real signatures without the internet.
 */
export const TEAM_DOMAIN = 'team.example.test';
export const AUDIENCE = 'aud-4b1f0c9e2d7a';
export const ISSUER = `https://${TEAM_DOMAIN}`;

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

async function newKey(kid: string): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

export interface TokenOptions {
  email?: string | null;
  groups?: unknown;
  name?: string;
  audience?: string | string[];
  issuer?: string;
  /** Seconds since the epoch (default: the real clock). */
  issuedAt?: number;
  /** Seconds after issuedAt (default an hour; negative for an expired token). */
  lifetime?: number;
  /** Which key signs: the published one (default), or one the certs do not list. */
  key?: 'published' | 'unpublished';
  /** Keep the published key's `kid` but sign with another key (a forged signature). */
  forge?: boolean;
}

export interface StandInGateway {
  certsUrl: string;
  /** How many times the JWK set was fetched. */
  fetches: number;
  /** A token as the gateway would send it for this person. */
  sign(options?: TokenOptions): Promise<string>;
  /** Publish a new key (new `kid`) in place of the current one, as a team does when it rotates keys. */
  rotate(): Promise<void>;
  /** The `auth` option of a site behind this gateway. */
  auth(extra?: Record<string, unknown>): NonNullable<ConfigInput['auth']>;
  close(): Promise<void>;
}

const running: Server[] = [];
// After the file, not after each test: a browser suite shares one gateway between its tests.
afterAll(async () => {
  while (running.length) {
    const server = running.pop()!;
    await new Promise<void>((done) => server.close(() => done()));
  }
});

let keySeq = 0;

export async function startGateway(): Promise<StandInGateway> {
  let current = await newKey(`k${++keySeq}`);
  const unpublished = await newKey(`k${++keySeq}`);
  const gateway = {} as StandInGateway;
  gateway.fetches = 0;
  const server = createServer((req, res) => {
    if (req.url !== '/cdn-cgi/access/certs') {
      res.writeHead(404).end();
      return;
    }
    gateway.fetches++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [current.jwk] }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  running.push(server);
  const { port } = server.address() as AddressInfo;
  gateway.certsUrl = `http://127.0.0.1:${port}/cdn-cgi/access/certs`;

  gateway.sign = async (options = {}) => {
    const issuedAt = options.issuedAt ?? Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = { type: 'app', country: 'GB' };
    const email = options.email === undefined ? 'ada@example.test' : options.email;
    if (email !== null) claims.email = email;
    if (options.groups !== undefined) claims.groups = options.groups;
    if (options.name !== undefined) claims.name = options.name;
    const signer = options.key === 'unpublished' ? unpublished : current;
    const kid = options.forge ? current.kid : signer.kid;
    const privateKey = options.forge ? unpublished.privateKey : signer.privateKey;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(options.issuer ?? ISSUER)
      .setAudience(options.audience ?? [AUDIENCE])
      .setSubject(`sub-${email ?? 'service'}`)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + (options.lifetime ?? 3600))
      .sign(privateKey);
  };
  gateway.rotate = async () => {
    current = await newKey(`k${++keySeq}`);
  };
  gateway.auth = (extra = {}) =>
    ({
      type: 'edge-access',
      teamDomain: TEAM_DOMAIN,
      audience: AUDIENCE,
      certsUrl: gateway.certsUrl,
      ...extra,
    }) as NonNullable<ConfigInput['auth']>;
  gateway.close = () => new Promise<void>((done) => server.close(() => done()));
  return gateway;
}

/**
 * A browser behind the gateway: every request carries the gateway's token (as
 * the gateway adds it) and the `cms_session` cookie the service handed out;
 * writes send `X-CMS-Request: 1` as the admin app does.
 */
export class GatewayBrowser {
  cookie: string | null = null;

  constructor(
    readonly cms: Cms,
    public token: string | null,
  ) {}

  async call<T = any>(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.token) headers['edge-access-jwt-assertion'] = this.token;
    if (this.cookie) headers.cookie = `cms_session=${this.cookie}`;
    if (method !== 'GET') headers['x-cms-request'] ??= '1';
    const res = await call<T>(this.cms, method, path, { body: options.body, headers });
    const set = res.headers.get('set-cookie');
    const m = set ? /cms_session=([^;]*)/.exec(set) : null;
    if (m) this.cookie = m[1] || null;
    return res;
  }
}
