import {
  addPasskey,
  addPasskeyOptions,
  listPasskeys,
  passkeySignInOptions,
  removePasskey,
  renamePasskey,
} from '../../operations/auth.js';
import { asAuthentication, PasskeyVerifyBody, SignedIn } from '../../schemas/auth.js';
import { SIGN_IN } from '../../services/holds.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { publicWrite } from '../middleware/session.js';
import { type Api, op, route } from '../op.js';
import { currentSessionId, signedIn } from '../session-cookie.js';

/** Passkey sign-in and the signed-in user's passkeys (hidden from OpenAPI). */
export function authPasskeyRoutes(api: Api): void {
  const tags = ['Auth'];
  api.use('/auth/passkey/options', publicWrite(), rateLimit('passkeyOptions'));
  api.use('/auth/passkey/verify', publicWrite());

  route(api, {
    operation: passkeySignInOptions,
    method: 'post',
    path: '/auth/passkey/options',
    summary: 'Options for signing in with a passkey (10 per minute per client IP)',
    tags,
    hidden: true,
    public: true,
  });
  op(
    api,
    {
      method: 'post',
      path: '/auth/passkey/verify',
      operationId: 'passkeySignIn',
      summary: 'Sign in with a passkey assertion',
      tags,
      openDuring: SIGN_IN,
      hidden: true,
      public: true,
      body: PasskeyVerifyBody,
      response: SignedIn,
    },
    async ({ services, body, c }) =>
      signedIn(
        c,
        await services.auth.passkeys.signIn(
          { challengeId: body.challengeId, credential: asAuthentication(body.credential) },
          currentSessionId(c),
        ),
      ),
  );

  route(api, {
    operation: listPasskeys,
    method: 'get',
    path: '/auth/passkeys',
    summary: "The signed-in user's passkeys",
    tags,
    hidden: true,
  });
  route(api, {
    operation: addPasskeyOptions,
    method: 'post',
    path: '/auth/passkeys/options',
    summary: 'Options for adding a passkey (session only)',
    tags,
    hidden: true,
  });
  route(api, {
    operation: addPasskey,
    method: 'post',
    path: '/auth/passkeys',
    summary: 'Add a passkey (at most 10 per user)',
    tags,
    hidden: true,
    status: 201,
  });
  route(api, {
    operation: renamePasskey,
    method: 'put',
    path: '/auth/passkeys/{id}',
    summary: 'Rename a passkey',
    tags,
    hidden: true,
  });
  route(api, {
    operation: removePasskey,
    method: 'delete',
    path: '/auth/passkeys/{id}',
    summary: 'Remove a passkey (never the last one)',
    tags,
    hidden: true,
  });
}
