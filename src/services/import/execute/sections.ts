import { isCmsError } from '../../../core/errors.js';
import type { ConvertContext } from '../convert/index.js';
import { wpContentToPortableText } from '../convert/index.js';
import type { WxrItem } from '../wxr/model.js';
import type { ImportDeps, RunScope } from './deps.js';
import type { Tally } from './tally.js';
import { itemSlug } from './values.js';

/**
 * Reusable blocks (`wp_block`) become sections, matched by slug: an existing
 * section with the slug is kept (skipped with skipExisting, else reported).
 */
export async function importSection(
  deps: ImportDeps,
  scope: RunScope,
  tally: Tally,
  item: WxrItem,
  skipExisting: boolean,
  convert: ConvertContext,
): Promise<void> {
  const slug = itemSlug(item);
  tally.result.sections ??= { imported: 0, skipped: 0, failed: 0 };
  const counts = tally.result.sections;
  const existing = await deps.ctx.db
    .selectFrom('_cms_sections')
    .select('id')
    .where('slug', '=', slug)
    .executeTakeFirst();
  if (existing) {
    if (skipExisting) {
      counts.skipped++;
      tally.skipped(item.postType, null, 'exists');
    } else {
      counts.failed++;
      tally.failed(
        item,
        null,
        'ALREADY_EXISTS',
        `A section with slug "${slug}" already exists (use skipExisting to re-run)`,
      );
    }
    return;
  }
  const converted = wpContentToPortableText(item.content, convert);
  for (const u of converted.unconverted) tally.unconverted(u.kind, u.count);
  try {
    await deps.sections.create(scope.actor, {
      slug,
      title: (item.title.trim() || slug).slice(0, 200),
      content: converted.blocks,
    });
    counts.imported++;
    tally.imported(item.postType, null);
  } catch (err) {
    if (!isCmsError(err)) throw err;
    counts.failed++;
    tally.failed(item, null, err.code, err.message);
  }
}
