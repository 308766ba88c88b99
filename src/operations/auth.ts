import { z } from '@hono/zod-openapi';
import {
  AddPasskeyBody,
  asRegistration,
  ChallengeResult,
  CreateInviteBody,
  CreateInviteResult,
  CreateTokenBody,
  EmailBody,
  EmptyBody,
  IdParams,
  InviteLookup,
  InviteSchema,
  MeResult,
  MethodsResult,
  PasskeySchema,
  RenamePasskeyBody,
  ScopeList,
  SentResult,
  SetupOptionsBody,
  SetupOptionsResult,
  SetupStatus,
  SignupLookup,
  TokenBody,
  TokenListQuery,
  TokenParams,
  TokenRecordSchema,
} from '../schemas/auth.js';
import { IdentitiesResult, IdentityParams, ProvidersResult } from '../schemas/auth-providers.js';
import {
  AllowedDomainSchema,
  CreateAllowedDomainBody,
  DeletedFlag,
  DomainParams,
  UpdateAllowedDomainBody,
} from '../schemas/users.js';
import { SIGN_IN } from '../services/holds.js';
import { operation } from './operation.js';

/**
 * The sign-in and account operations of the catalogue (operations/operation.ts):
 * tokens, allowed sign-up domains, invites, sign-up, setup, session, magic
 * links, passkeys and login providers. All are served over REST only, most
 * outside the OpenAPI document; no MCP tool calls them, so none declares a
 * tool scope (the services check the role and the permission's scopes). The
 * steps that set a session cookie stay in their routes: that is transport.
 */
export const listTokens = operation({
  id: 'listTokens',
  query: TokenListQuery,
  output: z.object({ items: z.array(TokenRecordSchema) }),
  writes: false,
  scope: null,
  run: async ({ actor, services }, { query }) => ({ items: await services.auth.tokens.list(actor, query.userId) }),
});

export const createToken = operation({
  id: 'createToken',
  body: CreateTokenBody,
  output: z.object({ token: z.string(), record: TokenRecordSchema }),
  writes: true,
  scope: null,
  run: async ({ actor, services }, { body }) => services.auth.tokens.create(actor, body),
});

export const revokeToken = operation({
  id: 'revokeToken',
  params: IdParams,
  output: z.object({ revoked: z.literal(true) }),
  writes: true,
  scope: null,
  run: async ({ actor, services }, { params }) => {
    await services.auth.tokens.revoke(actor, params.id);
    return { revoked: true as const };
  },
});

export const listScopes = operation({
  id: 'listScopes',
  output: ScopeList,
  writes: false,
  scope: null,
  run: async ({ actor, services }) => ({ items: services.auth.tokens.scopes(actor) }),
});

export const listAllowedDomains = operation({
  id: 'listAllowedDomains',
  output: z.object({ items: z.array(AllowedDomainSchema) }),
  writes: false,
  scope: null,
  run: async ({ actor, services }) => ({ items: await services.auth.domains.list(actor) }),
});

export const createAllowedDomain = operation({
  id: 'createAllowedDomain',
  body: CreateAllowedDomainBody,
  output: AllowedDomainSchema,
  writes: true,
  scope: null,
  run: async ({ actor, services }, { body }) => services.auth.domains.create(actor, body),
});

export const updateAllowedDomain = operation({
  id: 'updateAllowedDomain',
  params: DomainParams,
  body: UpdateAllowedDomainBody,
  output: AllowedDomainSchema,
  writes: true,
  scope: null,
  run: async ({ actor, services }, { params, body }) => services.auth.domains.update(actor, params.domain, body),
});

export const deleteAllowedDomain = operation({
  id: 'deleteAllowedDomain',
  params: DomainParams,
  output: DeletedFlag,
  writes: true,
  scope: null,
  run: async ({ actor, services }, { params }) => {
    await services.auth.domains.remove(actor, params.domain);
    return { deleted: true as const };
  },
});

export const listInvites = operation({
  id: 'listInvites',
  output: z.object({ items: z.array(InviteSchema) }),
  writes: false,
  scope: null,
  run: async ({ actor, services }) => ({ items: await services.auth.invites.list(actor) }),
});

export const createInvite = operation({
  id: 'createInvite',
  body: CreateInviteBody,
  output: CreateInviteResult,
  writes: true,
  scope: null,
  run: async ({ actor, services }, { body }) => services.auth.invites.create(actor, body),
});

export const deleteInvite = operation({
  id: 'deleteInvite',
  params: IdParams,
  output: z.object({ deleted: z.literal(true) }),
  writes: true,
  scope: null,
  run: async ({ actor, services }, { params }) => {
    await services.auth.invites.revoke(actor, params.id);
    return { deleted: true as const };
  },
});

export const getInvite = operation({
  id: 'getInvite',
  params: TokenParams,
  output: InviteLookup,
  writes: false,
  scope: null,
  run: async ({ services }, { params }) => services.auth.invites.lookup(params.token),
});

