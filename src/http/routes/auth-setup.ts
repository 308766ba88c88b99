import {
  asRegistration,
  SetupCompleteBody,
  SetupOptionsBody,
  SetupOptionsResult,
  SetupStatus,
  SignedIn,
} from '../../schemas/auth.js';
import { publicWrite } from '../middleware/session.js';
import { type Api, op } from '../op.js';
import { currentSessionId, signedIn } from '../session-cookie.js';

/** First user setup (hidden from OpenAPI): open only while the site has no user. */
export function authSetupRoutes(api: Api): void {
  const tags = ['Setup'];
  api.use('/setup/options', publicWrite());
  api.use('/setup/complete', publicWrite());

  op(
    api,
    {
      method: 'get',
      path: '/setup/status',
      operationId: 'setupStatus',
      summary: 'Whether the site still needs its first user',
      tags,
      hidden: true,
      public: true,
      response: SetupStatus,
    },
    async ({ services }) => services.auth.setup.status(),
  );
  op(
    api,
    {
      method: 'post',
      path: '/setup/options',
      operationId: 'setupOptions',
      summary: 'Site and account details, answered with passkey creation options',
      tags,
      hidden: true,
      public: true,
      body: SetupOptionsBody,
      response: SetupOptionsResult,
    },
    async ({ services, body }) => services.auth.setup.options(body),
  );
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
