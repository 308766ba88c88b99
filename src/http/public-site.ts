import type { Context, Hono } from 'hono';
import { CmsError } from '../core/errors.js';
import type { AppEnv } from './env.js';
import { errorBody } from './middleware/errors.js';

const XML_HEADERS = {
  'Content-Type': 'application/xml; charset=utf-8',
  // Crawlers fetch sitemaps rarely; a short shared cache spares the database.
  'Cache-Control': 'public, max-age=600',
};

/** `/sitemap.xml` and `/sitemap-{collection}[-{n}].xml` at the site root (i18n rule 7). */
export function sitemapRoutes(app: Hono<AppEnv>): void {
  app.get('/sitemap.xml', async (c) => {
    const body = await c.get('services').seo.sitemaps.index();
    if (body === null) return c.json(errorBody(new CmsError('NOT_FOUND', 'The site has no URL for a sitemap')), 404);
    return c.body(body, 200, XML_HEADERS);
  });
  app.get('/:file{sitemap-[a-z][a-z0-9_]*(?:-[0-9]+)?\\.xml}', async (c) => {
    const stream = await c.get('services').seo.sitemaps.file(c.req.param('file'));
    if (!stream) return c.json(errorBody(new CmsError('NOT_FOUND', `No sitemap ${c.req.path}`)), 404);
    return c.body(stream, 200, XML_HEADERS);
  });
}

/**
 * What no route serves. Outside `/_cms` it is a public request: a redirect
 * rule answers it (the response), else it is recorded in the 404 log and the
 * caller answers the 404 (null). Routes the service itself serves (sitemaps,
 * discovery, everything under `/_cms`) always win over rules.
 */
export async function publicRequest(c: Context<AppEnv>): Promise<Response | null> {
  const path = c.req.path;
  if (path === '/_cms' || path.startsWith('/_cms/')) return null;
  const answer = await c.get('services').redirects.handlePublic({
    url: c.req.url,
    method: c.req.method,
    referrer: c.req.header('referer'),
  });
  if ('redirect' in answer) return c.body(null, answer.redirect.status as 301, { Location: answer.redirect.location });
  return null;
}