export const inviteOptions = operation({
  id: 'inviteOptions',
  body: TokenBody,
  output: ChallengeResult,
  writes: true,
  scope: null,
  run: async ({ services }, { body }) => services.auth.invites.acceptOptions(body.token),
});

export const requestSignup = operation({
  id: 'requestSignup',
  body: EmailBody,
  output: SentResult,
  writes: true,
  scope: null,
  run: async ({ services }, { body }) => services.auth.signup.request(body.email),
});

export const getSignup = operation({
  id: 'getSignup',
  params: TokenParams,
  output: SignupLookup,
  writes: false,
  scope: null,
  run: async ({ services }, { params }) => services.auth.signup.lookup(params.token),
});

export const signupOptions = operation({
  id: 'signupOptions',
  body: TokenBody,
  output: ChallengeResult,
  writes: true,
  scope: null,
  run: async ({ services }, { body }) => services.auth.signup.options(body.token),
});

export const setupStatus = operation({
  id: 'setupStatus',
  output: SetupStatus,
  writes: false,
  scope: null,
  run: async ({ services }) => services.auth.setup.status(),
});

export const setupOptions = operation({
  id: 'setupOptions',
  body: SetupOptionsBody,
  output: SetupOptionsResult,
  writes: true,
  scope: null,
  run: async ({ services }, { body }) => services.auth.setup.options(body),
});

export const authMe = operation({
  id: 'authMe',
  output: MeResult,
  writes: false,
  scope: null,
  run: async ({ actor, services }) => services.auth.me(actor),
});

export const authMethods = operation({
  id: 'authMethods',
  output: MethodsResult,
  writes: false,
  scope: null,
  run: async ({ services }) => services.auth.methods(),
});

export const sendMagicLink = operation({
  id: 'sendMagicLink',
  body: EmailBody,
  output: SentResult,
  writes: true,
  openDuring: SIGN_IN,
  scope: null,
  run: async ({ services }, { body }) => services.auth.magicLinks.send(body.email),
});

export const passkeySignInOptions = operation({
  id: 'passkeySignInOptions',
  body: EmptyBody,
  output: ChallengeResult,
  writes: true,
  openDuring: SIGN_IN,
  scope: null,
  run: async ({ services }) => services.auth.passkeys.signInOptions(),
});

export const listPasskeys = operation({
  id: 'listPasskeys',
  output: z.object({ items: z.array(PasskeySchema) }),
  writes: false,
  scope: null,
  run: async ({ actor, services }) => ({ items: await services.auth.passkeys.list(actor) }),
});

export const addPasskeyOptions = operation({
  id: 'addPasskeyOptions',
  body: EmptyBody,
  output: ChallengeResult,
  writes: true,
  scope: null,
  run: async ({ actor, services }) => services.auth.passkeys.addOptions(actor),
});

export const addPasskey = operation({
  id: 'addPasskey',
  body: AddPasskeyBody,
  output: z.object({ passkey: PasskeySchema }),
  writes: true,
  scope: null,
  run: async ({ actor, services }, { body }) => ({
    passkey: await services.auth.passkeys.add(actor, {
      challengeId: body.challengeId,
      credential: asRegistration(body.credential),
      name: body.name,
    }),
  }),
});

export const renamePasskey = operation({
  id: 'renamePasskey',
  params: IdParams,
  body: RenamePasskeyBody,
  output: z.object({ passkey: PasskeySchema }),
  writes: true,
  scope: null,
  run: async ({ actor, services }, { params, body }) => ({
    passkey: await services.auth.passkeys.rename(actor, params.id, body.name),
  }),
});

export const removePasskey = operation({
  id: 'removePasskey',
  params: IdParams,
  output: z.object({ deleted: z.literal(true) }),
  writes: true,
  scope: null,
  run: async ({ actor, services }, { params }) => {
    await services.auth.passkeys.remove(actor, params.id);
    return { deleted: true as const };
  },
});

export const listLoginProviders = operation({
  id: 'listLoginProviders',
  output: ProvidersResult,
  writes: false,
  scope: null,
  run: async ({ actor, services }) => ({ items: services.auth.providers.list(actor) }),
});

export const listLinkedIdentities = operation({
  id: 'listLinkedIdentities',
  output: IdentitiesResult,
  writes: false,
  scope: null,
  run: async ({ actor, services }) => ({ items: await services.auth.providers.identities.list(actor) }),
});

export const unlinkIdentity = operation({
  id: 'unlinkIdentity',
  params: IdentityParams,
  output: z.object({ deleted: z.literal(true) }),
  writes: true,
  scope: null,
  run: async ({ actor, services }, { params }) => {
    await services.auth.providers.identities.unlink(actor, params.provider, params.subject);
    return { deleted: true as const };
  },
});
