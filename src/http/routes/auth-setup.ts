import { setupOptions, setupStatus } from '../../operations/auth.js';
import { asRegistration, SetupCompleteBody, SignedIn } from '../../schemas/auth.js';
import { publicWrite } from '../middleware/session.js';
import { type Api, op, route } from '../op.js';
import { currentSessionId, signedIn } from '../session-cookie.js';

/** First user setup (hidden from OpenAPI): open only while the site has no user. */
export function authSetupRoutes(api: Api): void {
  const tags = ['Setup'];
  api.use('/setup/options', publicWrite());
  api.use('/setup/complete', publicWrite());

  route(api, {
    operation: setupStatus,
    method: 'get',
    path: '/setup/status',
    summary: 'Whether the site still needs its first user',
    tags,
    hidden: true,
    public: true,
  });
  route(api, {
    operation: setupOptions,
    method: 'post',
    path: '/setup/options',
    summary: 'Site and account details, answered with passkey creation options',
    tags,
    hidden: true,
    public: true,
  });
  op(
    api,
    {
      method: 'post',
      path: '/setup/complete',
      operationId: 'setupComplete',
      summary: 'Create the first user (an Admin) with the passkey, and sign in',
      tags,
      hidden: true,
      public: true,
      body: SetupCompleteBody,
      response: SignedIn,
    },
    async ({ services, body, c }) =>
      signedIn(
        c,
        await services.auth.setup.complete(
          { setupToken: body.setupToken, credential: asRegistration(body.credential), passkeyName: body.passkeyName },
          currentSessionId(c),
        ),
      ),
  );
}
