import { MINUTE_MS } from '../auth/secrets.js';

/** Token prefixes: the tokens service tells an OAuth access token from a PAT by it. */
export const ACCESS_TOKEN_PREFIX = 'cms_oat_';
export const REFRESH_TOKEN_PREFIX = 'cms_ort_';
export const CLIENT_SECRET_PREFIX = 'cms_ocs_';

/** Lifetimes. Access tokens are short; refresh tokens rotate at every use. */
export const ACCESS_TOKEN_TTL_MS = 60 * MINUTE_MS;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * MINUTE_MS;
export const CODE_TTL_MS = MINUTE_MS;
export const REQUEST_TTL_MS = 10 * MINUTE_MS;
export const DEVICE_CODE_TTL_MS = 10 * MINUTE_MS;
/** Used codes are kept this long after issue, so a late replay still revokes what the code produced. */
export const USED_CODE_RETENTION_MS = 24 * 60 * MINUTE_MS;

/** Device polling: the interval a client starts with, and what slow_down adds (RFC 8628 §3.5). */
export const DEVICE_POLL_INTERVAL_S = 5;
export const SLOW_DOWN_STEP_S = 5;

export const GRANT_AUTHORIZATION_CODE = 'authorization_code';
export const GRANT_REFRESH_TOKEN = 'refresh_token';
export const GRANT_DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';
export const GRANT_TYPES = [GRANT_AUTHORIZATION_CODE, GRANT_REFRESH_TOKEN, GRANT_DEVICE_CODE] as const;

export const AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** Where the protocol endpoints live, relative to the public URL. */
export const OAUTH_BASE = '/_cms/api/oauth';
export const ISSUER_PATH = '/_cms';
export const MCP_RESOURCE_PATH = '/_cms/api/mcp';
export const CONSENT_PAGE = '/_cms/admin/oauth/consent';
export const DEVICE_PAGE = '/_cms/admin/oauth/device';

export function issuerOf(publicUrl: string): string {
  return `${publicUrl}${ISSUER_PATH}`;
}
