/**
 * The identity routes the OpenAPI document leaves out, typed from
 * docs/auth-contract.md. Documented routes (users, allowed domains) go through
 * the generated client in ./client.ts instead.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { del, get, post, put, seg } from './http';

export interface SiteInfo {
  title: string;
  tagline: string | null;
  /** IANA time zone from the site settings. */
  timezone: string;
}

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
  role: number;
  roleName: string;
}

export interface Me {
  user: SessionUser;
  /** null until the setup wizard has named the site. */
  site: SiteInfo | null;
  /** The configured locales (one, `en`, on a single-language site). */
  i18n: { locales: string[]; defaultLocale: string };
}

/** The sign-in methods the site offers (`GET /auth/methods`). */
export interface Methods {
  /** `edge-access`: people sign in at the organisation's access gateway, never on these pages. */
  mode: 'default' | 'edge-access';
  passkey: boolean;
  magicLink: boolean;
  signup: boolean;
  /** In the gateway mode: where the gateway ends its own sign-in. */
  gateway?: { signOutUrl: string };
}

export interface SetupStatus {
  needsSetup: boolean;
  site: SiteInfo | null;
}

export interface Passkey {
  id: string;
  name: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  deviceType: string;
  backedUp: boolean;
}

export interface Invite {
  id: string;
  email: string;
  role: number;
  roleName: string;
  createdAt: string;
  expiresAt: string;
  invitedBy: { id: string; email: string; name: string | null } | null;
}

export interface TokenRecord {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
}

export interface ScopeInfo {
  scope: string;
  description: string;
  allowed: boolean;
}

/** A configured login provider (`GET /auth/providers`), in the order the sign-in pages show them. */
export interface LoginProvider {
  id: string;
  label: string;
  /** `button`: one button; `form`: asks for a handle first. */
  kind: 'button' | 'form';
  /** Admins only: the URL to register with the provider. */
  callbackUrl?: string;
  /** Admins only: whether the credentials it needs are set in the environment. */
  credentialsSet?: boolean;
  /** Admins only: the routes it serves (a public client's metadata document among them). */
  descriptor?: { adminEntry: string; routes: Array<{ pattern: string; entrypoint: string }> };
}

/** What a provider sign-in is for (`POST /auth/oauth/{provider}/start`); `input` is a form provider's handle. */
export type ProviderStart =
  | { intent: 'login'; input?: string }
  | { intent: 'link'; input?: string }
  | { intent: 'invite'; token: string; input?: string }
  | {
      intent: 'setup';
      siteTitle: string;
      tagline?: string;
      name?: string;
      /** The first account's address, for a provider that gives none (a handle provider). */
      email?: string;
      input?: string;
    };

/** An identity at a login provider linked to the signed-in account (`GET /auth/identities`). */
export interface LinkedIdentity {
  provider: string;
  label: string;
  subject: string;
  address: string | null;
  handle: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface LinkResult {
  emailed: boolean;
  link: string | null;
}

interface CreationChallenge {
  challengeId: string;
  options: PublicKeyCredentialCreationOptionsJSON;
}

interface RequestChallenge {
  challengeId: string;
  options: PublicKeyCredentialRequestOptionsJSON;
}

interface Signed {
  user: SessionUser;
}

export const authApi = {
  // Session
  me: () => get<Me>('/auth/me'),
  logout: () => post<{ signedOut: true }>('/auth/logout'),
  methods: () => get<Methods>('/auth/methods'),

  // First user setup
  setupStatus: () => get<SetupStatus>('/setup/status'),
  setupOptions: (body: { siteTitle: string; tagline?: string; email: string; name?: string }) =>
    post<{ setupToken: string; options: PublicKeyCredentialCreationOptionsJSON }>('/setup/options', body),
  setupComplete: (body: { setupToken: string; credential: RegistrationResponseJSON; passkeyName?: string }) =>
    post<Signed>('/setup/complete', body),

  // Passkey sign-in
  passkeyOptions: () => post<RequestChallenge>('/auth/passkey/options', {}),
  passkeyVerify: (body: { challengeId: string; credential: AuthenticationResponseJSON }) =>
    post<Signed>('/auth/passkey/verify', body),

  // Own passkeys
  listPasskeys: () => get<{ items: Passkey[] }>('/auth/passkeys'),
  addPasskeyOptions: () => post<CreationChallenge>('/auth/passkeys/options', {}),
  addPasskey: (body: { challengeId: string; credential: RegistrationResponseJSON; name?: string }) =>
    post<{ passkey: Passkey }>('/auth/passkeys', body),
  renamePasskey: (id: string, name: string) => put<{ passkey: Passkey }>(`/auth/passkeys/${seg(id)}`, { name }),
  deletePasskey: (id: string) => del<{ deleted: true }>(`/auth/passkeys/${seg(id)}`),

  // Magic links
  sendMagicLink: (email: string) => post<{ sent: true }>('/auth/magic-link/send', { email }),
  consumeMagicLink: (token: string) => post<Signed>('/auth/magic-link/consume', { token }),

  // Invites
  listInvites: () => get<{ items: Invite[] }>('/admin/invites'),
  createInvite: (body: { email: string; role: number }) =>
    post<{ invite: Invite; link: string | null; emailed: boolean }>('/admin/invites', body),
  deleteInvite: (id: string) => del<{ deleted: true }>(`/admin/invites/${seg(id)}`),
  getInvite: (token: string) =>
    get<{ email: string; role: number; roleName: string; siteTitle: string }>(`/auth/invite/${seg(token)}`),
  inviteOptions: (token: string) => post<CreationChallenge>('/auth/invite/options', { token }),
  acceptInvite: (body: { token: string; challengeId: string; credential: RegistrationResponseJSON; name?: string }) =>
    post<Signed>('/auth/invite/accept', body),

  // Sign-up with an allowed email domain
  signupRequest: (email: string) => post<{ sent: true }>('/auth/signup/request', { email }),
  getSignup: (token: string) => get<{ email: string; role: number; roleName: string }>(`/auth/signup/${seg(token)}`),
  signupOptions: (token: string) => post<CreationChallenge>('/auth/signup/options', { token }),
  signupComplete: (body: { token: string; challengeId: string; credential: RegistrationResponseJSON; name?: string }) =>
    post<Signed>('/auth/signup/complete', body),

  // Login providers
  providers: () => get<{ items: LoginProvider[] }>('/auth/providers'),
  startProvider: (provider: string, body: ProviderStart) =>
    post<{ url: string }>(`/auth/oauth/${seg(provider)}/start`, body),
  listIdentities: () => get<{ items: LinkedIdentity[] }>('/auth/identities'),
  unlinkIdentity: (provider: string, subject: string) =>
    del<{ deleted: true }>(`/auth/identities/${seg(provider)}/${seg(subject)}`),

  // Users admin (hidden part)
  recoveryLink: (userId: string) => post<LinkResult>(`/admin/users/${seg(userId)}/recovery-link`),

  // Personal access tokens
  listTokens: () => get<{ items: TokenRecord[] }>('/auth/tokens'),
  createToken: (body: { name: string; scopes: string[]; expiresAt?: string }) =>
    post<{ token: string; record: TokenRecord }>('/auth/tokens', body),
  revokeToken: (id: string) => del<{ revoked: true }>(`/auth/tokens/${seg(id)}`),
  listScopes: () => get<{ items: ScopeInfo[] }>('/auth/scopes'),
};
