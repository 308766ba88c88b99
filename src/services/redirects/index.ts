import { type Actor, requirePermission } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { issuesError } from '../../core/errors.js';
import type { ServiceContext } from '../context.js';
import { siteUrl } from '../settings/site-url.js';
import { RuleCache } from './cache.js';
import { walk } from './chains.js';
import { HitCounter } from './hits.js';
import { loggedReferrer, notFoundLog } from './not-found.js';
import { canonicalPath, parsePath, requestPath } from './paths.js';
import { ruleOps } from './rules.js';

export type { RedirectWarning } from './chains.js';
export type { NotFoundEntry, NotFoundGroup, PruneSelection } from './not-found.js';
export { REDIRECT_STATUSES, type RedirectStatus } from './rule.js';
export type { ListRedirectsQuery, RedirectInput, RedirectView } from './rules.js';

/** How often gathered hit counts and 404s are written. */
const FLUSH_EVERY_MS = 2_000;

export interface PublicRequest {
  url: string;
  method: string;
  referrer?: string;
}

export type PublicAnswer = { redirect: { status: number; location: string; ruleId: string } } | { notFound: true };

/**
 * Redirect rules, the 404 log, and the answer to public requests outside
 * `/_cms` that no route serves: a matching rule redirects, anything else is a
 * 404 that is logged (GET and HEAD only: other methods are not page views).
 */
export function createRedirectsService(ctx: ServiceContext) {
  const cache = new RuleCache(ctx.db);
  const hits = new HitCounter(ctx.db);
  const log = notFoundLog(ctx, ctx.config.notFoundLogLimit);
  const siteOrigin = async () => {
    const url = await siteUrl(ctx);
    return url ? new URL(url).origin : null;
  };
  const rules = ruleOps(ctx, cache, siteOrigin);

  const timer = setInterval(() => {
    flush().catch((err) => ctx.log.error({ err }, 'redirect hits / 404 log flush failed'));
  }, FLUSH_EVERY_MS);
  timer.unref();

  async function flush(): Promise<void> {
    await hits.flush();
    await log.flush();
  }

  async function handlePublic(req: PublicRequest): Promise<PublicAnswer> {
    const url = new URL(req.url);
    const path = requestPath(url);
    const matcher = await cache.get();
    const m = path === null ? null : matcher.match(path, url.search);
    const now = isoNow(ctx.clock);
    if (m) {
      hits.hit(m.rule.id, now);
      return { redirect: { status: m.rule.statusCode, location: m.location, ruleId: m.rule.id } };
    }
    if (req.method === 'GET' || req.method === 'HEAD') log.record(url.pathname, loggedReferrer(req.referrer), now);
    return { notFound: true };
  }

  /** Where a path would be sent, hop by hop, without counting a hit or logging (the admin's "test a path"). */
  async function test(actor: Actor, rawPath: string) {
    requirePermission(actor, 'redirects:manage');
    const parsed = rawPath.startsWith('/') && !rawPath.startsWith('//') ? parsePath(rawPath) : null;
    if (!parsed) {
      throw issuesError('Invalid path', [{ path: ['path'], code: 'invalid_path', message: 'must start with one "/"' }]);
    }
    const path = canonicalPath(parsed.pathname);
    const matcher = await cache.get();
    const first = matcher.match(path, parsed.search);
    const origin = await siteOrigin();
    const w = walk(matcher, path, origin);
    return {
      path,
      match: first
        ? {
            redirect: rules.view(await ruleRow(first.rule.id), matcher, origin),
            location: first.location,
            statusCode: first.rule.statusCode,
          }
        : null,
      hops: w.chain.slice(1),
      loop: w.loop,
    };
  }

  async function ruleRow(id: string) {
    return ctx.db.selectFrom('_cms_redirects').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  return {
    list: rules.list,
    get: rules.get,
    create: rules.create,
    update: rules.update,
    remove: rules.remove,
    test,
    handlePublic,
    notFound: { list: log.list, summary: log.summary, prune: log.prune, clear: log.clear },
    /** Write gathered hit counts and 404s now (tests, shutdown). */
    flush,
    async close(): Promise<void> {
      clearInterval(timer);
      await flush();
    },
  };
}

export type RedirectsService = ReturnType<typeof createRedirectsService>;
