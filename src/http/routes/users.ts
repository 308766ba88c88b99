import { RecoveryLinkResult } from '../../schemas/auth.js';
import { ListUsersQuerySchema, UpdateUserBody, UserIdParams, UserListSchema, UserSchema } from '../../schemas/users.js';
import { SIGN_IN } from '../../services/holds.js';
import { type Api, op } from '../op.js';

/** Routes of the spec's "Users" table (Admin role), plus the hidden recovery-link route. */
export function usersRoutes(api: Api): void {
  const tags = ['Users'];

  op(
    api,
    {
      method: 'get',
      path: '/admin/users',
      operationId: 'listUsers',
      summary: 'List users (cursor-paginated, searchable by email or name)',
      tags,
      query: ListUsersQuerySchema,
      response: UserListSchema,
    },
    async ({ actor, services, query }) => services.users.admin.list(actor, query),
  );
  op(
    api,
    {
      method: 'get',
      path: '/admin/users/{id}',
      operationId: 'getUser',
      summary: 'Get a user',
      tags,
      params: UserIdParams,
      response: UserSchema,
    },
    async ({ actor, services, params }) => services.users.admin.get(actor, params.id),
  );
  op(
    api,
    {
      method: 'put',
      path: '/admin/users/{id}',
      operationId: 'updateUser',
      errors: {
        403: 'Nobody can raise their own role (FORBIDDEN)',
        409: 'The last enabled Admin would lose the role (LAST_ADMIN)',
      },
      summary: "Change a user's name or role",
      description:
        'Nobody raises their own role or gives a role above their own; the last enabled Admin cannot be demoted (409 LAST_ADMIN).',
      tags,
      params: UserIdParams,
      body: UpdateUserBody,
      response: UserSchema,
    },
    async ({ actor, services, params, body }) => services.users.admin.update(actor, params.id, body),
  );
  op(
    api,
    {
      method: 'post',
      path: '/admin/users/{id}/disable',
      operationId: 'disableUser',
      errors: { 409: 'The last enabled Admin cannot be disabled (LAST_ADMIN)' },
      summary: 'Disable a user: their sessions end and their tokens stop working at once',
      description: 'The last enabled Admin cannot be disabled (409 LAST_ADMIN).',
      tags,
      params: UserIdParams,
      response: UserSchema,
    },
    async ({ actor, services, params }) => services.users.admin.disable(actor, params.id),
  );
  op(
    api,
    {
      method: 'post',
      path: '/admin/users/{id}/enable',
      operationId: 'enableUser',
      summary: 'Enable a disabled user',
      tags,
      params: UserIdParams,
      response: UserSchema,
    },
    async ({ actor, services, params }) => services.users.admin.enable(actor, params.id),
  );
  op(
    api,
    {
      method: 'post',
      path: '/admin/users/{id}/recovery-link',
      operationId: 'sendRecoveryLink',
      summary: 'Send a recovery magic link (returned to copy when email is not configured)',
      tags,
      hidden: true,
      openDuring: SIGN_IN,
      params: UserIdParams,
      response: RecoveryLinkResult,
    },
    async ({ actor, services, params }) => services.auth.magicLinks.recovery(actor, params.id),
  );
}
