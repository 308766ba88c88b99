/**
 * Row types of the identity tables (migration 003). Flags are integers 0/1,
 * instants ISO 8601 UTC text; secrets are stored only as SHA-256 hex.
 */

export interface SettingsTable {
  key: string;
  /** JSON text. */
  value: string;
  updated_at: string;
}

export interface SessionsTable {
  id_hash: string;
  user_id: string;
  /** How the user signed in: passkey, magic_link, recovery, setup, invite, signup. */
  method: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  absolute_expires_at: string;
}

export interface PasskeysTable {
  id: string;
  user_id: string;
  /** WebAuthn credential ID, base64url. */
  credential_id: string;
  /** COSE public key, base64url. */
  public_key: string;
  counter: number;
  /** JSON array of transports. */
  transports: string;
  device_type: string;
  backed_up: number;
  aaguid: string | null;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface AuthChallengesTable {
  id: string;
  /** register, authenticate, setup, invite, signup. */
  purpose: string;
  challenge: string;
  user_id: string | null;
  /** JSON: what the ceremony is bound to (setup input, invite or sign-up token hash). */
  data: string | null;
  created_at: string;
  expires_at: string;
}

export interface MagicLinksTable {
  token_hash: string;
  user_id: string;
  /** signin or recovery. */
  purpose: string;
  created_by: string | null;
  created_at: string;
  expires_at: string;
}

export interface InvitesTable {
  id: string;
  token_hash: string;
  email: string;
  role: number;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

export interface SignupRequestsTable {
  token_hash: string;
  email: string;
  domain: string;
  created_at: string;
  expires_at: string;
}

export interface AllowedDomainsTable {
  domain: string;
  default_role: number;
  enabled: number;
  created_at: string;
  updated_at: string;
}

/** One accepted request counted by a rate limit (sliding log); `key` is "<rule>|<client>". */
export interface RateHitsTable {
  id: string;
  key: string;
  at: string;
  expires_at: string;
}

/** A provider account linked to a user (migration 018); unique per provider and subject. */
export interface UserIdentitiesTable {
  provider: string;
  subject: string;
  user_id: string;
  address: string | null;
  handle: string | null;
  created_at: string;
  last_used_at: string | null;
}

/** A provider sign-in between its start and the provider's callback: single use, minutes long. */
export interface ProviderSigninsTable {
  state_hash: string;
  browser_hash: string;
  provider: string;
  pkce_verifier: string;
  nonce: string;
  /** login, setup, invite or link. */
  intent: string;
  invite_hash: string | null;
  /** JSON: the setup input; what the provider keeps between begin and complete. */
  data: string | null;
  user_id: string | null;
  created_at: string;
  expires_at: string;
}

/** A login provider's own short-lived record (migration 019): one of its descriptor's `storage` collections. */
export interface ProviderStorageTable {
  provider: string;
  collection: string;
  /** SHA-256 hex of the key. */
  key_hash: string;
  /** JSON. */
  value: string;
  created_at: string;
  expires_at: string;
}

export interface IdentityTables {
  _cms_settings: SettingsTable;
  _cms_sessions: SessionsTable;
  _cms_passkeys: PasskeysTable;
  _cms_auth_challenges: AuthChallengesTable;
  _cms_magic_links: MagicLinksTable;
  _cms_invites: InvitesTable;
  _cms_signup_requests: SignupRequestsTable;
  _cms_allowed_domains: AllowedDomainsTable;
  _cms_rate_hits: RateHitsTable;
  _cms_user_identities: UserIdentitiesTable;
  _cms_provider_signins: ProviderSigninsTable;
  _cms_provider_storage: ProviderStorageTable;
}
