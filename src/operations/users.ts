import { RecoveryLinkResult } from '../schemas/auth.js';
import { ListUsersQuerySchema, UpdateUserBody, UserIdParams, UserListSchema, UserSchema } from '../schemas/users.js';
import { SIGN_IN } from '../services/holds.js';
import { operation } from './operation.js';

/**
 * The user administration operations (spec: "Users" table, Admin role). No MCP
 * tool serves them; a token reaching them needs the `admin` scope. The rules
 * (own role, the last enabled Admin) live in the users service.
 */
const ADMIN = 'admin';

export const listUsers = operation({
  id: 'listUsers',
  query: ListUsersQuerySchema,
  output: UserListSchema,
  writes: false,
  scope: ADMIN,
  run: ({ services, actor }, { query }) => services.users.admin.list(actor, query),
});

export const getUser = operation({
  id: 'getUser',
  params: UserIdParams,
  output: UserSchema,
  writes: false,
  scope: ADMIN,
  run: ({ services, actor }, { params }) => services.users.admin.get(actor, params.id),
});

export const updateUser = operation({
  id: 'updateUser',
  params: UserIdParams,
  body: UpdateUserBody,
  output: UserSchema,
  writes: true,
  scope: ADMIN,
  run: ({ services, actor }, { params, body }) => services.users.admin.update(actor, params.id, body),
});

export const disableUser = operation({
  id: 'disableUser',
  params: UserIdParams,
  output: UserSchema,
  writes: true,
  scope: ADMIN,
  run: ({ services, actor }, { params }) => services.users.admin.disable(actor, params.id),
});

export const enableUser = operation({
  id: 'enableUser',
  params: UserIdParams,
  output: UserSchema,
  writes: true,
  scope: ADMIN,
  run: ({ services, actor }, { params }) => services.users.admin.enable(actor, params.id),
});

/** A recovery magic link for a user (not part of the REST contract); open while sign-in is held, as signing in is. */
export const sendRecoveryLink = operation({
  id: 'sendRecoveryLink',
  params: UserIdParams,
  output: RecoveryLinkResult,
  writes: true,
  openDuring: SIGN_IN,
  scope: ADMIN,
  run: ({ services, actor }, { params }) => services.auth.magicLinks.recovery(actor, params.id),
});
