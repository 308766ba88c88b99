import { timingSafeEqual } from 'node:crypto';
import { isoNow } from '../../core/clock.js';
import { randomToken, sha256Hex } from '../../core/ids.js';
import type { OAuthClientsTable } from '../../db/tables-oauth.js';
import type { ServiceContext } from '../context.js';
import { OAuthError } from './errors.js';
import { DEFAULT_CLIENT_SCOPES, formatScope, knownScopes, parseScope } from './grants.js';
import { redirectUriProblem } from './redirect-uris.js';
import {
  AUTH_METHODS,
  type AuthMethod,
  CLIENT_SECRET_PREFIX,
  GRANT_AUTHORIZATION_CODE,
  GRANT_TYPES,
} from './settings.js';

export interface OAuthClient {
  id: string;
  name: string;
  clientUri: string | null;
  redirectUris: string[];
  grantTypes: string[];
  scopes: string[];
  authMethod: AuthMethod;
  createdAt: string;
}

/** Client metadata as RFC 7591 §2 names it (unknown members are ignored). */
export interface RegistrationRequest {
  redirect_uris?: string[];
  client_name?: string;
  client_uri?: string;
  grant_types?: string[];
  response_types?: string[];
  scope?: string;
  token_endpoint_auth_method?: string;
}

export function toClient(row: OAuthClientsTable): OAuthClient {
  return {
    id: row.id,
    name: row.name,
    clientUri: row.client_uri,
    redirectUris: JSON.parse(row.redirect_uris) as string[],
    grantTypes: JSON.parse(row.grant_types) as string[],
    scopes: JSON.parse(row.scopes) as string[],
    authMethod: row.auth_method as AuthMethod,
    createdAt: row.created_at,
  };
}

/** The registration response (RFC 7591 §3.2.1). */
function registrationResponse(client: OAuthClient, secret: string | null) {
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(Date.parse(client.createdAt) / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    client_name: client.name,
    ...(client.clientUri ? { client_uri: client.clientUri } : {}),
    redirect_uris: client.redirectUris,
    grant_types: client.grantTypes,
    response_types: client.grantTypes.includes(GRANT_AUTHORIZATION_CODE) ? ['code'] : [],
    token_endpoint_auth_method: client.authMethod,
    scope: formatScope(client.scopes),
  };
}

export type RegistrationResponse = ReturnType<typeof registrationResponse>;

const bad = (message: string) => new OAuthError('invalid_client_metadata', message);

/** Validate RFC 7591 metadata into what is stored. */
function validateMetadata(input: RegistrationRequest) {
  const grantTypes = [...new Set(input.grant_types ?? [GRANT_AUTHORIZATION_CODE])];
  if (grantTypes.length === 0) throw bad('grant_types must name at least one grant type');
  for (const g of grantTypes) {
    if (!(GRANT_TYPES as readonly string[]).includes(g)) throw bad(`grant type "${g}" is not supported`);
  }
  const wantsCode = grantTypes.includes(GRANT_AUTHORIZATION_CODE);
  const responseTypes = input.response_types ?? (wantsCode ? ['code'] : []);
  for (const r of responseTypes) {
    if (r !== 'code') throw bad(`response type "${r}" is not supported; only "code"`);
  }
  if (wantsCode && !responseTypes.includes('code'))
    throw bad('the authorization_code grant needs response type "code"');

  const redirectUris = [...new Set(input.redirect_uris ?? [])];
  if (wantsCode && redirectUris.length === 0) {
    throw new OAuthError('invalid_redirect_uri', 'redirect_uris is required for the authorization_code grant');
  }
  if (redirectUris.length > 20) throw new OAuthError('invalid_redirect_uri', 'at most 20 redirect URIs');
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError('invalid_redirect_uri', `redirect URI "${uri}" ${problem}`);
  }

  const authMethod = (input.token_endpoint_auth_method ?? 'client_secret_basic') as AuthMethod;
  if (!AUTH_METHODS.includes(authMethod)) {
    throw bad(`token_endpoint_auth_method "${input.token_endpoint_auth_method}" is not supported`);
  }

  const name = (input.client_name ?? '').trim() || 'Unnamed application';
  if (name.length > 200) throw bad('client_name must be at most 200 characters');

  let clientUri: string | null = null;
  if (input.client_uri) {
    try {
      const url = new URL(input.client_uri);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
      clientUri = url.toString();
    } catch {
      throw bad('client_uri must be an http(s) URL');
    }
  }

  let scopes = [...DEFAULT_CLIENT_SCOPES];
  if (input.scope !== undefined) {
    const asked = parseScope(input.scope);
    scopes = knownScopes(asked);
    if (scopes.length === 0) throw bad(`scope names no scope this server knows (${input.scope || 'empty'})`);
  }
  return { grantTypes, redirectUris, authMethod, name, clientUri, scopes };
}

