import type { ServiceContext } from './context.js';
import { createSchemaService } from './schema/index.js';
import { createTokensService } from './tokens/index.js';
import { createUsersService } from './users/index.js';

/** Every domain service, built once per process from one context. */
export function createServices(ctx: ServiceContext) {
  return {
    users: createUsersService(ctx),
    tokens: createTokensService(ctx),
    schema: createSchemaService(ctx),
  };
}

export type Services = ReturnType<typeof createServices>;
