import { createAuthService } from './auth/index.js';
import { createContentService } from './content/index.js';
import type { ServiceContext } from './context.js';
import { createOAuthService } from './oauth/index.js';
import { createSchemaService } from './schema/index.js';
import { createTokensService } from './tokens/index.js';
import { createUsersService } from './users/index.js';

/** Every domain service, built once per process from one context. */
export function createServices(ctx: ServiceContext) {
  const users = createUsersService(ctx);
  const tokens = createTokensService(ctx);
  const schema = createSchemaService(ctx);
  // A role change or a disable must not be served from the token cache of this process.
  users.onAccessChange(() => tokens.invalidate());
  return {
    users,
    tokens,
    auth: createAuthService(ctx, { users, tokens }),
    schema,
    content: createContentService(ctx, schema),
    oauth: createOAuthService(ctx, { tokens }),
  };
}

export type Services = ReturnType<typeof createServices>;
