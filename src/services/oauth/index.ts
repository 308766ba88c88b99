import type { ServiceContext } from '../context.js';
import { authorizationOps } from './authorize.js';
import { type ClientCredentials, clientStore } from './clients.js';
import { connectionOps } from './connections.js';
import { deviceOps } from './device.js';
import { OAuthError } from './errors.js';
import { tokenIssuer } from './issue.js';
import { authorizationServerMetadata, protectedResourceMetadata } from './metadata.js';
import { refreshOps } from './refresh.js';
import { GRANT_AUTHORIZATION_CODE, GRANT_DEVICE_CODE, GRANT_REFRESH_TOKEN } from './settings.js';

export type { AuthorizeParams, ConsentView } from './authorize.js';
export type { ClientCredentials, OAuthClient, RegistrationRequest, RegistrationResponse } from './clients.js';
export type { Connection } from './connections.js';
export type { DeviceAuthorization, DeviceView } from './device.js';
export { isOAuthError, OAuthError, type OAuthErrorCode } from './errors.js';
export type { ScopeChoice } from './grants.js';
export type { TokenResponse } from './issue.js';
export { ACCESS_TOKEN_PREFIX, GRANT_DEVICE_CODE, REFRESH_TOKEN_PREFIX } from './settings.js';

/** Parameters of a token request (RFC 6749 §4.1.3, §6; RFC 8628 §3.4). */
export interface TokenRequest {
  grant_type?: string;
  code?: string;
  redirect_uri?: string;
  code_verifier?: string;
  refresh_token?: string;
  scope?: string;
  device_code?: string;
  resource?: string;
}

/**
 * The OAuth 2.1 authorization server: discovery documents, dynamic client
 * registration, authorization code + PKCE with consent in the admin app,
 * the device grant, refresh-token rotation and revocation. Access tokens
 * resolve to actors through the tokens service, like personal access tokens.
 */
/** What the OAuth service needs of the tokens service: to forget cached bearer lookups when a grant changes. */
export interface BearerCache {
  invalidate(): Promise<void>;
}

export function createOAuthService(ctx: ServiceContext, deps: { tokens: BearerCache }) {
  const clients = clientStore(ctx);
  const issuer = tokenIssuer(ctx, () => deps.tokens.invalidate());
  const authorization = authorizationOps(ctx, clients, issuer);
  const device = deviceOps(ctx, issuer, clients.find);
  const refresh = refreshOps(ctx, issuer);

  /** The token endpoint: authenticate the client, then run its grant. */
  async function token(creds: ClientCredentials, params: TokenRequest) {
    const client = await clients.authenticate(creds);
    switch (params.grant_type) {
      case GRANT_AUTHORIZATION_CODE:
        return authorization.exchange(client, params);
      case GRANT_REFRESH_TOKEN:
        return refresh.refresh(client, params);
      case GRANT_DEVICE_CODE:
        return device.poll(client, params);
      case undefined:
      case '':
        throw new OAuthError('invalid_request', 'grant_type is required');
      default:
        throw new OAuthError('unsupported_grant_type', `grant_type "${params.grant_type}" is not supported`);
    }
  }

  return {
    metadata: () => authorizationServerMetadata(ctx.config.publicUrl),
    resourceMetadata: () => protectedResourceMetadata(ctx.config.publicUrl),
    register: clients.register,
    authorize: authorization.start,
    consent: { view: authorization.view, approve: authorization.approve, deny: authorization.deny },
    token,
    deviceAuthorization: async (creds: ClientCredentials, params: { scope?: string }) =>
      device.start(await clients.authenticate(creds), params),
    device: { view: device.view, approve: device.approve, deny: device.deny },
    /** The signed-in user's connected applications (live token families). */
    connections: connectionOps(ctx, issuer),
    revoke: async (creds: ClientCredentials, params: { token?: string; token_type_hint?: string }) =>
      refresh.revoke(await clients.authenticate(creds), params),
  };
}

export type OAuthService = ReturnType<typeof createOAuthService>;
