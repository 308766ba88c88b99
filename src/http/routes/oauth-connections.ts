import { z } from '@hono/zod-openapi';
import { ConnectionSchema, RequestIdParams } from '../../schemas/oauth.js';
import { type Api, op } from '../op.js';

/** The signed-in user's connected OAuth applications, and disconnecting one (hidden from OpenAPI). */
export function oauthConnectionRoutes(api: Api): void {
  const tags = ['OAuth'];
  op(
    api,
    {
      method: 'get',
      path: '/oauth/connections',
      operationId: 'oauthListConnections',
      summary: 'Applications the caller has let in (live OAuth grants)',
      tags,
      hidden: true,
      response: z.object({ items: z.array(ConnectionSchema) }),
    },
    async ({ actor, services }) => ({ items: await services.oauth.connections.list(actor) }),
  );
  op(
    api,
    {
      method: 'delete',
      path: '/oauth/connections/{id}',
      operationId: 'oauthDisconnect',
      summary: 'Disconnect an application: revoke every token of that grant',
      tags,
      hidden: true,
      params: RequestIdParams,
      response: z.object({ disconnected: z.literal(true) }),
    },
    async ({ actor, services, params }) => {
      await services.oauth.connections.disconnect(actor, params.id);
      return { disconnected: true as const };
    },
  );
}
