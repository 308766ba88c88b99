import { z } from '@hono/zod-openapi';
import {
  ApproveBody,
  ConsentViewSchema,
  DeviceViewSchema,
  RequestIdParams,
  UserCodeParams,
} from '../../schemas/oauth.js';
import { SIGN_IN } from '../../services/holds.js';
import { type Api, op } from '../op.js';

/**
 * What the admin app's consent and device pages call (hidden from OpenAPI).
 * Session only: a person approves or denies in the browser, never a token.
 */
export function oauthConsentRoutes(api: Api): void {
  const tags = ['OAuth'];
  const hidden = true;

  op(
    api,
    {
      method: 'get',
      path: '/oauth/requests/{id}',
      operationId: 'oauthConsentView',
      summary: 'An authorization request waiting for consent',
      tags,
      hidden,
      params: RequestIdParams,
      response: ConsentViewSchema,
    },
    async ({ actor, services, params }) => services.oauth.consent.view(actor, params.id),
  );
  op(
    api,
    {
      method: 'post',
      path: '/oauth/requests/{id}/approve',
      operationId: 'oauthConsentApprove',
      errors: { 403: 'Applications are approved from a signed-in session, not with a token (FORBIDDEN)' },
      summary: 'Approve with the chosen scopes; answers where to send the browser',
      tags,
      openDuring: SIGN_IN,
      hidden,
      params: RequestIdParams,
      body: ApproveBody,
      response: z.object({ redirectTo: z.string(), scopes: z.array(z.string()) }),
    },
    async ({ actor, services, params, body }) => services.oauth.consent.approve(actor, params.id, body.scopes),
  );
  op(
    api,
    {
      method: 'post',
      path: '/oauth/requests/{id}/deny',
      operationId: 'oauthConsentDeny',
      errors: { 403: 'Applications are approved from a signed-in session, not with a token (FORBIDDEN)' },
      summary: 'Deny; answers where to send the browser',
      tags,
      openDuring: SIGN_IN,
      hidden,
      params: RequestIdParams,
      response: z.object({ redirectTo: z.string() }),
    },
    async ({ actor, services, params }) => services.oauth.consent.deny(actor, params.id),
  );
  op(
    api,
    {
      method: 'get',
      path: '/oauth/device/verify/{userCode}',
      operationId: 'oauthDeviceView',
      summary: 'A pending device authorization, by its user code',
      tags,
      hidden,
      params: UserCodeParams,
      response: DeviceViewSchema,
    },
    async ({ actor, services, params }) => services.oauth.device.view(actor, params.userCode),
  );
  op(
    api,
    {
      method: 'post',
      path: '/oauth/device/verify/{userCode}/approve',
      operationId: 'oauthDeviceApprove',
      errors: { 403: 'Devices are approved from a signed-in session, not with a token (FORBIDDEN)' },
      summary: 'Approve a device with the chosen scopes',
      tags,
      openDuring: SIGN_IN,
      hidden,
      params: UserCodeParams,
      body: ApproveBody,
      response: z.object({ approved: z.literal(true), scopes: z.array(z.string()) }),
    },
    async ({ actor, services, params, body }) => services.oauth.device.approve(actor, params.userCode, body.scopes),
  );
  op(
    api,
    {
      method: 'post',
      path: '/oauth/device/verify/{userCode}/deny',
      operationId: 'oauthDeviceDeny',
      errors: { 403: 'Devices are approved from a signed-in session, not with a token (FORBIDDEN)' },
      summary: 'Deny a device',
      tags,
      openDuring: SIGN_IN,
      hidden,
      params: UserCodeParams,
      response: z.object({ denied: z.literal(true) }),
    },
    async ({ actor, services, params }) => services.oauth.device.deny(actor, params.userCode),
  );
}
