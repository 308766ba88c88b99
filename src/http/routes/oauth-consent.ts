import {
  oauthConsentApprove,
  oauthConsentDeny,
  oauthConsentView,
  oauthDeviceApprove,
  oauthDeviceDeny,
  oauthDeviceView,
} from '../../operations/oauth.js';
import { type Api, route } from '../op.js';

/**
 * What the admin app's consent and device pages call (hidden from OpenAPI).
 * Session only: a person approves or denies in the browser, never a token.
 */
export function oauthConsentRoutes(api: Api): void {
  const tags = ['OAuth'];
  const hidden = true;

  route(api, {
    operation: oauthConsentView,
    method: 'get',
    path: '/oauth/requests/{id}',
    summary: 'An authorization request waiting for consent',
    tags,
    hidden,
  });
  route(api, {
    operation: oauthConsentApprove,
    method: 'post',
    path: '/oauth/requests/{id}/approve',
    errors: { 403: 'Applications are approved from a signed-in session, not with a token (FORBIDDEN)' },
    summary: 'Approve with the chosen scopes; answers where to send the browser',
    tags,
    hidden,
  });
  route(api, {
    operation: oauthConsentDeny,
    method: 'post',
    path: '/oauth/requests/{id}/deny',
    errors: { 403: 'Applications are approved from a signed-in session, not with a token (FORBIDDEN)' },
    summary: 'Deny; answers where to send the browser',
    tags,
    hidden,
  });
  route(api, {
    operation: oauthDeviceView,
    method: 'get',
    path: '/oauth/device/verify/{userCode}',
    summary: 'A pending device authorization, by its user code',
    tags,
    hidden,
  });
  route(api, {
    operation: oauthDeviceApprove,
    method: 'post',
    path: '/oauth/device/verify/{userCode}/approve',
    errors: { 403: 'Devices are approved from a signed-in session, not with a token (FORBIDDEN)' },
    summary: 'Approve a device with the chosen scopes',
    tags,
    hidden,
  });
  route(api, {
    operation: oauthDeviceDeny,
    method: 'post',
    path: '/oauth/device/verify/{userCode}/deny',
    errors: { 403: 'Devices are approved from a signed-in session, not with a token (FORBIDDEN)' },
    summary: 'Deny a device',
    tags,
    hidden,
  });
}
