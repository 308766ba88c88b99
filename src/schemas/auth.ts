import { z } from '@hono/zod-openapi';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';

/**
 * Shapes of the sign-in, setup, passkey, magic-link, invite, sign-up and token
 * routes. These routes are served but left out of the OpenAPI document; the
 * admin app's contract is docs/auth-contract.md. WebAuthn objects are the
 * JSON shapes of @simplewebauthn.
 */
const b64url = z
  .string()
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');

const email = z.string().min(3).max(254);
const secret = z.string().min(16).max(200);
const optionalName = z.string().max(200).nullish();
const roleLevel = z.union([z.literal(10), z.literal(20), z.literal(30), z.literal(40), z.literal(50)]);

export const RegistrationCredential = z.looseObject({
  id: b64url,
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: b64url,
    attestationObject: b64url,
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});

export const AuthenticationCredential = z.looseObject({
  id: b64url,
  rawId: b64url,
  type: z.literal('public-key'),
  response: z.looseObject({
    clientDataJSON: b64url,
    authenticatorData: b64url,
    signature: b64url,
    userHandle: b64url.optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
});

/** Options objects are passed to @simplewebauthn/browser unchanged. */
const WebAuthnOptions = z.unknown();

export const SessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.number().int(),
  roleName: z.string(),
});
export const SiteSchema = z.object({
  title: z.string(),
  tagline: z.string().nullable(),
  timezone: z.string().openapi({ description: 'IANA time zone of the site (the date-time picker uses it)' }),
});
export const SignedIn = z.object({ user: SessionUserSchema });

export const MeResult = z.object({
  user: SessionUserSchema,
  site: SiteSchema.nullable(),
  i18n: z.object({ locales: z.array(z.string()), defaultLocale: z.string() }).openapi({
    description: 'The configured locales (the admin offers them for translations of taxonomies, terms and menus)',
  }),
});
export const MethodsResult = z.object({
  /** `edge-access`: people sign in at the site's edge access gateway; the other methods are off. */
  mode: z.enum(['default', 'edge-access']),
  passkey: z.boolean(),
  magicLink: z.boolean(),
  signup: z.boolean(),
  /** In the gateway mode: where the gateway ends its own sign-in. */
  gateway: z.object({ signOutUrl: z.string() }).optional(),
});

export const SetupStatus = z.object({ needsSetup: z.boolean(), site: SiteSchema.nullable() });
export const SetupOptionsBody = z
  .object({ siteTitle: z.string().min(1).max(200), tagline: z.string().max(500).nullish(), email, name: optionalName })
  .strict();
export const SetupOptionsResult = z.object({ setupToken: z.string(), options: WebAuthnOptions });
export const SetupCompleteBody = z
  .object({ setupToken: z.string().min(1).max(100), credential: RegistrationCredential, passkeyName: optionalName })
  .strict();

export const ChallengeResult = z.object({ challengeId: z.string(), options: WebAuthnOptions });
export const EmptyBody = z.object({}).strict();
export const PasskeyVerifyBody = z
  .object({ challengeId: z.string().min(1).max(100), credential: AuthenticationCredential })
  .strict();
export const PasskeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  deviceType: z.string(),
  backedUp: z.boolean(),
});
export const AddPasskeyBody = z
  .object({ challengeId: z.string().min(1).max(100), credential: RegistrationCredential, name: optionalName })
  .strict();
export const RenamePasskeyBody = z.object({ name: z.string().min(1).max(100) }).strict();
export const IdParams = z.object({ id: z.string().min(1).max(100) });

export const EmailBody = z.object({ email }).strict();
export const SentResult = z.object({ sent: z.literal(true) });
export const TokenBody = z.object({ token: secret }).strict();
export const TokenParams = z.object({ token: secret });

export const InviteSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.number().int(),
  roleName: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  invitedBy: z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }).nullable(),
});
export const CreateInviteBody = z.object({ email, role: roleLevel }).strict();
export const CreateInviteResult = z.object({ invite: InviteSchema, link: z.string().nullable(), emailed: z.boolean() });
export const InviteLookup = z.object({
  email: z.string(),
  role: z.number().int(),
  roleName: z.string(),
  siteTitle: z.string(),
});
export const EnrolBody = z
  .object({
    token: secret,
    challengeId: z.string().min(1).max(100),
    credential: RegistrationCredential,
    name: optionalName,
  })
  .strict();
export const SignupLookup = z.object({ email: z.string(), role: z.number().int(), roleName: z.string() });

export const TokenRecordSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.string()),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export const CreateTokenBody = z
  .object({
    name: z.string().min(1).max(100),
    scopes: z.array(z.string().max(100)).min(1).max(50),
    expiresAt: z.iso.datetime({ offset: true }).nullish(),
  })
  .strict();
export const TokenListQuery = z.object({ userId: z.string().max(100).optional() });
export const ScopeList = z.object({
  items: z.array(z.object({ scope: z.string(), description: z.string(), allowed: z.boolean() })),
});
export const RecoveryLinkResult = z.object({ emailed: z.boolean(), link: z.string().nullable() });

/** The validated JSON, typed as @simplewebauthn expects it (its transports are a wider string union). */
export const asRegistration = (v: z.output<typeof RegistrationCredential>) => v as unknown as RegistrationResponseJSON;
export const asAuthentication = (v: z.output<typeof AuthenticationCredential>) =>
  v as unknown as AuthenticationResponseJSON;

/** An enrolment body (invite acceptance, sign-up completion) as the services take it. */
export const asEnrolment = (body: z.output<typeof EnrolBody>) => ({
  token: body.token,
  challengeId: body.challengeId,
  credential: asRegistration(body.credential),
  name: body.name,
});
