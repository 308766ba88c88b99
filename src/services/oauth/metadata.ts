import { ALL_SCOPES } from '../../auth/scopes.js';
import { AUTH_METHODS, GRANT_TYPES, issuerOf, MCP_RESOURCE_PATH, OAUTH_BASE } from './settings.js';

/** RFC 8414 authorization server metadata, served at /.well-known/oauth-authorization-server/_cms. */
export function authorizationServerMetadata(publicUrl: string) {
  const base = `${publicUrl}${OAUTH_BASE}`;
  return {
    issuer: issuerOf(publicUrl),
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    registration_endpoint: `${base}/register`,
    device_authorization_endpoint: `${base}/device/code`,
    revocation_endpoint: `${base}/revoke`,
    scopes_supported: [...ALL_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...GRANT_TYPES],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: [...AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...AUTH_METHODS],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${publicUrl}/_cms/api/docs`,
  };
}

/** RFC 9728 protected resource metadata for the MCP endpoint. */
export function protectedResourceMetadata(publicUrl: string) {
  return {
    resource: `${publicUrl}${MCP_RESOURCE_PATH}`,
    authorization_servers: [issuerOf(publicUrl)],
    scopes_supported: [...ALL_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'CMS MCP tool server',
    resource_documentation: `${publicUrl}/_cms/api/docs`,
  };
}

/**
 * RFC 8707 resource indicators: a client may name what it wants a token for.
 * Tokens of this server work on the MCP endpoint and the REST API, so any URL
 * of this site under /_cms/api (or the site itself) is accepted.
 */
export function isOwnResource(publicUrl: string, resource: string): boolean {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return false;
  }
  if (url.hash) return false;
  const site = new URL(publicUrl);
  if (url.origin !== site.origin) return false;
  const path = url.pathname.replace(/\/+$/, '');
  const root = site.pathname.replace(/\/+$/, '');
  return path === root || path === `${root}/_cms/api` || path.startsWith(`${root}/_cms/api/`);
}
