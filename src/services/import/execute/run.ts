import { type Actor, requirePermission } from '../../../auth/actor.js';
import { isoNow } from '../../../core/clock.js';
import { isCmsError } from '../../../core/errors.js';
import type { ExecuteConfig } from '../../../schemas/import.js';
import { checkUniques } from '../../content/checks.js';
import { blockLookup } from '../../content/deps.js';
import { validateEntryData } from '../../fields/values.js';
import { resolveLocale } from '../../locales.js';
import type { CollectionInfo, SchemaSnapshot } from '../../schema/model.js';
import { Analyzer } from '../analyze.js';
import { type ConvertContext, wpContentToPortableText } from '../convert/index.js';
import { invalidConfig } from '../errors.js';
import { defaultCollection, INTERNAL_POST_TYPES, isInternalType, mapStatus, reviewExisting } from '../post-types.js';
import { metaValue, type WxrItem } from '../wxr/model.js';
import { readWxr } from '../wxr/read.js';
import { Authors } from './authors.js';
import type { ImportDeps, RunScope } from './deps.js';
import { EntryWriter } from './entries.js';
import { Menus } from './menus.js';
import { importSection } from './sections.js';
import { type AttachmentRef, type ExecuteResult, Tally } from './tally.js';
import { Terms } from './terms.js';
import { entryValues, itemDate, itemSlug, thumbnailId } from './values.js';

/** Opens the export from the start; execute reads it twice (check, then import). */
export type ExportSource = () => AsyncIterable<Uint8Array | string>;

export interface ImportProgress {
  stage: 'check' | 'import' | 'menus' | 'done';
  /** Items handled so far in this stage. */
  done: number;
  /** Items in the file (known after the check stage). */
  total: number;
}

export interface ExecuteOptions {
  /** Entries per write transaction (default 200). */
  batchSize?: number;
  onProgress?: (p: ImportProgress) => void;
}

type Target = { c: CollectionInfo } | { c: null; reason: string };

/**
 * The check pass: reads the whole file before anything is written, so a
 * malformed or truncated export fails with nothing imported, and collects what
 * the import pass needs up front (attachments by source ID, post-type usage).
 */
async function checkPass(open: ExportSource, snap: SchemaSnapshot, progress?: (n: number) => void) {
  const analyzer = new Analyzer();
  const attachments = new Map<string, AttachmentRef>();
  let n = 0;
  for await (const r of readWxr(open())) {
    analyzer.add(r);
    if (r.kind !== 'item') continue;
    if (++n % 500 === 0) progress?.(n);
    const item = r.item;
    if (item.postType === 'attachment' && item.postId) {
      attachments.set(item.postId, {
        sourceId: item.postId,
        url: item.attachmentUrl || item.guid,
        title: item.title,
        alt: metaValue(item, '_wp_attachment_image_alt') ?? '',
      });
    }
  }
  return { analysis: analyzer.result(snap), attachments };
}

function resolveTargets(
  config: ExecuteConfig,
  snap: SchemaSnapshot,
  analysis: Awaited<ReturnType<typeof checkPass>>['analysis'],
): Map<string, Target> {
  const out = new Map<string, Target>();
  for (const key of Object.keys(config.postTypeMappings)) {
    if (isInternalType(key)) {
      throw invalidConfig(['postTypeMappings', key], `"${key}" is not content: ${INTERNAL_POST_TYPES[key]}`);
    }
  }
  for (const pt of analysis.postTypes) {
    const m = config.postTypeMappings[pt.name];
    if (m === null || (typeof m === 'object' && m !== undefined && m.enabled === false)) {
      out.set(pt.name, { c: null, reason: 'not_selected' });
      continue;
    }
    const slug = typeof m === 'string' ? m : (m?.collection ?? defaultCollection(pt.name));
    const c = snap.collections.get(slug);
    if (!c) {
      if (m !== undefined) {
        throw invalidConfig(
          ['postTypeMappings', pt.name],
          `Collection "${slug}" does not exist: run the prepare step for "${pt.name}" first`,
        );
      }
      out.set(pt.name, { c: null, reason: 'no_collection' });
      continue;
    }
    const rv = reviewExisting(c, pt.fields);
    if (rv.state === 'Incompatible') throw invalidConfig(['postTypeMappings', pt.name], rv.reason as string);
    out.set(pt.name, { c });
  }
  return out;
}

