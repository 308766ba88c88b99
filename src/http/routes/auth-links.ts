import { sendMagicLink } from '../../operations/auth.js';
import { SignedIn, TokenBody } from '../../schemas/auth.js';
import { SIGN_IN } from '../../services/holds.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { publicWrite } from '../middleware/session.js';
import { type Api, op, route } from '../op.js';
import { currentSessionId, signedIn } from '../session-cookie.js';

/** Magic links (hidden from OpenAPI). The mailed link opens an admin page; only the POST below uses it. */
export function authMagicLinkRoutes(api: Api): void {
  const tags = ['Auth'];
  api.use('/auth/magic-link/send', publicWrite(), rateLimit('magicLinkSend'));
  api.use('/auth/magic-link/consume', publicWrite());

  route(api, {
    operation: sendMagicLink,
    method: 'post',
    path: '/auth/magic-link/send',
    summary: 'Mail a sign-in link (always answers sent: true; 3 per 5 minutes per client IP)',
    tags,
    hidden: true,
    public: true,
  });
  op(
    api,
    {
      method: 'post',
      path: '/auth/magic-link/consume',
      operationId: 'consumeMagicLink',
      summary: 'Use a magic link (the Continue button of the confirmation page) and sign in',
      tags,
      openDuring: SIGN_IN,
      hidden: true,
      public: true,
      body: TokenBody,
      response: SignedIn,
    },
    async ({ services, body, c }) =>
      signedIn(c, await services.auth.magicLinks.consume(body.token, currentSessionId(c))),
  );
}
