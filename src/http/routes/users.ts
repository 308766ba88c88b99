import { disableUser, enableUser, getUser, listUsers, sendRecoveryLink, updateUser } from '../../operations/users.js';
import { type Api, route } from '../op.js';

/** Routes of the spec's "Users" table (Admin role), plus the hidden recovery-link route (operations: operations/users.ts). */
export function usersRoutes(api: Api): void {
  const tags = ['Users'];

  route(api, {
    operation: listUsers,
    method: 'get',
    path: '/admin/users',
    summary: 'List users (cursor-paginated, searchable by email or name)',
    tags,
  });
  route(api, { operation: getUser, method: 'get', path: '/admin/users/{id}', summary: 'Get a user', tags });
  route(api, {
    operation: updateUser,
    method: 'put',
    path: '/admin/users/{id}',
    errors: {
      403: 'Nobody can raise their own role (FORBIDDEN)',
      409: 'The last enabled Admin would lose the role (LAST_ADMIN)',
    },
    summary: "Change a user's name or role",
    description:
      'Nobody raises their own role or gives a role above their own; the last enabled Admin cannot be demoted (409 LAST_ADMIN).',
    tags,
  });
  route(api, {
    operation: disableUser,
    method: 'post',
    path: '/admin/users/{id}/disable',
    errors: { 409: 'The last enabled Admin cannot be disabled (LAST_ADMIN)' },
    summary: 'Disable a user: their sessions end and their tokens stop working at once',
    description: 'The last enabled Admin cannot be disabled (409 LAST_ADMIN).',
    tags,
  });
  route(api, {
    operation: enableUser,
    method: 'post',
    path: '/admin/users/{id}/enable',
    summary: 'Enable a disabled user',
    tags,
  });
  route(api, {
    operation: sendRecoveryLink,
    method: 'post',
    path: '/admin/users/{id}/recovery-link',
    summary: 'Send a recovery magic link (returned to copy when email is not configured)',
    tags,
    hidden: true,
  });
}