export async function executeWxr(
  deps: ImportDeps,
  actor: Actor,
  open: ExportSource,
  config: ExecuteConfig,
  opts: ExecuteOptions = {},
): Promise<ExecuteResult> {
  requirePermission(actor, 'import:execute');
  const started = Date.now();
  const locale = resolveLocale(deps.ctx.config, config.locale, ['config', 'locale']);
  const scope: RunScope = { actor, locale, now: isoNow(deps.ctx.clock) };
  const snap = await deps.schema.snapshot();
  const { analysis, attachments } = await checkPass(open, snap, (done) =>
    opts.onProgress?.({ stage: 'check', done, total: 0 }),
  );
  const total = analysis.items;
  const targets = resolveTargets(config, snap, analysis);
  const tally = new Tally();
  const authors = new Authors(deps, scope, config.authorMappings ?? {}, tally);
  await authors.checkMappings();
  const terms = new Terms(deps, scope, tally);
  const menus = new Menus();
  const userIds = new Map<string, string>();
  const writer = new EntryWriter(
    deps,
    scope,
    tally,
    { skipExisting: config.skipExisting, batchSize: opts.batchSize ?? 200, userIds },
    (taxonomy, n) => terms.assigned(taxonomy, n),
  );
  const convert: ConvertContext = {
    attachmentById: (id) => {
      const a = attachments.get(String(id));
      return a ? { url: a.url, alt: a.alt || undefined } : undefined;
    },
  };
  const lookup = blockLookup(snap);
  let done = 0;

  const contentItem = async (item: WxrItem, c: CollectionInfo) => {
    const converted = wpContentToPortableText(item.content, convert);
    for (const u of converted.unconverted) tally.unconverted(u.kind, u.count);
    let data: Record<string, unknown>;
    try {
      data = validateEntryData(c.fields, entryValues(c, item, converted.blocks), {
        mode: 'create',
        blockTypes: lookup,
      });
      if (c.fields.some((f) => f.unique)) await checkUniques(deps.ctx.db, deps.ctx.dialect, c, data, locale);
      await deps.content.hooks.runBeforeSave({
        collection: c.slug,
        operation: 'create',
        entryId: null,
        locale,
        data,
        actor,
      });
    } catch (err) {
      if (!isCmsError(err)) throw err;
      tally.failed(item, c.slug, err.code, err.message);
      tally.result.comments.skipped += item.comments.length;
      return;
    }
    const refs = [];
    for (const t of item.terms) {
      const ref = await terms.ref(t.domain, t.slug, t.name);
      if (ref && (await terms.allow(ref.taxonomy, c.slug))) refs.push(ref);
    }
    const thumb = thumbnailId(item);
    await writer.add({
      item,
      c,
      slug: writer.claim(c, itemSlug(item), item.postId),
      data,
      published: mapStatus(item.status) === 'published',
      date: itemDate(item) ?? scope.now,
      credit: await authors.creditFor(item.creator),
      terms: refs,
      thumbnailUrl: thumb ? (attachments.get(thumb)?.url ?? null) : null,
    });
  };

  for await (const r of readWxr(open())) {
    if (r.kind === 'author') {
      authors.declare(r.author);
      const mapped = config.authorMappings?.[r.author.login];
      if (mapped && r.author.id) userIds.set(r.author.id, mapped);
      continue;
    }
    if (r.kind === 'term') {
      terms.declare(r.term);
      if (r.term.taxonomy === 'nav_menu') menus.declare(r.term.slug, r.term.name);
      continue;
    }
    if (r.kind !== 'item') continue;
    await terms.setup();
    const item = r.item;
    item.postType ||= 'post';
    tally.result.items++;
    if (++done % 100 === 0) opts.onProgress?.({ stage: 'import', done, total });
    if (item.postType === 'attachment') tally.skipped(item.postType, null, 'media_step');
    else if (item.postType === 'nav_menu_item') {
      if (!menus.add(item)) tally.skipped(item.postType, null, 'no_menu');
    } else if (item.postType === 'wp_block') {
      if (config.importSections) await importSection(deps, scope, tally, item, config.skipExisting, convert);
      else tally.skipped(item.postType, null, 'not_selected');
    } else if (isInternalType(item.postType)) tally.skipped(item.postType, null, 'internal_type');
    else {
      const target = targets.get(item.postType);
      if (!target?.c) tally.skipped(item.postType, null, target?.reason ?? 'no_collection');
      else await contentItem(item, target.c);
    }
  }
  await terms.setup();
  await writer.flush();
  opts.onProgress?.({ stage: 'menus', done, total });
  await menus.write(deps, scope, tally, writer.landed, terms, config.skipExisting);
  tally.result.media.attachments = [...attachments.values()];
  tally.result.durationMs = Date.now() - started;
  opts.onProgress?.({ stage: 'done', done, total });
  return tally.result;
}