/** Hex SHA-256 digests compared in constant time. */
function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What a request to the token, revocation or device endpoint says about the client. */
export interface ClientCredentials {
  /** client_id from the body. */
  clientId?: string;
  /** client_secret from the body (client_secret_post). */
  clientSecret?: string;
  /** Authorization: Basic (client_secret_basic), already decoded. */
  basic?: { id: string; secret: string };
}

export function clientStore(ctx: ServiceContext) {
  /** RFC 7591 dynamic registration. Confidential clients get a secret, shown once. */
  async function register(input: RegistrationRequest): Promise<RegistrationResponse> {
    const meta = validateMetadata(input);
    const secret = meta.authMethod === 'none' ? null : CLIENT_SECRET_PREFIX + randomToken(32);
    const row: OAuthClientsTable = {
      id: randomToken(18),
      secret_hash: secret ? sha256Hex(secret) : null,
      name: meta.name,
      client_uri: meta.clientUri,
      redirect_uris: JSON.stringify(meta.redirectUris),
      grant_types: JSON.stringify(meta.grantTypes),
      scopes: JSON.stringify(meta.scopes),
      auth_method: meta.authMethod,
      created_at: isoNow(ctx.clock),
    };
    await ctx.db.insertInto('_cms_oauth_clients').values(row).execute();
    return registrationResponse(toClient(row), secret);
  }

  async function find(clientId: string): Promise<OAuthClient | null> {
    if (!clientId || clientId.length > 200) return null;
    const row = await ctx.db.selectFrom('_cms_oauth_clients').selectAll().where('id', '=', clientId).executeTakeFirst();
    return row ? toClient(row) : null;
  }

  /**
   * Client authentication (RFC 6749 §2.3): public clients name themselves
   * with client_id; confidential clients prove the secret, in the body or with
   * HTTP Basic. Any failure is `invalid_client` (401).
   */
  async function authenticate(creds: ClientCredentials): Promise<OAuthClient> {
    if (creds.basic && creds.clientId && creds.clientId !== creds.basic.id) {
      throw new OAuthError('invalid_request', 'client_id in the body differs from the Authorization header');
    }
    const clientId = creds.basic?.id ?? creds.clientId;
    if (!clientId) throw new OAuthError('invalid_client', 'client_id is required');
    const row = await ctx.db.selectFrom('_cms_oauth_clients').selectAll().where('id', '=', clientId).executeTakeFirst();
    if (!row) throw new OAuthError('invalid_client', 'Unknown client');
    const secret = creds.basic?.secret ?? creds.clientSecret;
    if (row.secret_hash === null) {
      if (secret) throw new OAuthError('invalid_client', 'This is a public client: it has no secret');
    } else if (!secret || !sameHash(sha256Hex(secret), row.secret_hash)) {
      throw new OAuthError('invalid_client', 'Client authentication failed');
    }
    return toClient(row);
  }

  return { register, find, authenticate };
}

export type ClientStore = ReturnType<typeof clientStore>;
