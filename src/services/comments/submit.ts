import { type Actor, can } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { CmsError, issuesError, type ValidationIssue } from '../../core/errors.js';
import { newId, sha256Hex } from '../../core/ids.js';
import { clientIp, type RequestFacts } from '../auth/client-ip.js';
import type { ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
import { publishedEntry } from './entries.js';
import { LIMITS, type SubmitInput } from './model.js';
import { spamReasons } from './spam.js';
import { checkCommentText, normaliseText, storedText } from './text.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface SubmitReceipt {
  id: string;
  /** `approved` for moderators' own comments; everything else (spam included) answers `pending`. */
  status: 'pending' | 'approved';
  createdAt: string;
}

/**
 * A public submission (spec: createComment). The entry must be published and
 * its collection open to comments; the comment enters the moderation queue,
 * or `spam` when a heuristic trips. The rate limit and the browser-write rule
 * are applied by the door before the body is read.
 */
export function submitOps(ctx: ServiceContext, schema: SchemaService) {
  async function submit(
    actor: Actor,
    collection: string,
    contentId: string,
    input: SubmitInput,
    request: RequestFacts,
  ): Promise<SubmitReceipt> {
    const { c, entry } = await publishedEntry(ctx.db, schema, collection, contentId);
    if (!c.supports.includes('comments')) {
      throw new CmsError('COMMENTS_CLOSED', `Comments are closed on "${collection}"`);
    }

    const user = actor.kind === 'user' && actor.userId ? actor : null;
    const text = checkCommentText({
      body: input.body,
      authorName: input.authorName ?? user?.name ?? user?.email?.split('@')[0] ?? '',
      authorUrl: input.authorUrl,
    });
    const issues: ValidationIssue[] = text.issues;
    const issue = (field: string, code: string, message: string) => issues.push({ path: [field], code, message });
    const { body, authorName: name, authorUrl } = text.value;
    const email = (user?.email ?? input.authorEmail?.trim().toLowerCase()) || null;

    const db = ctx.db;
    let rootId: string | null = null;
    if (input.parentId !== undefined) {
      const parent = await db
        .selectFrom('_cms_comments')
        .select(['id', 'root_id', 'entry_id', 'collection', 'status'])
        .where('id', '=', input.parentId)
        .executeTakeFirst();
      if (!parent || parent.entry_id !== entry.id || parent.collection !== c.slug || parent.status !== 'approved') {
        issue('parentId', 'unknown_parent', 'must be an approved comment on the same entry');
      } else rootId = parent.root_id;
    }
    if (issues.length) throw issuesError('Invalid comment', issues);

    const now = isoNow(ctx.clock);
    const stored = storedText(body);
    const ip = clientIp(request, ctx.config.trustedProxyHeaders);
    const clientKey = ip ? sha256Hex(`comment-client|${ip}`) : null;
    const userAgent = request.header('user-agent');
    const since = new Date(ctx.clock.now().getTime() - DAY_MS).toISOString();
    let duplicate = false;
    if (clientKey || email) {
      let q = db
        .selectFrom('_cms_comments')
        .select('id')
        .where('entry_id', '=', entry.id)
        .where('body', '=', stored)
        .where('created_at', '>', since);
      q = q.where((eb) =>
        eb.or([
          ...(clientKey ? [eb('client_key', '=', clientKey)] : []),
          ...(email ? [eb('author_email', '=', email)] : []),
        ]),
      );
      duplicate = (await q.limit(1).executeTakeFirst()) !== undefined;
    }
    const reasons = spamReasons({ body, authorName: name, authorUrl, honeypot: input.honeypot, duplicate });
    const moderator = can(actor, 'comments:moderate');
    const status = reasons.length ? 'spam' : moderator ? 'approved' : 'pending';
    const id = newId();
    await db
      .insertInto('_cms_comments')
      .values({
        id,
        collection: c.slug,
        entry_id: entry.id,
        root_id: rootId ?? id,
        parent_id: input.parentId ?? null,
        status,
        author_name: storedText(name),
        author_email: email,
        author_url: authorUrl,
        user_id: user?.userId ?? null,
        body: stored,
        spam_reasons: reasons.length ? JSON.stringify(reasons) : null,
        client_key: clientKey,
        user_agent: userAgent ? storedText(normaliseText(userAgent, false).slice(0, LIMITS.userAgent)) : null,
        created_at: now,
        updated_at: now,
        moderated_at: status === 'approved' ? now : null,
        moderated_by: status === 'approved' ? (user?.userId ?? null) : null,
      })
      .execute();
    if (reasons.length) ctx.log.info({ commentId: id, reasons }, 'comment routed to spam');
    return { id, status: status === 'approved' ? 'approved' : 'pending', createdAt: now };
  }

  return { submit };
}
