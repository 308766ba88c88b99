/**
 * Row types of the OAuth tables (migration 004). Lists are JSON text, instants
 * ISO 8601 UTC text; secrets are stored only as SHA-256 hex.
 */

export interface OAuthClientsTable {
  /** The public client_id. */
  id: string;
  /** null for public clients (token_endpoint_auth_method "none"). */
  secret_hash: string | null;
  name: string;
  client_uri: string | null;
  /** JSON array of exact redirect URIs. */
  redirect_uris: string;
  /** JSON array of grant types. */
  grant_types: string;
  /** JSON array of the scopes the client registered. */
  scopes: string;
  /** none, client_secret_post or client_secret_basic. */
  auth_method: string;
  created_at: string;
}

export interface OAuthRequestsTable {
  id: string;
  client_id: string;
  redirect_uri: string;
  /** JSON array: requested scopes that are also registered. */
  scopes: string;
  state: string | null;
  code_challenge: string;
  created_at: string;
  expires_at: string;
}

export interface OAuthCodesTable {
  code_hash: string;
  family_id: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  scopes: string;
  code_challenge: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface OAuthDeviceCodesTable {
  device_code_hash: string;
  /** Eight characters without the dash, e.g. BCDFGHJK. */
  user_code: string;
  client_id: string;
  scopes: string;
  status: 'pending' | 'approved' | 'denied' | 'consumed';
  user_id: string | null;
  granted_scopes: string | null;
  interval_seconds: number;
  last_polled_at: string | null;
  created_at: string;
  expires_at: string;
}

export interface OAuthTokensTable {
  id: string;
  kind: 'access' | 'refresh';
  token_hash: string;
  family_id: string;
  client_id: string;
  user_id: string;
  scopes: string;
  created_at: string;
  expires_at: string;
  /** Refresh tokens: when it was exchanged for a new pair (a second use revokes the family). */
  rotated_at: string | null;
  revoked_at: string | null;
}

export interface OAuthTables {
  _cms_oauth_clients: OAuthClientsTable;
  _cms_oauth_requests: OAuthRequestsTable;
  _cms_oauth_codes: OAuthCodesTable;
  _cms_oauth_device_codes: OAuthDeviceCodesTable;
  _cms_oauth_tokens: OAuthTokensTable;
}
