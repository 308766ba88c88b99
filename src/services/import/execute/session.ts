import { isCmsError } from '../../../core/errors.js';
import { checkUniques } from '../../content/checks.js';
import { blockLookup } from '../../content/deps.js';
import { validateEntryData } from '../../fields/values.js';
import type { CollectionInfo, SchemaSnapshot } from '../../schema/model.js';
import type { ExecuteConfig } from '../config.js';
import { type ConvertContext, wpContentToPortableText } from '../convert/index.js';
import { isInternalType, mapStatus } from '../post-types.js';
import type { WxrAuthor, WxrItem, WxrTerm } from '../wxr/model.js';
import { Authors } from './authors.js';
import type { ImportDeps, RunScope } from './deps.js';
import { EntryWriter, type Landed } from './entries.js';
import { Menus } from './menus.js';
import { importSection } from './sections.js';
import { type AttachmentRef, Tally } from './tally.js';
import { Terms } from './terms.js';
import { entryValues, itemDate, itemSlug, thumbnailId } from './values.js';

export type Target = { c: CollectionInfo } | { c: null; reason: string };

/** Exporter items may carry their locale and the source ID of the item they translate. */
export interface ItemPlacement {
  locale?: string;
  /** Translation group the entry joins (resolved from the source's ID by the caller). */
  group?: string;
}

/**
 * One import run's moving parts — tally, authors, terms, menus, the batched
 * entry writer — and the handling of one item, shared by the export-file
 * source and the exporter-plugin source.
 */
export class ImportSession {
  readonly tally = new Tally();
  readonly authors: Authors;
  readonly terms: Terms;
  readonly menus = new Menus();
  readonly writer: EntryWriter;
  /** WordPress author ID → mapped user (comment authors who were site users). */
  readonly userIds = new Map<string, string>();
  private readonly convert: ConvertContext;

  constructor(
    private readonly deps: ImportDeps,
    readonly scope: RunScope,
    private readonly config: ExecuteConfig,
    private readonly snap: SchemaSnapshot,
    private readonly targets: Map<string, Target>,
    private readonly attachments: ReadonlyMap<string, AttachmentRef>,
    batchSize = 200,
  ) {
    this.authors = new Authors(deps, scope, config.authorMappings ?? {}, this.tally);
    this.terms = new Terms(deps, scope, this.tally);
    this.writer = new EntryWriter(
      deps,
      scope,
      this.tally,
      { skipExisting: config.skipExisting, batchSize, userIds: this.userIds },
      (taxonomy, n) => this.terms.assigned(taxonomy, n),
    );
    this.convert = {
      attachmentById: (id) => {
        const a = attachments.get(String(id));
        return a ? { url: a.url, alt: a.alt || undefined } : undefined;
      },
    };
  }

  author(a: WxrAuthor): void {
    this.authors.declare(a);
    const mapped = this.config.authorMappings?.[a.login];
    if (mapped && a.id) this.userIds.set(a.id, mapped);
  }

  term(t: WxrTerm): void {
    this.terms.declare(t);
    if (t.taxonomy === 'nav_menu') this.menus.declare(t.slug, t.name);
  }

  get landed(): ReadonlyMap<string, Landed> {
    return this.writer.landed;
  }

  /** Put one item in its bucket: an entry (queued), a section, a menu item (kept), or skipped. */
  async item(item: WxrItem, placement: ItemPlacement = {}): Promise<void> {
    const { tally } = this;
    await this.terms.setup();
    item.postType ||= 'post';
    tally.result.items++;
    if (item.postType === 'attachment') tally.skipped(item.postType, null, 'media_step');
    else if (item.postType === 'nav_menu_item') {
      if (!this.menus.add(item)) tally.skipped(item.postType, null, 'no_menu');
    } else if (item.postType === 'wp_block') {
      if (this.config.importSections) {
        await importSection(this.deps, this.scope, tally, item, this.config.skipExisting, this.convert);
      } else tally.skipped(item.postType, null, 'not_selected');
    } else if (isInternalType(item.postType)) tally.skipped(item.postType, null, 'internal_type');
    else {
      const target = this.targets.get(item.postType);
      if (!target?.c) {
        tally.skipped(item.postType, null, target?.reason ?? 'no_collection');
        tally.commentsSkipped('entry_not_imported', item.comments.length);
      } else await this.contentItem(item, target.c, placement);
    }
  }

  private async contentItem(item: WxrItem, c: CollectionInfo, placement: ItemPlacement): Promise<void> {
    const { tally, scope } = this;
    const locale = placement.locale ?? scope.locale;
    const converted = wpContentToPortableText(item.content, this.convert);
    for (const u of converted.unconverted) tally.unconverted(u.kind, u.count);
    let data: Record<string, unknown>;
    try {
      data = validateEntryData(c.fields, entryValues(c, item, converted.blocks), {
        mode: 'create',
        blockTypes: blockLookup(this.snap),
      });
      if (c.fields.some((f) => f.unique)) await checkUniques(this.deps.ctx.db, this.deps.ctx.dialect, c, data, locale);
      await this.deps.content.hooks.runBeforeSave({
        collection: c.slug,
        operation: 'create',
        entryId: null,
        locale,
        data,
        actor: scope.actor,
      });
    } catch (err) {
      if (!isCmsError(err)) throw err;
      tally.failed(item, c.slug, err.code, err.message);
      tally.commentsSkipped('entry_not_imported', item.comments.length);
      return;
    }
    const refs = [];
    for (const t of item.terms) {
      const ref = await this.terms.ref(t.domain, t.slug, t.name);
      if (ref && (await this.terms.allow(ref.taxonomy, c.slug))) refs.push(ref);
    }
    const thumb = thumbnailId(item);
    await this.writer.add({
      item,
      c,
      slug: this.writer.claim(c, itemSlug(item), item.postId, locale),
      data,
      published: mapStatus(item.status) === 'published',
      date: itemDate(item) ?? scope.now,
      credit: await this.authors.creditFor(item.creator),
      terms: refs,
      thumbnailUrl: thumb ? (this.attachments.get(thumb)?.url ?? null) : null,
      ...(placement.locale ? { locale: placement.locale } : {}),
      ...(placement.group ? { group: placement.group } : {}),
    });
  }

  /** Write what is queued; then menus (they point at entries written before). */
  async flush(): Promise<void> {
    await this.terms.setup();
    await this.writer.flush();
  }

  async writeMenus(landed: ReadonlyMap<string, Landed> = this.landed): Promise<void> {
    await this.menus.write(this.deps, this.scope, this.tally, landed, this.terms, this.config.skipExisting);
  }
}
