import type { ProviderConfigRule, ProviderSettings } from '../../../core/config-providers.js';
import type { Logger } from '../../../core/log.js';
import type { OutboundFetch } from './outbound.js';

/**
 * The public interface of login providers. The included providers (GitHub,
 * Google, Microsoft Entra ID) are built on it, and another package registers
 * its own the same way (`registerLoginProvider`, exported by the package entry).
 *
 * The framework owns everything around the provider's protocol: the start and
 * callback routes (`/_cms/api/auth/oauth/<id>/start` and `/callback`), `state`
 * (stored as a hash, single use, bound to the browser, 10 minutes), the PKCE
 * verifier and nonce, rate limits, and what a verified identity may do
 * (sign in, link, create an account). A provider only turns the browser's
 * trip to its identity service into a verified identity.
 */

/** `button`: a compact button only; `form`: asks for input first (a handle). The login page renders buttons first. */
export type ProviderKind = 'button' | 'form';

/** What the admin app and the HTTP layer need to know about a provider (the contract's descriptor shape). */
export interface ProviderDescriptor {
  id: string;
  label: string;
  /**
   * The admin module for this provider; it exports `LoginButton` (kind `button`), `LoginForm`
   * (kind `form`) and `SetupStep` components. The included providers share `builtin:oauth-button`.
   */
  adminEntry: string;
  /** HTTP routes the provider serves, relative to the site root (`pattern`) and the module that handles them. */
  routes: Array<{ pattern: string; entrypoint: string }>;
  /** Path prefixes reachable without signing in (the callback must be). */
  publicRoutes: string[];
  /** Storage collections the provider keeps its own records in (none for the included providers). */
  storage: string[];
}

/** Given to `begin`: the values the framework made for this sign-in. */
export interface BeginInput {
  /** Send as the OAuth `state` parameter; the callback is matched to the sign-in by it. */
  state: string;
  /** PKCE code verifier (send its S256 challenge). */
  codeVerifier: string;
  /** OpenID Connect nonce (send it; expect it back in the ID token). */
  nonce: string;
  /** The registered callback, `{publicUrl}/_cms/api/auth/oauth/<id>/callback`. */
  redirectUri: string;
  /** Form providers: what the person typed (a handle). Null for button providers. */
  input: string | null;
}

export interface BeginResult {
  /** Where to send the browser. */
  url: string;
  /** Anything else the provider needs at the callback (JSON; stored with the sign-in, never sent to the browser). */
  keep?: Record<string, unknown>;
}

/** Given to `complete`: the callback's query and everything `begin` was given or kept. */
export interface CompleteInput {
  /** The callback URL as the provider redirected to it (the public address and the query). */
  callbackUrl: URL;
  state: string;
  codeVerifier: string;
  nonce: string;
  redirectUri: string;
  kept: Record<string, unknown>;
}

/** Who the provider says signed in. Only what the provider verified counts as verified. */
export interface VerifiedIdentity {
  /** The provider's id. */
  provider: string;
  /** The provider's stable ID of the account (OpenID Connect `sub`, a numeric user ID, a DID). */
  subject: string;
  /** An email address, or null when the provider gives none. */
  address: string | null;
  /** The provider vouches that the address belongs to the account (linking and sign-up need this). */
  addressVerified: boolean;
  /** A display name for a new account, or null. */
  name: string | null;
  /** DID-based providers: the DID (usually also the subject) and the handle. */
  did?: string | null;
  handle?: string | null;
  /**
   * Providers with allowlists of their own (the AT Protocol provider's `allowedDIDs` and
   * `allowedHandles`): whether they name this account, and the role an account they admit is
   * made with. A listed account may make an account here without an invite or an address; an
   * identity the lists do not name is refused (PROVIDER_SIGNUP_NOT_ALLOWED) unless it is already
   * linked, invited, linking or setting up the site. Absent: the provider keeps no allowlist.
   */
  allowlist?: { listed: boolean; role: number };
}

/** A provider ready to use: made once per service from its configuration entry. */
export interface LoginProvider {
  readonly id: string;
  readonly label: string;
  readonly kind: ProviderKind;
  readonly descriptor: ProviderDescriptor;
  /** The URL to send the browser to. Throw CmsError (PROVIDER_FAILED …) when the provider cannot be reached. */
  begin(input: BeginInput): Promise<BeginResult>;
  /**
   * Exchange the callback for a verified identity (code exchange, token validation, profile
   * reads). Throw CmsError with a stable code for a refusal; any other error is reported as
   * PROVIDER_FAILED.
   */
  complete(input: CompleteInput): Promise<VerifiedIdentity>;
  /**
   * Optional: the framework's `state` for a callback whose protocol carries it elsewhere than in
   * the `state` query parameter (a client library that keys its own state). Default: `state`.
   */
  callbackState?(query: URLSearchParams): Promise<string | null>;
  /**
   * Optional: a public JSON document the provider serves at `/_cms/api/auth/oauth/<id>/<name>`
   * (`name` ends in `.json`), such as the AT Protocol client metadata; null for any other name.
   */
  document?(name: string): Record<string, unknown> | null;
}

/**
 * A provider's own short-lived records, in the database so that any process serves the callback
 * (one of the collections its descriptor's `storage` names). Keys are stored as SHA-256, values as
 * JSON; each record expires (at most a day).
 */
export interface ProviderStorage {
  /** The value stored under `key`, or null when there is none or it expired. */
  get<T = unknown>(key: string): Promise<T | null>;
  /** Store (or replace) a JSON value for `ttlMs` milliseconds. */
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
}

/** What a provider is given when it is made. */
export interface ProviderEnvironment {
  /** `{publicUrl}/_cms/api/auth/oauth/<id>/callback`: the address to register with the provider. */
  callbackUrl: string;
  publicUrl: string;
  log: Logger;
  /**
   * fetch for outbound calls: refuses hosts the provider did not name with `allow`, follows no
   * redirect, and gives up after the deadline (PROVIDER_FAILED).
   */
  fetch: OutboundFetch;
  /** The provider's records in one of its storage collections (`^[a-z][a-z0-9_]*$`). */
  storage(collection: string): ProviderStorage;
}

/** A provider type: its configuration rule and how to make it. */
export interface LoginProviderDefinition {
  /** The id in the `providers` list, and in the callback URL and the environment variables (upper-cased). */
  id: string;
  /**
   * How its entry is configured (options beyond `id`, credentials, addresses). Required for a new id;
   * the ids the service knows (github, google, entra, atproto) keep their rules.
   */
  config?: ProviderConfigRule;
  create(settings: ProviderSettings, env: ProviderEnvironment): LoginProvider;
}
