import { createToken, listScopes, listTokens, revokeToken } from '../../operations/auth.js';
import { type Api, route } from '../op.js';

/** Personal access tokens of the signed-in user; Admins may list and revoke others' (hidden from OpenAPI). */
export function authTokenRoutes(api: Api): void {
  const tags = ['Tokens'];

  route(api, {
    operation: listTokens,
    method: 'get',
    path: '/auth/tokens',
    summary: 'Active tokens of the caller (or, for Admins, of ?userId=)',
    tags,
    hidden: true,
  });
  route(api, {
    operation: createToken,
    method: 'post',
    path: '/auth/tokens',
    summary: 'Create a token with chosen scopes (never beyond the role); the secret is shown once',
    tags,
    hidden: true,
    status: 201,
  });
  route(api, {
    operation: revokeToken,
    method: 'delete',
    path: '/auth/tokens/{id}',
    summary: 'Revoke a token',
    tags,
    hidden: true,
  });
  route(api, {
    operation: listScopes,
    method: 'get',
    path: '/auth/scopes',
    summary: 'Token scopes and whether the caller may use each',
    tags,
    hidden: true,
  });
}
