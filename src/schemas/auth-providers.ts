import { z } from '@hono/zod-openapi';

/**
 * Shapes of the login-provider routes (served, left out of the OpenAPI
 * document like every sign-in route; see docs/auth-contract.md).
 */
const providerId = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'expected a provider id such as "github"');

export const ProviderParams = z.object({ provider: providerId });
export const IdentityParams = z.object({ provider: providerId, subject: z.string().min(1).max(500) });

const Descriptor = z.object({
  id: z.string(),
  label: z.string(),
  adminEntry: z.string(),
  routes: z.array(z.object({ pattern: z.string(), entrypoint: z.string() })),
  publicRoutes: z.array(z.string()),
  storage: z.array(z.string()),
});

export const ProviderItem = z.object({
  id: z.string(),
  label: z.string(),
  kind: z.enum(['button', 'form']),
  callbackUrl: z.string().optional().openapi({ description: 'Admins only: the URL to register with the provider' }),
  credentialsSet: z.boolean().optional(),
  descriptor: Descriptor.optional(),
});
export const ProvidersResult = z.object({ items: z.array(ProviderItem) });

/** What a form provider asks for (an AT Protocol handle). */
const input = z.string().max(300).nullish();

export const ProviderStartBody = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('login'), input }).strict(),
  z.object({ intent: z.literal('link'), input }).strict(),
  z.object({ intent: z.literal('invite'), token: z.string().min(16).max(200), input }).strict(),
  z
    .object({
      intent: z.literal('setup'),
      siteTitle: z.string().min(1).max(200),
      tagline: z.string().max(500).nullish(),
      name: z.string().max(200).nullish(),
      // The wizard's address, used when the provider gives none (AT Protocol).
      email: z.string().max(320).nullish(),
      input,
    })
    .strict(),
]);
export const ProviderStartResult = z.object({
  url: z.string().openapi({ description: "Send the browser here (the provider's sign-in page)" }),
});

export const LinkedIdentity = z.object({
  provider: z.string(),
  label: z.string(),
  subject: z.string(),
  address: z.string().nullable(),
  handle: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export const IdentitiesResult = z.object({ items: z.array(LinkedIdentity) });
