import type { Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from './env.js';

/**
 * Discovery at the site root (not under /_cms/api): RFC 9728 protected
 * resource metadata for the MCP endpoint — also at the path-suffixed address
 * clients try first — and RFC 8414 authorization server metadata for the
 * issuer `{publicUrl}/_cms`. Public, cacheable for a few minutes, readable
 * cross-origin.
 */
export function wellKnownRoutes(app: Hono<AppEnv>): void {
  const headers = { 'Cache-Control': 'public, max-age=300' };
  app.use('/.well-known/*', cors({ origin: '*', allowMethods: ['GET'], maxAge: 600 }));
  const resource = (c: Context<AppEnv>) => c.json(c.get('services').oauth.resourceMetadata(), 200, headers);
  app.get('/.well-known/oauth-protected-resource', resource);
  app.get('/.well-known/oauth-protected-resource/_cms/api/mcp', resource);
  app.get('/.well-known/oauth-authorization-server/_cms', (c) =>
    c.json(c.get('services').oauth.metadata(), 200, headers),
  );
}
