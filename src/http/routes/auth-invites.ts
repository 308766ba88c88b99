import { createInvite, deleteInvite, getInvite, inviteOptions, listInvites } from '../../operations/auth.js';
import { asEnrolment, EnrolBody, SignedIn } from '../../schemas/auth.js';
import { publicWrite } from '../middleware/session.js';
import { type Api, op, route } from '../op.js';
import { currentSessionId, signedIn } from '../session-cookie.js';

/** Invites: managed by Admins, accepted by the invitee with a passkey (hidden from OpenAPI). */
export function authInviteRoutes(api: Api): void {
  const tags = ['Invites'];
  api.use('/auth/invite/options', publicWrite());
  api.use('/auth/invite/accept', publicWrite());

  route(api, {
    operation: listInvites,
    method: 'get',
    path: '/admin/invites',
    summary: 'Pending invitations',
    tags,
    hidden: true,
  });
  route(api, {
    operation: createInvite,
    method: 'post',
    path: '/admin/invites',
    summary: 'Invite someone by email and role (mailed when email is configured, else the link is returned)',
    tags,
    hidden: true,
    status: 201,
  });
  route(api, {
    operation: deleteInvite,
    method: 'delete',
    path: '/admin/invites/{id}',
    summary: 'Withdraw an invitation',
    tags,
    hidden: true,
  });

  route(api, {
    operation: getInvite,
    method: 'get',
    path: '/auth/invite/{token}',
    summary: 'What an invitation is for (404 when used or expired)',
    tags,
    hidden: true,
    public: true,
  });
  route(api, {
    operation: inviteOptions,
    method: 'post',
    path: '/auth/invite/options',
    summary: 'Passkey creation options for an invitation',
    tags,
    hidden: true,
    public: true,
  });
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
