import { z } from '@hono/zod-openapi';

/**
 * Shapes of the OAuth routes. The protocol endpoints (register, token …)
 * answer RFC shapes and the consent routes the admin app calls are hidden
 * from the OpenAPI document; docs/oauth.md describes both.
 */
const scopeName = z.string().min(1).max(100);

/** RFC 7591 client metadata: the members we use, typed; any other member is accepted and ignored. */
export const RegistrationBody = z.looseObject({
  redirect_uris: z.array(z.string().max(2000)).max(20).optional(),
  client_name: z.string().max(200).optional(),
  client_uri: z.string().max(2000).optional(),
  grant_types: z.array(z.string().max(100)).max(10).optional(),
  response_types: z.array(z.string().max(100)).max(10).optional(),
  scope: z.string().max(4000).optional(),
  token_endpoint_auth_method: z.string().max(100).optional(),
});

export const ScopeChoiceSchema = z.object({
  scope: z.string(),
  description: z.string(),
  allowed: z.boolean(),
});

const ClientSummary = z.object({ id: z.string(), name: z.string(), uri: z.string().nullable() });

export const ConsentViewSchema = z.object({
  id: z.string(),
  client: ClientSummary,
  redirectUri: z.string(),
  redirectHost: z.string(),
  scopes: z.array(ScopeChoiceSchema),
  expiresAt: z.string(),
});

export const DeviceViewSchema = z.object({
  userCode: z.string(),
  client: ClientSummary,
  scopes: z.array(ScopeChoiceSchema),
  expiresAt: z.string(),
});

/** Approve with these scopes; without `scopes`, every requested scope the role can use. */
export const ApproveBody = z.object({ scopes: z.array(scopeName).max(50).optional() }).strict();

export const RequestIdParams = z.object({ id: z.string().min(1).max(200) });
export const UserCodeParams = z.object({ userCode: z.string().min(1).max(40) });

export const ConnectionSchema = z.object({
  id: z.string(),
  client: ClientSummary,
  scopes: z.array(z.string()),
  renewedAt: z.string(),
  expiresAt: z.string(),
});
