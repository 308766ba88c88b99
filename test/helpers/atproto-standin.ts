import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { calculateJwkThumbprint, EmbeddedJWK, type JWK, jwtVerify } from 'jose';
import { afterEach } from 'vitest';

/**
 * A local stand-in for the AT Protocol network a sign-in touches, on loopback, in four parts:
 *
 * - a handle resolver: `GET /xrpc/com.atproto.identity.resolveHandle?handle=…` (the directory server);
 * - a PLC directory: `GET /<did>` answers the DID document (its handle in `alsoKnownAs`, the PDS as
 *   its `#atproto_pds` service) (the directory server);
 * - a PDS: `GET /.well-known/oauth-protected-resource` naming the authorization server;
 * - an authorization server: its metadata (`/.well-known/oauth-authorization-server`), PAR
 *   (`POST /oauth/par`), authorize (`GET /oauth/authorize`: approves as the account the login hint
 *   names, or the one the test chooses, and redirects to the callback with `code`, `state`, `iss`),
 *   token (`POST /oauth/token`) and revocation (`POST /oauth/revoke`).
 *
 * The authorization server checks what a real one does for a public client: the client ID (the
 * loopback form's redirect URIs, or the client metadata document a discoverable client ID points
 * at), the redirect URI, PKCE S256, and a DPoP proof on every request (signature by the key in its
 * header, `typ`, `htm`, `htu`, `iat`, a fresh `jti` and the server's current nonce: a request
 * without it is answered `use_dpop_nonce` with a `DPoP-Nonce` header, as the AT Protocol requires);
 * the code is bound to the PAR request's DPoP key. The token answers `sub` = the DID, scope `atproto`.
 */
export interface AtprotoStandin {
  /** CMS_OAUTH_ATPROTO_PLC_URL */
  plcUrl: string;
  /** CMS_OAUTH_ATPROTO_HANDLE_RESOLVER */
  handleResolverUrl: string;
  pdsUrl: string;
  issuer: string;
  /** A new account: a did:plc whose document names `handle` and this PDS; the handle resolves to it. */
  account(handle: string): string;
  /** The handle the DID document names (its `alsoKnownAs`); null: none. */
  setDocumentHandle(did: string, handle: string | null): void;
  /** What the handle resolver answers for `handle`; null: "Unable to resolve handle". */
  pointHandle(handle: string, did: string | null): void;
  /** The PDS a DID document names (default: this stand-in's). */
  setDocumentPds(did: string, pdsUrl: string): void;
  /**
   * Follow an authorization URL as the person signing in (the account the login hint names, or
   * `as`), or decline; returns where the server sends the browser back.
   */
  authorize(url: string, options?: { as?: string; deny?: boolean }): Promise<URL>;
  /** What the servers were sent. */
  seen: {
    par: URLSearchParams[];
    token: URLSearchParams[];
    revoked: string[];
    /** Requests answered `use_dpop_nonce`. */
    nonceChallenges: number;
    /** Client metadata documents read for discoverable client IDs. */
    clientMetadata: Array<Record<string, unknown>>;
    /** Refusals, with the reason (to explain a failing test). */
    refusals: string[];
  };
}

export interface AtprotoStandinOptions {
  /** How the authorization server reads a discoverable client's metadata document (the test site is in-process). */
  fetchClientMetadata?: (clientId: string) => Promise<Response>;
}

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (open.length) await open.pop()!();
});

