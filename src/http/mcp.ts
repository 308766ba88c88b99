import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { bearerFrom } from '../auth/tokens.js';
import type { CmsConfig } from '../core/config.js';
import { createMcpServer } from '../mcp/server.js';
import type { AppEnv } from './env.js';
import { withRequestId } from './middleware/request.js';

export const MCP_PATH = '/_cms/api/mcp';

const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/** Where clients discover how to get a token (RFC 9728). */
export function resourceMetadataUrl(config: CmsConfig): string {
  return `${config.publicUrl}/.well-known/oauth-protected-resource`;
}

/**
 * The MCP endpoint: JSON-RPC over stateless Streamable HTTP, Bearer tokens
 * only (a session cookie does not authenticate it). A fresh server and
 * transport serve each POST; GET and DELETE (streams, sessions) are 405.
 */
export function mcpRoutes(app: Hono<AppEnv>, config: CmsConfig): void {
  const unauthorized = (c: Context<AppEnv>, message: string) =>
    c.json(rpcError(-32001, message), 401, {
      'WWW-Authenticate': `Bearer resource_metadata="${resourceMetadataUrl(config)}"`,
    });

  app.post(
    MCP_PATH,
    bodyLimit({
      // Tool arguments may carry base64 uploads: allow the upload limit plus its encoding overhead.
      maxSize: Math.ceil(config.maxUploadSize * 1.4) + 1024 * 1024,
      onError: (c) => c.json(rpcError(-32600, 'Request body too large'), 413),
    }),
    async (c) => {
      const token = bearerFrom(c.req.header('authorization'));
      if (!token) return unauthorized(c, 'A Bearer token is required');
      const services = c.get('services');
      const actor = await services.tokens.authenticate(token);
      if (!actor) return unauthorized(c, 'Invalid, expired or revoked token');
      const log = c.get('log');
      const server = createMcpServer(services, actor, log);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      try {
        await server.connect(transport);
        return withRequestId(c, await transport.handleRequest(c.req.raw));
      } catch (err) {
        log.error({ err }, 'MCP transport failure');
        return c.json(rpcError(-32603, 'Internal error'), 500);
      } finally {
        await server.close().catch(() => {});
      }
    },
  );
  const notAllowed = (c: Context<AppEnv>) =>
    c.json(rpcError(-32000, 'Method not allowed: this endpoint is stateless; use POST'), 405, { Allow: 'POST' });
  app.get(MCP_PATH, notAllowed);
  app.delete(MCP_PATH, notAllowed);
}
