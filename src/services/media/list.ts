import type { Actor } from '../../auth/actor.js';
import { requirePermission } from '../../auth/actor.js';
import { notFound, validationError } from '../../core/errors.js';
import { decodeItemCursor, encodeCursor } from './cursor.js';
import type { MediaDeps } from './deps.js';
import { type MediaItem, presentItem } from './present.js';
import { likeContains, loadItem, nameKey } from './rows.js';
import { settingsSelecting, type UsagePage, usageFor } from './usage.js';

export interface MediaListOptions {
  cursor?: string;
  page?: number;
  limit?: number;
  /** A folder ID, `unfiled` for the Main library, or undefined for every folder. */
  folderId?: string;
  /** Exact MIME types or `type/*` families (any of them matches). */
  mimeTypes?: string[];
  /** Part of the filename, case-insensitive. */
  filename?: string;
  includeUsage?: boolean;
}

export interface MediaListResult {
  items: MediaItem[];
  nextCursor?: string;
  totalCount?: number;
}

export const DEFAULT_LIMIT = 50;

/** Reads of the library: ready items only (pending uploads are nobody's business but their uploader's). */
export function listOps(deps: MediaDeps) {
  const { ctx } = deps;

  async function list(actor: Actor, options: MediaListOptions): Promise<MediaListResult> {
    requirePermission(actor, 'media:read');
    if (options.cursor !== undefined && options.page !== undefined) {
      throw validationError('Send either page or cursor, not both', {
        issues: [{ path: ['page'], code: 'conflict', message: 'page and cursor are exclusive' }],
      });
    }
    const limit = options.limit ?? DEFAULT_LIMIT;
    const folder = options.folderId;
    if (folder && folder !== 'unfiled') {
      const exists = await ctx.db
        .selectFrom('_cms_media_folders')
        .select('id')
        .where('id', '=', folder)
        .executeTakeFirst();
      if (!exists) throw notFound(`Folder "${folder}"`);
    }
    let q = ctx.db.selectFrom('_cms_media').where('status', '=', 'ready');
    if (folder === 'unfiled') q = q.where('folder_id', 'is', null);
    else if (folder) q = q.where('folder_id', '=', folder);
    const mimes = options.mimeTypes ?? [];
    if (mimes.length) {
      q = q.where((eb) =>
        eb.or(
          mimes.map((m) =>
            m.endsWith('/*') ? eb('mime_type', 'like', `${m.slice(0, -1)}%`) : eb('mime_type', '=', m),
          ),
        ),
      );
    }
    if (options.filename) q = q.where(likeContains(nameKey(options.filename)));

    let totalCount: number | undefined;
    let paged = q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc');
    if (options.page !== undefined) {
      const counted = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      totalCount = Number(counted.n);
      paged = paged.offset((options.page - 1) * limit);
    } else if (options.cursor !== undefined) {
      const after = decodeItemCursor(options.cursor);
      paged = paged.where((eb) =>
        eb.or([
          eb('created_at', '<', after.createdAt),
          eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
        ]),
      );
    }
    const rows = await paged.limit(limit + 1).execute();
    const more = rows.length > limit;
    const pageRows = more ? rows.slice(0, limit) : rows;
    const usage = options.includeUsage
      ? await usageFor(
          ctx.db,
          deps.usage.source,
          actor,
          pageRows.map((r) => r.id),
        )
      : undefined;
    const items = pageRows.map((r) => presentItem(deps, r, usage?.get(r.id)));
    const last = pageRows[pageRows.length - 1];
    return {
      items,
      ...(more && options.page === undefined && last ? { nextCursor: encodeCursor(last.created_at, last.id) } : {}),
      ...(totalCount !== undefined ? { totalCount } : {}),
    };
  }

  async function get(actor: Actor, id: string, options: { includeUsage?: boolean } = {}): Promise<MediaItem> {
    requirePermission(actor, 'media:read');
    const row = await loadItem(ctx.db, id);
    // A pending upload is visible to its uploader only (to follow up on it).
    if (!row || (row.status === 'pending' && row.uploaded_by !== actor.userId)) throw notFound('Media item');
    const usage = options.includeUsage ? (await usageFor(ctx.db, deps.usage.source, actor, [id])).get(id) : undefined;
    return presentItem(deps, row, usage);
  }

  /** `GET /media/{id}/usage`: referencing entries in pages, and the site settings selecting the item on every page. */
  async function usage(
    actor: Actor,
    id: string,
    options: { cursor?: string; limit?: number },
  ): Promise<UsagePage & { siteSettings: Array<{ setting: string }> }> {
    const item = await get(actor, id);
    const page = await deps.usage.source.references(
      ctx.db,
      actor,
      item.id,
      options.cursor,
      options.limit ?? DEFAULT_LIMIT,
    );
    const settings = (await settingsSelecting(ctx.db, [item.id])).get(item.id) ?? [];
    return { ...page, siteSettings: settings.map((setting) => ({ setting })) };
  }

  return { list, get, usage };
}
