import type { Context, Hono, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { bearerFrom } from '../auth/tokens.js';
import type { CmsConfig } from '../core/config.js';
import { isCmsError } from '../core/errors.js';
import type { AppEnv } from './env.js';
import { confirmGatewayBearer } from './middleware/edge-access.js';
import { withRequestId } from './middleware/request.js';

export const MCP_PATH = '/_cms/api/mcp';

/** The MCP SDK is loaded on the first MCP request, not at start-up (it is a large module graph). */
let mcpModules: Promise<{
  createMcpServer: typeof import('../mcp/server.js').createMcpServer;
  Transport: typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js').WebStandardStreamableHTTPServerTransport;
}> | null = null;
const loadMcp = () =>
  (mcpModules ??= Promise.all([
    import('../mcp/server.js'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
  ]).then(([server, transport]) => ({
    createMcpServer: server.createMcpServer,
    Transport: transport.WebStandardStreamableHTTPServerTransport,
  })));

const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/** Where clients discover how to get a token (RFC 9728). */
export function resourceMetadataUrl(config: CmsConfig): string {
  return `${config.publicUrl}/.well-known/oauth-protected-resource`;
}

/**
 * The MCP endpoint: JSON-RPC over stateless Streamable HTTP, Bearer tokens
 * only (a session cookie does not authenticate it; behind an edge access
 * gateway the gateway's token of the same user must come along). A fresh server and
 * transport serve each POST; GET and DELETE (streams, sessions) are 405.
 */
export function mcpRoutes(app: Hono<AppEnv>, config: CmsConfig): void {
  const unauthorized = (c: Context<AppEnv>, message: string) =>
    c.json(rpcError(-32001, message), 401, {
      'WWW-Authenticate': `Bearer resource_metadata="${resourceMetadataUrl(config)}"`,
    });

  // The caller is known before a byte of the body is read: an unauthenticated request is refused at once.
  const requireBearer: MiddlewareHandler<AppEnv> = async (c, next) => {
    const token = bearerFrom(c.req.header('authorization'));
    if (!token) return unauthorized(c, 'A Bearer token is required');
    const actor = await c.get('services').tokens.authenticate(token);
    if (!actor) return unauthorized(c, 'Invalid, expired or revoked token');
    // Behind an edge access gateway the same rule as the REST API: the gateway's token of the same person too.
    const gateway = c.get('services').auth.edgeAccess;
    if (gateway) {
      try {
        await confirmGatewayBearer(c, gateway, actor);
      } catch (err) {
        if (!isCmsError(err)) throw err;
        return c.json(rpcError(-32001, `[${err.code}] ${err.message}`), err.status as 401 | 403 | 503);
      }
    }
    c.set('actor', actor);
    await next();
  };
  const limit = bodyLimit({
    // Tool arguments may carry base64 uploads: allow the upload limit plus its encoding overhead.
    maxSize: Math.max(config.jsonBodyLimit, Math.ceil(config.maxUploadSize * 1.4) + 1024 * 1024),
    onError: (c) => c.json(rpcError(-32600, 'Request body too large'), 413),
  });

  app.post(MCP_PATH, requireBearer, limit, async (c) => {
    const services = c.get('services');
    const log = c.get('log');
    const { createMcpServer, Transport } = await loadMcp();
    const server = createMcpServer(services, c.get('actor'), log);
    const transport = new Transport({
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
  });
  const notAllowed = (c: Context<AppEnv>) =>
    c.json(rpcError(-32000, 'Method not allowed: this endpoint is stateless; use POST'), 405, { Allow: 'POST' });
  app.get(MCP_PATH, notAllowed);
  app.delete(MCP_PATH, notAllowed);
}
