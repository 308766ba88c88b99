import { z } from '@hono/zod-openapi';
import { CreateTokenBody, IdParams, ScopeList, TokenListQuery, TokenRecordSchema } from '../../schemas/auth.js';
import { type Api, op } from '../op.js';

/** Personal access tokens of the signed-in user; Admins may list and revoke others' (hidden from OpenAPI). */
export function authTokenRoutes(api: Api): void {
  const tags = ['Tokens'];

  op(
    api,
    {
      method: 'get',
      path: '/auth/tokens',
      operationId: 'listTokens',
      summary: 'Active tokens of the caller (or, for Admins, of ?userId=)',
      tags,
      hidden: true,
      query: TokenListQuery,
      response: z.object({ items: z.array(TokenRecordSchema) }),
    },
    async ({ actor, services, query }) => ({ items: await services.auth.tokens.list(actor, query.userId) }),
  );
  op(
    api,
    {
      method: 'post',
      path: '/auth/tokens',
      operationId: 'createToken',
      summary: 'Create a token with chosen scopes (never beyond the role); the secret is shown once',
      tags,
      hidden: true,
      body: CreateTokenBody,
      response: z.object({ token: z.string(), record: TokenRecordSchema }),
      status: 201,
    },
    async ({ actor, services, body }) => services.auth.tokens.create(actor, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: '/auth/tokens/{id}',
      operationId: 'revokeToken',
      summary: 'Revoke a token',
      tags,
      hidden: true,
      params: IdParams,
      response: z.object({ revoked: z.literal(true) }),
    },
    async ({ actor, services, params }) => {
      await services.auth.tokens.revoke(actor, params.id);
      return { revoked: true as const };
    },
  );
  op(
    api,
    {
      method: 'get',
      path: '/auth/scopes',
      operationId: 'listScopes',
      summary: 'Token scopes and whether the caller may use each',
      tags,
      hidden: true,
      response: ScopeList,
    },
    async ({ actor, services }) => ({ items: services.auth.tokens.scopes(actor) }),
  );
}
