import { z } from '@hono/zod-openapi';
import {
  AddPasskeyBody,
  asAuthentication,
  asRegistration,
  ChallengeResult,
  EmptyBody,
  IdParams,
  PasskeySchema,
  PasskeyVerifyBody,
  RenamePasskeyBody,
  SignedIn,
} from '../../schemas/auth.js';
import { SIGN_IN } from '../../services/holds.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { publicWrite } from '../middleware/session.js';
import { type Api, op } from '../op.js';
import { currentSessionId, signedIn } from '../session-cookie.js';

/** Passkey sign-in and the signed-in user's passkeys (hidden from OpenAPI). */
export function authPasskeyRoutes(api: Api): void {
  const tags = ['Auth'];
  api.use('/auth/passkey/options', publicWrite(), rateLimit('passkeyOptions'));
  api.use('/auth/passkey/verify', publicWrite());

  op(
    api,
    {
      method: 'post',
      path: '/auth/passkey/options',
      operationId: 'passkeySignInOptions',
      summary: 'Options for signing in with a passkey (10 per minute per client IP)',
      tags,
      openDuring: SIGN_IN,
      hidden: true,
      public: true,
      body: EmptyBody,
      response: ChallengeResult,
    },
    async ({ services }) => services.auth.passkeys.signInOptions(),
  );
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

  op(
    api,
    {
      method: 'get',
      path: '/auth/passkeys',
      operationId: 'listPasskeys',
      summary: "The signed-in user's passkeys",
      tags,
      hidden: true,
      response: z.object({ items: z.array(PasskeySchema) }),
    },
    async ({ actor, services }) => ({ items: await services.auth.passkeys.list(actor) }),
  );
  op(
    api,
    {
      method: 'post',
      path: '/auth/passkeys/options',
      operationId: 'addPasskeyOptions',
      summary: 'Options for adding a passkey (session only)',
      tags,
      hidden: true,
      body: EmptyBody,
      response: ChallengeResult,
    },
    async ({ actor, services }) => services.auth.passkeys.addOptions(actor),
  );
  op(
    api,
    {
      method: 'post',
      path: '/auth/passkeys',
      operationId: 'addPasskey',
      summary: 'Add a passkey (at most 10 per user)',
      tags,
      hidden: true,
      body: AddPasskeyBody,
      response: z.object({ passkey: PasskeySchema }),
      status: 201,
    },
    async ({ actor, services, body }) => ({
      passkey: await services.auth.passkeys.add(actor, {
        challengeId: body.challengeId,
        credential: asRegistration(body.credential),
        name: body.name,
      }),
    }),
  );
  op(
    api,
    {
      method: 'put',
      path: '/auth/passkeys/{id}',
      operationId: 'renamePasskey',
      summary: 'Rename a passkey',
      tags,
      hidden: true,
      params: IdParams,
      body: RenamePasskeyBody,
      response: z.object({ passkey: PasskeySchema }),
    },
    async ({ actor, services, params, body }) => ({
      passkey: await services.auth.passkeys.rename(actor, params.id, body.name),
    }),
  );
  op(
    api,
    {
      method: 'delete',
      path: '/auth/passkeys/{id}',
      operationId: 'removePasskey',
      summary: 'Remove a passkey (never the last one)',
      tags,
      hidden: true,
      params: IdParams,
      response: z.object({ deleted: z.literal(true) }),
    },
    async ({ actor, services, params }) => {
      await services.auth.passkeys.remove(actor, params.id);
      return { deleted: true as const };
    },
  );
}
