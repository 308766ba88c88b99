import { type Actor, requirePermission } from '../../auth/actor.js';
import { roleHas } from '../../auth/permissions.js';
import { CmsError, notFound } from '../../core/errors.js';
import type { CollectionInfo } from '../schema/model.js';
import { entryPath } from '../schema/url-pattern.js';
import { frontendUrl } from '../settings/site-url.js';
import { assertVisible, requireDraftReader } from './access.js';
import { type ContentDeps, collectionFor, fallbackChain, localeOf } from './deps.js';
import { type ReadRow, readRowById, toItem } from './present.js';
import {
  type PreviewClaims,
  previewSecret,
  readPreviewToken,
  rotatePreviewSecret,
  signPreviewToken,
} from './preview-token.js';
import { dyn } from './rows.js';

/** The query parameter (and, as `X-CMS-Preview`, the header) a read carries a preview token in. */
export const PREVIEW_PARAM = 'preview';

export type PreviewRefusal = 'expired' | 'forged' | 'revoked' | 'other_entry';

const REFUSALS: Record<PreviewRefusal, string> = {
  expired: 'The preview link has expired: open the preview again from the editor',
  forged: 'The preview token is not valid (altered, or signed with a secret that has since been rotated)',
  revoked: 'The preview token was issued by a user who may no longer read drafts',
  other_entry: 'The preview token is for another entry',
};

export const previewRefused = (reason: PreviewRefusal) =>
  new CmsError('PREVIEW_TOKEN_INVALID', REFUSALS[reason], { reason });

/** What is missing for an entry to have a URL on the front end. */
export type PreviewUrlMissing = 'siteUrl' | 'urlPattern' | 'slug';

export interface PreviewLink {
  token: string;
  expiresAt: string;
  /** The entry's page on the front end with `?preview=<token>`, or null (see `missing`). */
  url: string | null;
  missing: PreviewUrlMissing | null;
}

/**
 * Preview links: a signed, expiring token for reading one entry's draft,
 * and the entry's URL on the site's front end. The token is checked here and
 * nowhere else (read.ts asks `verify` and `addresses`); doors only pass it on.
 */
export function previewOps(deps: ContentDeps) {
  const { ctx } = deps;

  /** The entry's page on the front end: the draft's slug in the collection's URL pattern for its locale. */
  async function pageOf(
    c: CollectionInfo,
    row: ReadRow,
  ): Promise<{ url: string | null; missing: PreviewUrlMissing | null }> {
    const base = await frontendUrl(ctx);
    if (!base) return { url: null, missing: 'siteUrl' };
    if (c.urlPattern === null) return { url: null, missing: 'urlPattern' };
    const slug = toItem(c, row, { showDraft: true }).slug;
    if (!slug) return { url: null, missing: 'slug' };
    const path = entryPath(c.urlPattern, row.locale, slug, ctx.config.i18n);
    if (path === null) return { url: null, missing: 'urlPattern' };
    return { url: `${base}${path}`, missing: null };
  }

  /**
   * A preview link for an entry (by database ID). Whoever may read the
   * entry's draft may ask: draft readers (Contributor and up) see every
   * draft, so Subscribers and tokens without `content:read` are refused.
   */
  async function link(actor: Actor, collection: string, id: string): Promise<PreviewLink> {
    requireDraftReader(actor);
    const { snap, c } = await collectionFor(deps, collection);
    const row = await readRowById(ctx.db, ctx.dialect, c, snap.version, true, id);
    assertVisible(actor, row, c);
    const found = row as ReadRow;
    const expiresAt = ctx.clock.now().getTime() + ctx.config.previewTokenTtl * 1000;
    const token = signPreviewToken(await previewSecret(ctx.db), {
      collection: c.slug,
      entryId: found.id,
      // The process itself (the local command line) has no user: its tokens skip the issuer check.
      userId: actor.userId ?? '',
      expiresAt,
    });
    const page = await pageOf(c, found);
    let url: string | null = null;
    if (page.url) {
      const u = new URL(page.url);
      u.searchParams.set(PREVIEW_PARAM, token);
      url = u.toString();
    }
    return { token, expiresAt: new Date(expiresAt).toISOString(), url, missing: page.missing };
  }

  /**
   * The claims of a token that may be used now: signed with the current
   * secret, not expired, and issued by someone who may still read drafts
   * (disabling or demoting a user ends their links too).
   */
  async function verify(token: string): Promise<PreviewClaims> {
    const claims = readPreviewToken(await previewSecret(ctx.db), token);
    if (!claims) throw previewRefused('forged');
    if (claims.expiresAt <= ctx.clock.now().getTime()) throw previewRefused('expired');
    if (claims.userId !== '') {
      const user = await ctx.db
        .selectFrom('_cms_users')
        .select(['role', 'disabled'])
        .where('id', '=', claims.userId)
        .executeTakeFirst();
      if (!user || Number(user.disabled) !== 0 || !roleHas(Number(user.role), 'content:read_drafts')) {
        throw previewRefused('revoked');
      }
    }
    return claims;
  }

  async function publishedWithSlug(c: CollectionInfo, locale: string, slug: string): Promise<boolean> {
    const hit = await dyn(ctx.db)
      .selectFrom(c.table)
      .select('id')
      .where('locale', '=', locale)
      .where('slug', '=', slug)
      .where('status', '=', 'published')
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return hit !== undefined;
  }

  /**
   * Whether a read of `idOrSlug` lands on the token's entry (`row`). By ID it
   * must be that ID. By slug, the fallback chain is walked as for any read
   * (i18n rule 2): at each locale a published entry with the slug ends the
   * walk (on another entry), and in the token entry's locale its live slug or
   * its draft's slug is a match. In preview mode the token's draft is the one
   * draft a lookup may find; the other entries are seen as the site sees them.
   */
  async function addresses(c: CollectionInfo, row: ReadRow, idOrSlug: string, locale: string | undefined) {
    if (idOrSlug === row.id) return true;
    const draftSlug = toItem(c, row, { showDraft: true }).slug;
    for (const loc of fallbackChain(deps, localeOf(deps, locale))) {
      if (loc === row.locale) return idOrSlug === row.slug || idOrSlug === draftSlug;
      if (await publishedWithSlug(c, loc, idOrSlug)) return false;
    }
    return false;
  }

  /** The token's entry, with its draft, when a read of `idOrSlug` in `collection` lands on it. */
  async function entryFor(token: string, collection: string, idOrSlug: string, locale: string | undefined) {
    const claims = await verify(token);
    if (claims.collection !== collection) throw previewRefused('other_entry');
    const { snap, c } = await collectionFor(deps, collection);
    const row = await readRowById(ctx.db, ctx.dialect, c, snap.version, true, claims.entryId);
    // Deleted for good since the link was made.
    if (!row) throw notFound(`Entry in "${c.slug}"`);
    if (!(await addresses(c, row, idOrSlug, locale))) throw previewRefused('other_entry');
    return { snap, c, row };
  }

  /** Rotate the secret (Admins): every preview link made so far stops working. */
  async function rotate(actor: Actor): Promise<{ rotatedAt: string }> {
    requirePermission(actor, 'settings:manage');
    await rotatePreviewSecret(ctx.db);
    ctx.log.info({ userId: actor.userId }, 'preview secret rotated');
    return { rotatedAt: ctx.clock.now().toISOString() };
  }

  return { link, verify, entryFor, rotate, frontendUrl: () => frontendUrl(ctx) };
}

export type PreviewOps = ReturnType<typeof previewOps>;
