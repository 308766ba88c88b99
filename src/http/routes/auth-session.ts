import { z } from '@hono/zod-openapi';
import { authMe, authMethods } from '../../operations/auth.js';
import { SIGN_IN } from '../../services/holds.js';
import { publicWrite } from '../middleware/session.js';
import { type Api, op, route } from '../op.js';
import { clearSessionCookie, currentSessionId } from '../session-cookie.js';

/** Who is signed in, sign-out, and the sign-in methods the site offers (hidden from OpenAPI). */
export function authSessionRoutes(api: Api): void {
  const tags = ['Auth'];
  api.use('/auth/logout', publicWrite());

  route(api, {
    operation: authMe,
    method: 'get',
    path: '/auth/me',
    summary: 'The signed-in user and the site',
    tags,
    hidden: true,
  });
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
  route(api, {
    operation: authMethods,
    method: 'get',
    path: '/auth/methods',
    summary: 'Sign-in methods this site offers',
    tags,
    hidden: true,
    public: true,
  });
}
