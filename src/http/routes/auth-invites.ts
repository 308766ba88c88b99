import { z } from '@hono/zod-openapi';
import {
  asEnrolment,
  ChallengeResult,
  CreateInviteBody,
  CreateInviteResult,
  EnrolBody,
  IdParams,
  InviteLookup,
  InviteSchema,
  SignedIn,
  TokenBody,
  TokenParams,
} from '../../schemas/auth.js';
import { publicWrite } from '../middleware/session.js';
import { type Api, op } from '../op.js';
import { currentSessionId, signedIn } from '../session-cookie.js';

/** Invites: managed by Admins, accepted by the invitee with a passkey (hidden from OpenAPI). */
export function authInviteRoutes(api: Api): void {
  const tags = ['Invites'];
  api.use('/auth/invite/options', publicWrite());
  api.use('/auth/invite/accept', publicWrite());

  op(
    api,
    {
      method: 'get',
      path: '/admin/invites',
      operationId: 'listInvites',
      summary: 'Pending invitations',
      tags,
      hidden: true,
      response: z.object({ items: z.array(InviteSchema) }),
    },
    async ({ actor, services }) => ({ items: await services.auth.invites.list(actor) }),
  );
  op(
    api,
    {
      method: 'post',
      path: '/admin/invites',
      operationId: 'createInvite',
      summary: 'Invite someone by email and role (mailed when email is configured, else the link is returned)',
      tags,
      hidden: true,
      body: CreateInviteBody,
      response: CreateInviteResult,
      status: 201,
    },
    async ({ actor, services, body }) => services.auth.invites.create(actor, body),
  );
  op(
    api,
    {
      method: 'delete',
      path: '/admin/invites/{id}',
      operationId: 'deleteInvite',
      summary: 'Withdraw an invitation',
      tags,
      hidden: true,
      params: IdParams,
      response: z.object({ deleted: z.literal(true) }),
    },
    async ({ actor, services, params }) => {
      await services.auth.invites.revoke(actor, params.id);
      return { deleted: true as const };
    },
  );

  op(
    api,
    {
      method: 'get',
      path: '/auth/invite/{token}',
      operationId: 'getInvite',
      summary: 'What an invitation is for (404 when used or expired)',
      tags,
      hidden: true,
      public: true,
      params: TokenParams,
      response: InviteLookup,
    },
    async ({ services, params }) => services.auth.invites.lookup(params.token),
  );
  op(
    api,
    {
      method: 'post',
      path: '/auth/invite/options',
      operationId: 'inviteOptions',
      summary: 'Passkey creation options for an invitation',
      tags,
      hidden: true,
      public: true,
      body: TokenBody,
      response: ChallengeResult,
    },
    async ({ services, body }) => services.auth.invites.acceptOptions(body.token),
  );
  op(
    api,
    {
      method: 'post',
      path: '/auth/invite/accept',
      operationId: 'acceptInvite',
      summary: 'Create the account with the passkey and sign in',
      tags,
      hidden: true,
      public: true,
      body: EnrolBody,
      response: SignedIn,
    },
    async ({ services, body, c }) =>
      signedIn(c, await services.auth.invites.accept(asEnrolment(body), currentSessionId(c))),
  );
}
