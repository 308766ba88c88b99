import { z } from '@hono/zod-openapi';
import { MeResult, MethodsResult } from '../../schemas/auth.js';
import { SIGN_IN } from '../../services/holds.js';
import { publicWrite } from '../middleware/session.js';
import { type Api, op } from '../op.js';
import { clearSessionCookie, currentSessionId } from '../session-cookie.js';

/** Who is signed in, sign-out, and the sign-in methods the site offers (hidden from OpenAPI). */
export function authSessionRoutes(api: Api): void {
  const tags = ['Auth'];
  api.use('/auth/logout', publicWrite());

  op(
    api,
    {
      method: 'get',
      path: '/auth/me',
      operationId: 'authMe',
      summary: 'The signed-in user and the site',
      tags,
      hidden: true,
      response: MeResult,
    },
    async ({ actor, services }) => services.auth.me(actor),
  );
  op(
    api,
    {
      method: 'post',
      path: '/auth/logout',
      operationId: 'authLogout',
      summary: 'Sign out: delete the session and clear the cookie',
      tags,
      openDuring: SIGN_IN,
      hidden: true,
      response: z.object({ signedOut: z.literal(true) }),
    },
    async ({ services, c }) => {
      await services.auth.sessions.revoke(currentSessionId(c));
      clearSessionCookie(c);
      return { signedOut: true as const };
    },
  );
  op(
    api,
    {
      method: 'get',
      path: '/auth/methods',
      operationId: 'authMethods',
      summary: 'Sign-in methods this site offers',
      tags,
      hidden: true,
      public: true,
      response: MethodsResult,
    },
    async ({ services }) => services.auth.methods(),
  );
}