const random = (n = 16) => randomBytes(n).toString('base64url');
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const newPlcDid = () => `did:plc:${[...randomBytes(24)].map((b) => BASE32[b % 32]).join('')}`;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, value: unknown, type = 'application/json'): void {
  res.statusCode = status;
  res.setHeader('content-type', type);
  res.setHeader('cache-control', 'no-store');
  res.end(JSON.stringify(value));
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<string> {
  const server = createServer((req, res) => {
    handler(req, res).catch((err) => {
      if (!res.headersSent) send(res, 500, { error: 'server_error', error_description: String(err) });
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Pushed {
  params: URLSearchParams;
  jkt: string;
  expiresAt: number;
}

interface Issued {
  clientId: string;
  redirectUri: string;
  challenge: string;
  jkt: string;
  did: string;
}

export async function startAtprotoStandin(options: AtprotoStandinOptions = {}): Promise<AtprotoStandin> {
  const documents = new Map<string, { handle: string | null; pds: string | null }>();
  const handles = new Map<string, string>();
  const pushed = new Map<string, Pushed>();
  const codes = new Map<string, Issued>();
  const jtis = new Set<string>();
  let nonce = random();
  const seen: AtprotoStandin['seen'] = {
    par: [],
    token: [],
    revoked: [],
    nonceChallenges: 0,
    clientMetadata: [],
    refusals: [],
  };

  // The directory: handle resolution (XRPC) and the PLC directory's DID documents.
  const directoryUrl = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://directory');
    if (req.method === 'GET' && url.pathname === '/xrpc/com.atproto.identity.resolveHandle') {
      const did = handles.get((url.searchParams.get('handle') ?? '').toLowerCase());
      if (!did) return send(res, 400, { error: 'InvalidRequest', message: 'Unable to resolve handle' });
      return send(res, 200, { did });
    }
    const did = decodeURIComponent(url.pathname.slice(1));
    const doc = req.method === 'GET' ? documents.get(did) : undefined;
    if (!doc) return send(res, 404, { message: `DID not registered: ${did}` });
    send(
      res,
      200,
      {
        '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
        id: did,
        alsoKnownAs: doc.handle ? [`at://${doc.handle}`] : [],
        verificationMethod: [],
        service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: doc.pds ?? pdsUrl }],
      },
      'application/did+ld+json',
    );
  });

  // The authorization server.
  let issuer = '';
  const metadata = () => ({
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    pushed_authorization_request_endpoint: `${issuer}/oauth/par`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    require_pushed_authorization_requests: true,
    response_types_supported: ['code'],
    response_modes_supported: ['query', 'fragment'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: ['atproto', 'transition:generic'],
    token_endpoint_auth_methods_supported: ['none', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ['ES256'],
    dpop_signing_alg_values_supported: ['ES256'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    protected_resources: [pdsUrl],
  });

  /** The DPoP key's thumbprint, or null after answering the refusal. */
  async function dpop(req: IncomingMessage, res: ServerResponse, path: string): Promise<string | null> {
    const refuse = (error: string, description: string) => {
      seen.refusals.push(`${path}: ${description}`);
      send(res, 400, { error, error_description: description });
      return null;
    };
    res.setHeader('DPoP-Nonce', nonce);
    const proof = req.headers.dpop;
    if (typeof proof !== 'string') return refuse('invalid_dpop_proof', 'DPoP proof required');
    let verified: Awaited<ReturnType<typeof jwtVerify>>;
    try {
      verified = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt', algorithms: ['ES256'], maxTokenAge: 60 });
    } catch (err) {
      return refuse('invalid_dpop_proof', `DPoP proof does not verify: ${(err as Error).message}`);
    }
    const { payload, protectedHeader } = verified;
    if (payload.htm !== req.method) return refuse('invalid_dpop_proof', `htm ${String(payload.htm)}`);
    if (payload.htu !== `${issuer}${path}`) return refuse('invalid_dpop_proof', `htu ${String(payload.htu)}`);
    if (typeof payload.jti !== 'string' || jtis.has(payload.jti)) return refuse('invalid_dpop_proof', 'jti reused');
    if (payload.nonce !== nonce) {
      seen.nonceChallenges++;
      seen.refusals.push(`${path}: use_dpop_nonce`);
      send(res, 400, {
        error: 'use_dpop_nonce',
        error_description: 'Authorization server requires nonce in DPoP proof',
      });
      return null;
    }
    jtis.add(payload.jti);
    return calculateJwkThumbprint(protectedHeader.jwk as JWK);
  }

  /** The redirect URIs the client ID allows, or null (a reason was recorded). */
  async function redirectUrisOf(clientId: string): Promise<string[] | null> {
    if (clientId.startsWith('http://localhost')) {
      // The loopback client form: its redirect URIs are in the client ID; scope must name atproto.
      const query = new URLSearchParams(clientId.slice(clientId.indexOf('?') + 1));
      if (!query.getAll('scope').every((s) => s.split(' ').includes('atproto'))) return null;
      const uris = query.getAll('redirect_uri');
      return uris.length ? uris : ['http://127.0.0.1/', 'http://[::1]/'];
    }
    if (!options.fetchClientMetadata || !clientId.startsWith('https://')) return null;
    const res = await options.fetchClientMetadata(clientId);
    if (res.status !== 200 || res.headers.get('content-type')?.split(';')[0] !== 'application/json') {
      seen.refusals.push(`client metadata: ${res.status} ${res.headers.get('content-type')}`);
      return null;
    }
    const doc = (await res.json()) as Record<string, unknown>;
    seen.clientMetadata.push(doc);
    const ok =
      doc.client_id === clientId &&
      doc.token_endpoint_auth_method === 'none' &&
      doc.dpop_bound_access_tokens === true &&
      doc.application_type === 'web' &&
      String(doc.scope).split(' ').includes('atproto') &&
      (doc.grant_types as string[]).includes('authorization_code') &&
      (doc.response_types as string[]).includes('code');
    if (!ok) {
      seen.refusals.push(`client metadata: ${JSON.stringify(doc)}`);
      return null;
    }
    return doc.redirect_uris as string[];
  }

  const didOf = (hint: string | null) => (hint?.startsWith('did:') ? hint : hint ? handles.get(hint) : undefined);

  issuer = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://as');
    if (req.method === 'GET' && url.pathname === '/.well-known/oauth-authorization-server') {
      return send(res, 200, metadata());
    }
    if (req.method === 'POST' && url.pathname === '/oauth/par') {
      const jkt = await dpop(req, res, url.pathname);
      if (!jkt) return;
      const params = new URLSearchParams(await readBody(req));
      seen.par.push(params);
      const clientId = params.get('client_id') ?? '';
      const uris = await redirectUrisOf(clientId);
      const problem = !uris
        ? 'unknown client'
        : !uris.includes(params.get('redirect_uri') ?? '')
          ? 'redirect_uri not registered'
          : params.get('response_type') !== 'code'
            ? 'response_type'
            : params.get('code_challenge_method') !== 'S256' || !params.get('code_challenge')
              ? 'PKCE S256 required'
              : !(params.get('scope') ?? '').split(' ').includes('atproto')
                ? 'scope must include atproto'
                : !params.get('state')
                  ? 'state required'
                  : null;
      if (problem) {
        seen.refusals.push(`par: ${problem}`);
        return send(res, 400, { error: 'invalid_request', error_description: problem });
      }
      const requestUri = `urn:ietf:params:oauth:request_uri:req-${random()}`;
      pushed.set(requestUri, { params, jkt, expiresAt: Date.now() + 300_000 });
      return send(res, 201, { request_uri: requestUri, expires_in: 300 });
    }
    if (req.method === 'GET' && url.pathname === '/oauth/authorize') {
      const requestUri = url.searchParams.get('request_uri') ?? '';
      const request = pushed.get(requestUri);
      pushed.delete(requestUri);
      if (
        !request ||
        request.expiresAt < Date.now() ||
        request.params.get('client_id') !== url.searchParams.get('client_id')
      ) {
        return send(res, 400, { error: 'invalid_request', error_description: 'unknown request_uri' });
      }
      const back = new URL(request.params.get('redirect_uri')!);
      back.searchParams.set('state', request.params.get('state')!);
      back.searchParams.set('iss', issuer);
      if (url.searchParams.get('deny') === '1') {
        back.searchParams.set('error', 'access_denied');
      } else {
        const did = url.searchParams.get('as') ?? didOf(request.params.get('login_hint'));
        if (!did) return send(res, 400, { error: 'invalid_request', error_description: 'no account to sign in' });
        const code = `cod-${random()}`;
        codes.set(code, {
          clientId: request.params.get('client_id')!,
          redirectUri: request.params.get('redirect_uri')!,
          challenge: request.params.get('code_challenge')!,
          jkt: request.jkt,
          did,
        });
        back.searchParams.set('code', code);
      }
      res.statusCode = 302;
      res.setHeader('location', back.toString());
      return void res.end();
    }
    if (req.method === 'POST' && url.pathname === '/oauth/token') {
      const jkt = await dpop(req, res, url.pathname);
      if (!jkt) return;
      const params = new URLSearchParams(await readBody(req));
      seen.token.push(params);
      const code = params.get('code') ?? '';
      const issued = codes.get(code);
      codes.delete(code);
      const verifier = params.get('code_verifier') ?? '';
      const problem = !issued
        ? 'unknown or used code'
        : params.get('grant_type') !== 'authorization_code'
          ? 'grant_type'
          : issued.clientId !== params.get('client_id')
            ? 'client_id'
            : issued.redirectUri !== params.get('redirect_uri')
              ? 'redirect_uri'
              : issued.jkt !== jkt
                ? 'DPoP key differs from the one the request was pushed with'
                : createHash('sha256').update(verifier).digest('base64url') !== issued.challenge
                  ? 'PKCE verifier does not match'
                  : null;
      if (problem || !issued) {
        seen.refusals.push(`token: ${problem}`);
        return send(res, 400, { error: 'invalid_grant', error_description: problem });
      }
      return send(res, 200, {
        access_token: `at-${random()}`,
        token_type: 'DPoP',
        expires_in: 300,
        refresh_token: `rt-${random()}`,
        scope: 'atproto',
        sub: issued.did,
      });
    }
    if (req.method === 'POST' && url.pathname === '/oauth/revoke') {
      if (!(await dpop(req, res, url.pathname))) return;
      seen.revoked.push(new URLSearchParams(await readBody(req)).get('token') ?? '');
      return send(res, 200, {});
    }
    send(res, 404, { error: 'not_found' });
  });

  // The PDS: it names its authorization server.
  const pdsUrl = await listen(async (req, res) => {
    if (req.method === 'GET' && req.url === '/.well-known/oauth-protected-resource') {
      return send(res, 200, {
        resource: pdsUrl,
        authorization_servers: [issuer],
        scopes_supported: [],
        bearer_methods_supported: ['header'],
      });
    }
    send(res, 404, { error: 'not_found' });
  });

  return {
    plcUrl: directoryUrl,
    handleResolverUrl: directoryUrl,
    pdsUrl,
    issuer,
    seen,
    account(handle) {
      const did = newPlcDid();
      documents.set(did, { handle, pds: null });
      handles.set(handle, did);
      return did;
    },
    setDocumentHandle(did, handle) {
      documents.get(did)!.handle = handle;
    },
    pointHandle(handle, did) {
      if (did) handles.set(handle, did);
      else handles.delete(handle);
    },
    setDocumentPds(did, url) {
      documents.get(did)!.pds = url;
    },
    async authorize(url, choice = {}) {
      const target = new URL(url);
      if (target.origin !== issuer)
        throw new Error(`The sign-in went to ${target.origin}, not the stand-in (${issuer})`);
      if (choice.as) target.searchParams.set('as', choice.as);
      if (choice.deny) target.searchParams.set('deny', '1');
      const res = await fetch(target, { redirect: 'manual' });
      const location = res.headers.get('location');
      if (res.status !== 302 || !location) throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
      // The nonce changes now and then on a real server; the client must follow.
      nonce = random();
      return new URL(location);
    },
  };
}
