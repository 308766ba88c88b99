import type { ContentService } from '../content/index.js';
import type { ServiceContext } from '../context.js';
import { deletedCollections } from '../schema/deleted.js';
import type { SchemaService } from '../schema/index.js';
import { moderationOps } from './moderation.js';
import { publicListOps } from './public-list.js';
import { submitOps } from './submit.js';

export * from './model.js';
export type { AdminListQuery, CommentCounts } from './moderation.js';
export type { PublicListQuery } from './public-list.js';
export type { SubmitReceipt } from './submit.js';

/**
 * Comments: public list and submission for published entries of collections
 * that support comments, and the moderation queue. Comments go with their
 * entry: a permanent delete of the entry (or of its collection) removes them in
 * the same transaction.
 */
export function createCommentsService(ctx: ServiceContext, deps: { schema: SchemaService; content: ContentService }) {
  deps.content.hooks.afterWrite('comments', async (trx, change) => {
    if (change.kind !== 'delete') return;
    await trx
      .deleteFrom('_cms_comments')
      .where('collection', '=', change.collection.slug)
      .where('entry_id', 'in', change.ids)
      .execute();
  });
  // Comments are keyed by collection slug: a deleted collection's go with it, so a new one of that slug starts clean.
  deps.schema.hooks.afterChange('comments', async (trx, change) => {
    const gone = deletedCollections(change).map((c) => c.slug);
    if (gone.length) await trx.deleteFrom('_cms_comments').where('collection', 'in', gone).execute();
  });
  return {
    ...submitOps(ctx, deps.schema),
    ...publicListOps(ctx.db, deps.schema),
    moderation: moderationOps(ctx, deps.schema),
  };
}

export type CommentsService = ReturnType<typeof createCommentsService>;
