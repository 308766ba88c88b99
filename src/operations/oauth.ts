import { z } from '@hono/zod-openapi';
import {
  ApproveBody,
  ConnectionSchema,
  ConsentViewSchema,
  DeviceViewSchema,
  RequestIdParams,
  UserCodeParams,
} from '../schemas/oauth.js';
import { SIGN_IN } from '../services/holds.js';
import { operation } from './operation.js';

/** The OAuth operations of the catalogue. */
export const oauthConsentView = operation({
  id: 'oauthConsentView',
  params: RequestIdParams,
  output: ConsentViewSchema,
  writes: false,
  scope: null,
  run: async ({ actor, services }, { params }) => services.oauth.consent.view(actor, params.id),
});

export const oauthConsentApprove = operation({
  id: 'oauthConsentApprove',
  params: RequestIdParams,
  body: ApproveBody,
  output: z.object({ redirectTo: z.string(), scopes: z.array(z.string()) }),
  writes: true,
  openDuring: SIGN_IN,
  scope: null,
  run: async ({ actor, services }, { params, body }) => services.oauth.consent.approve(actor, params.id, body.scopes),
});

export const oauthConsentDeny = operation({
  id: 'oauthConsentDeny',
  params: RequestIdParams,
  output: z.object({ redirectTo: z.string() }),
  writes: true,
  openDuring: SIGN_IN,
  scope: null,
  run: async ({ actor, services }, { params }) => services.oauth.consent.deny(actor, params.id),
});

export const oauthDeviceView = operation({
  id: 'oauthDeviceView',
  params: UserCodeParams,
  output: DeviceViewSchema,
  writes: false,
  scope: null,
  run: async ({ actor, services }, { params }) => services.oauth.device.view(actor, params.userCode),
});

export const oauthDeviceApprove = operation({
  id: 'oauthDeviceApprove',
  params: UserCodeParams,
  body: ApproveBody,
  output: z.object({ approved: z.literal(true), scopes: z.array(z.string()) }),
  writes: true,
  openDuring: SIGN_IN,
  scope: null,
  run: async ({ actor, services }, { params, body }) =>
    services.oauth.device.approve(actor, params.userCode, body.scopes),
});

export const oauthDeviceDeny = operation({
  id: 'oauthDeviceDeny',
  params: UserCodeParams,
  output: z.object({ denied: z.literal(true) }),
  writes: true,
  openDuring: SIGN_IN,
  scope: null,
  run: async ({ actor, services }, { params }) => services.oauth.device.deny(actor, params.userCode),
});

export const oauthListConnections = operation({
  id: 'oauthListConnections',
  output: z.object({ items: z.array(ConnectionSchema) }),
  writes: false,
  scope: null,
  run: async ({ actor, services }) => ({ items: await services.oauth.connections.list(actor) }),
});

export const oauthDisconnect = operation({
  id: 'oauthDisconnect',
  params: RequestIdParams,
  output: z.object({ disconnected: z.literal(true) }),
  writes: true,
  scope: null,
  run: async ({ actor, services }, { params }) => {
    await services.oauth.connections.disconnect(actor, params.id);
    return { disconnected: true as const };
  },
});
