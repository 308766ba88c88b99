import { getSignup, requestSignup, signupOptions } from '../../operations/auth.js';
import { asEnrolment, EnrolBody, SignedIn } from '../../schemas/auth.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { publicWrite } from '../middleware/session.js';
import { type Api, op, route } from '../op.js';
import { currentSessionId, signedIn } from '../session-cookie.js';

/** Sign-up with an allowed email domain, through a verification mail (hidden from OpenAPI). */
export function authSignupRoutes(api: Api): void {
  const tags = ['Auth'];
  api.use('/auth/signup/request', publicWrite(), rateLimit('signupRequest'));
  api.use('/auth/signup/options', publicWrite());
  api.use('/auth/signup/complete', publicWrite());

  route(api, {
    operation: requestSignup,
    method: 'post',
    path: '/auth/signup/request',
    summary: 'Mail a verification link (always answers sent: true; 3 per 5 minutes per client IP)',
    tags,
    hidden: true,
    public: true,
  });
  route(api, {
    operation: getSignup,
    method: 'get',
    path: '/auth/signup/{token}',
    summary: 'What a verification link is for (404 when used or expired)',
    tags,
    hidden: true,
    public: true,
  });
  route(api, {
    operation: signupOptions,
    method: 'post',
    path: '/auth/signup/options',
    summary: 'Passkey creation options for a verified sign-up',
    tags,
    hidden: true,
    public: true,
  });
  op(
    api,
    {
      method: 'post',
      path: '/auth/signup/complete',
      operationId: 'completeSignup',
      summary: "Create the account (the domain's default role) with the passkey and sign in",
      tags,
      hidden: true,
      public: true,
      body: EnrolBody,
      response: SignedIn,
    },
    async ({ services, body, c }) =>
      signedIn(c, await services.auth.signup.complete(asEnrolment(body), currentSessionId(c))),
  );
}
