import type { Actor } from '../../auth/actor.js';
import { requirePermission } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { cursorText, decodeCursor, encodeCursor } from '../../core/cursor.js';
import { CmsError, notFound, validationError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { BylinesTable } from '../../db/tables.js';
import type { ServiceContext } from '../context.js';
import type { SchemaService } from '../schema/index.js';
import { checkBylineUrls } from './byline-rules.js';
import { bylineView } from './credits.js';
import type { BylineView } from './model.js';
import { dyn } from './rows.js';
import { slugify } from './slugs.js';

/**
 * Bylines: reusable credits, a guest or linked to a user (at most one per
 * user per locale), translated through a translation group. Managed through
 * MCP tools and hidden REST routes; Editors manage, readers read.
 */
export interface BylineInput {
  displayName: string;
  slug?: string;
  bio?: string | null;
  avatarUrl?: string | null;
  websiteUrl?: string | null;
  /** A user to link; null for a guest credit. With translationOf, omitted keeps the source's user. */
  userId?: string | null;
  locale?: string;
  translationOf?: string;
}

export type BylineUpdate = Partial<Omit<BylineInput, 'locale' | 'translationOf'>>;

export function bylineOps(ctx: ServiceContext, schema: SchemaService) {
  const { db } = ctx;

  function checkLocale(locale: string): void {
    if (!ctx.config.i18n.locales.includes(locale)) {
      throw validationError(`Locale "${locale}" is not configured`, { locales: ctx.config.i18n.locales });
    }
  }

  async function load(id: string): Promise<BylinesTable> {
    const row = await db.selectFrom('_cms_bylines').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('Byline');
    return row;
  }

  async function checkUser(userId: string | null, locale: string, exceptId?: string): Promise<void> {
    if (!userId) return;
    const user = await db.selectFrom('_cms_users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) throw validationError(`No user ${userId}`);
    let q = db.selectFrom('_cms_bylines').select('id').where('user_id', '=', userId).where('locale', '=', locale);
    if (exceptId) q = q.where('id', '!=', exceptId);
    if (await q.executeTakeFirst()) {
      throw new CmsError('ALREADY_EXISTS', 'That user already has a byline in this locale');
    }
  }

  async function uniqueSlug(base: string, locale: string, exceptId?: string): Promise<string> {
    for (let n = 1; n < 1000; n++) {
      const candidate = n === 1 ? base : `${base}-${n}`;
      let q = db.selectFrom('_cms_bylines').select('id').where('locale', '=', locale).where('slug', '=', candidate);
      if (exceptId) q = q.where('id', '!=', exceptId);
      if (!(await q.executeTakeFirst())) return candidate;
    }
    throw new CmsError('CONFLICT', 'Could not find a free byline slug');
  }

  async function list(
    actor: Actor,
    opts: { locale?: string; search?: string; cursor?: string; limit?: number },
  ): Promise<{ items: BylineView[]; nextCursor?: string }> {
    requirePermission(actor, 'content:read');
    const locale = opts.locale ?? ctx.config.i18n.defaultLocale;
    checkLocale(locale);
    const limit = opts.limit ?? 50;
    let q = db.selectFrom('_cms_bylines').selectAll().where('locale', '=', locale);
    if (opts.search) q = q.where('display_name', 'like', `%${opts.search.replace(/[%_\\]/g, '\\$&')}%`);
    if (opts.cursor) {
      const [name, id] = decodeCursor(opts.cursor, [cursorText, cursorText]);
      q = q.where((eb) =>
        eb.or([eb('display_name', '>', name), eb.and([eb('display_name', '=', name), eb('id', '>', id)])]),
      );
    }
    const rows = await q
      .orderBy('display_name')
      .orderBy('id')
      .limit(limit + 1)
      .execute();
    const items = rows.slice(0, limit).map(bylineView);
    const last = rows.length > limit ? rows[limit - 1] : undefined;
    return { items, ...(last ? { nextCursor: encodeCursor([last.display_name, last.id]) } : {}) };
  }

  async function get(actor: Actor, id: string): Promise<BylineView> {
    requirePermission(actor, 'content:read');
    return bylineView(await load(id));
  }

  async function create(actor: Actor, input: BylineInput): Promise<BylineView> {
    requirePermission(actor, 'bylines:manage');
    const displayName = input.displayName.trim();
    if (!displayName) throw validationError('displayName is required');
    checkBylineUrls(input);
    let group = newId();
    let locale = input.locale ?? ctx.config.i18n.defaultLocale;
    let userId = input.userId ?? null;
    if (input.translationOf) {
      const source = await load(input.translationOf);
      group = source.translation_group;
      if (!input.locale) throw validationError('locale is required with translationOf');
      // A translation keeps the source's user unless userId is given (null leaves it unlinked).
      if (input.userId === undefined) userId = source.user_id;
      const taken = await db
        .selectFrom('_cms_bylines')
        .select('id')
        .where('translation_group', '=', group)
        .where('locale', '=', input.locale)
        .executeTakeFirst();
      if (taken) throw new CmsError('ALREADY_EXISTS', `The byline already has a ${input.locale} translation`);
      locale = input.locale;
    }
    checkLocale(locale);
    await checkUser(userId, locale);
    const now = isoNow(ctx.clock);
    const row: BylinesTable = {
      id: newId(),
      display_name: displayName,
      slug: await uniqueSlug(input.slug ? slugify(input.slug) : slugify(displayName) || 'byline', locale),
      bio: input.bio ?? null,
      avatar_url: input.avatarUrl ?? null,
      website_url: input.websiteUrl ?? null,
      user_id: userId,
      locale,
      translation_group: group,
      created_at: now,
      updated_at: now,
    };
    await db.insertInto('_cms_bylines').values(row).execute();
    return bylineView(row);
  }

  async function update(actor: Actor, id: string, input: BylineUpdate): Promise<BylineView> {
    requirePermission(actor, 'bylines:manage');
    const row = await load(id);
    checkBylineUrls(input);
    const patch: Partial<BylinesTable> = { updated_at: isoNow(ctx.clock) };
    if (input.displayName !== undefined) {
      if (!input.displayName.trim()) throw validationError('displayName cannot be empty');
      patch.display_name = input.displayName.trim();
    }
    if (input.slug !== undefined) patch.slug = await uniqueSlug(slugify(input.slug), row.locale, id);
    if (input.bio !== undefined) patch.bio = input.bio;
    if (input.avatarUrl !== undefined) patch.avatar_url = input.avatarUrl;
    if (input.websiteUrl !== undefined) patch.website_url = input.websiteUrl;
    if (input.userId !== undefined) {
      await checkUser(input.userId, row.locale, id);
      patch.user_id = input.userId;
    }
    await db.updateTable('_cms_bylines').set(patch).where('id', '=', id).execute();
    return bylineView(await load(id));
  }

  /** Removes the credit from every entry and clears it where it was the primary byline. */
  async function remove(actor: Actor, id: string): Promise<{ deleted: true; id: string }> {
    requirePermission(actor, 'bylines:manage');
    await load(id);
    const snap = await schema.snapshot();
    await db.transaction().execute(async (trx) => {
      for (const c of snap.collections.values()) {
        await dyn(trx)
          .updateTable(c.table)
          .set({ primary_byline_id: null })
          .where('primary_byline_id', '=', id)
          .execute();
      }
      await trx.deleteFrom('_cms_entry_bylines').where('byline_id', '=', id).execute();
      await trx.deleteFrom('_cms_bylines').where('id', '=', id).execute();
    });
    return { deleted: true, id };
  }

  /** Every locale variant, by record ID or translation-group ID. */
  async function translations(
    actor: Actor,
    idOrGroup: string,
  ): Promise<{ translationGroup: string; items: BylineView[] }> {
    requirePermission(actor, 'content:read');
    const row = await db
      .selectFrom('_cms_bylines')
      .select('translation_group')
      .where((eb) => eb.or([eb('id', '=', idOrGroup), eb('translation_group', '=', idOrGroup)]))
      .executeTakeFirst();
    if (!row) throw notFound('Byline');
    const rows = await db
      .selectFrom('_cms_bylines')
      .selectAll()
      .where('translation_group', '=', row.translation_group)
      .orderBy('locale')
      .execute();
    return { translationGroup: row.translation_group, items: rows.map(bylineView) };
  }

  return { list, get, create, update, remove, translations };
}

export type BylineOps = ReturnType<typeof bylineOps>;
