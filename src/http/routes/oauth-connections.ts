import { oauthDisconnect, oauthListConnections } from '../../operations/oauth.js';
import { type Api, route } from '../op.js';

/** The signed-in user's connected OAuth applications, and disconnecting one (hidden from OpenAPI). */
export function oauthConnectionRoutes(api: Api): void {
  const tags = ['OAuth'];
  route(api, {
    operation: oauthListConnections,
    method: 'get',
    path: '/oauth/connections',
    summary: 'Applications the caller has let in (live OAuth grants)',
    tags,
    hidden: true,
  });
  route(api, {
    operation: oauthDisconnect,
    method: 'delete',
    path: '/oauth/connections/{id}',
    summary: 'Disconnect an application: revoke every token of that grant',
    tags,
    hidden: true,
  });
}
