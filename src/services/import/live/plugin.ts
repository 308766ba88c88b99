import { type Actor, requirePermission } from '../../../auth/actor.js';
import { isoNow } from '../../../core/clock.js';
import { newId } from '../../../core/ids.js';
import type { Kdb } from '../../../db/connect.js';
import type { CommentsTable } from '../../../db/tables-public.js';
import type { CommentText } from '../../comments/text.js';
import { dyn } from '../../content/rows.js';
import { resolveLocale } from '../../locales.js';
import type { CollectionInfo, SchemaSnapshot } from '../../schema/model.js';
import { type Analysis, repairWarning } from '../analyze.js';
import type { ExecuteConfig } from '../config.js';
import { checkImportedComment, commentDate, importedComment } from '../execute/comments.js';
import type { ImportDeps, RunScope } from '../execute/deps.js';
import type { Landed } from '../execute/entries.js';
import { resolveTargets } from '../execute/run.js';
import { ImportSession } from '../execute/session.js';
import type { ExecuteResult } from '../execute/tally.js';
import {
  defaultCollection,
  INTERNAL_POST_TYPES,
  INTERNAL_TAXONOMIES,
  isInternalType,
  isPingback,
  review,
  suggestedFields,
  taxonomyName,
} from '../post-types.js';
import { ExporterClient, type ExporterComment, type ExporterSummary } from './exporter.js';

/**
 * The exporter-plugin source: the same stages as an export file, over the
 * plugin's paged API, in phases the client drives (`content`, `comments`,
 * `finalize`). The server keeps nothing between requests: each answer carries
 * the next cursor and the chunk of the transient maps it made (source post ID
 * → entry, source ID → translation group, source comment ID → comment and
 * thread); the client merges them and sends the accumulated maps back. A lost
 * state means starting again, with skipExisting (matched entries rebuild the map).
 */

export type Phase = 'content' | 'comments' | 'finalize';

export interface IdRef {
  collection: string;
  id: string;
  group: string;
  /** The entry existed before this import (skipExisting): its comments are not imported again. */
  existing?: boolean;
}

export interface PluginState {
  cursor?: string | null;
  idMap?: Record<string, IdRef>;
  translationGroups?: Record<string, string>;
  commentRoots?: Record<string, { id: string; root: string }>;
}

export interface PluginStep {
  phase: Phase;
  done: boolean;
  cursor?: string;
  result: ExecuteResult;
  chunk: {
    idMap: Record<string, IdRef>;
    translationGroups: Record<string, string>;
    commentRoots: Record<string, { id: string; root: string }>;
  };
}

/** Items (or comments) per request: one bounded step. */
const PAGE = 100;

export function analysisFromSummary(s: ExporterSummary, snap: SchemaSnapshot): Analysis {
  const postTypes: Analysis['postTypes'] = [];
  const excluded: Analysis['excluded'] = [];
  for (const pt of s.postTypes) {
    if (isInternalType(pt.name)) {
      excluded.push({ name: pt.name, count: pt.count, reason: INTERNAL_POST_TYPES[pt.name] });
      continue;
    }
    const collection = defaultCollection(pt.name);
    const fields = suggestedFields({ excerpt: pt.excerpt, featuredImage: pt.featuredImage });
    postTypes.push({
      name: pt.name,
      count: pt.count,
      byStatus: pt.byStatus,
      collection,
      fields,
      review: review(snap, collection, fields),
      // The exporter's summary counts comments for the whole site only.
      comments: { count: 0, skipped: {} },
    });
  }
  const termCounts = new Map<string, number>();
  for (const t of s.terms) termCounts.set(t.taxonomy, (termCounts.get(t.taxonomy) ?? 0) + 1);
  return {
    site: { ...s.site, baseSiteUrl: s.site.url, wxrVersion: '' },
    items: s.postTypes.reduce((n, p) => n + p.count, 0),
    postTypes,
    excluded,
    attachments: { count: s.postTypes.find((p) => p.name === 'attachment')?.count ?? 0, byExtension: {} },
    authors: s.authors.map((a) => ({
      login: a.login,
      displayName: a.displayName || a.login,
      email: a.email,
      posts: 0,
    })),
    taxonomies: [...termCounts]
      .filter(([name]) => !INTERNAL_TAXONOMIES.has(name))
      .map(([source, terms]) => ({
        source,
        taxonomy: taxonomyName(source),
        terms,
        hierarchical: source === 'category',
      })),
    customFields: [],
    comments: { count: s.comments, byStatus: {} },
    menus: s.menus.map((m) => ({ name: m.slug, label: m.name, items: 0 })),
    reusableBlocks: s.postTypes.find((p) => p.name === 'wp_block')?.count ?? 0,
    warnings: s.repairs ? [repairWarning(s.repairs)] : [],
  };
}

export async function pluginAnalyze(deps: ImportDeps, actor: Actor, url: string, token: string): Promise<Analysis> {
  requirePermission(actor, 'import:execute');
  const client = new ExporterClient(deps.ctx, url, token);
  return analysisFromSummary(await client.summary(), await deps.schema.snapshot());
}

/**
 * A translation group sent by the client is joined only when it is a group of
 * the target collection without an entry in the item's locale; otherwise the
 * item is imported on its own (a new group).
 */
async function joinable(db: Kdb, c: CollectionInfo, group: string, locale: string): Promise<string | undefined> {
  const rows: Array<{ locale: string }> = await dyn(db)
    .selectFrom(c.table)
    .select('locale')
    .where('translation_group', '=', group)
    .execute();
  return rows.length && !rows.some((r) => r.locale === locale) ? group : undefined;
}

/** Client-sent map entries are only trusted for entries that exist in the named collection. */
async function existing(db: Kdb, snap: SchemaSnapshot, refs: IdRef[]): Promise<Map<string, CollectionInfo>> {
  const out = new Map<string, CollectionInfo>();
  const byCollection = new Map<string, string[]>();
  for (const r of refs) byCollection.set(r.collection, [...(byCollection.get(r.collection) ?? []), r.id]);
  for (const [slug, ids] of byCollection) {
    const c = snap.collections.get(slug);
    if (!c) continue;
    for (let i = 0; i < ids.length; i += 500) {
      const rows: Array<{ id: string }> = await dyn(db)
        .selectFrom(c.table)
        .select('id')
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
      for (const r of rows) out.set(r.id, c);
    }
  }
  return out;
}

export async function pluginExecute(
  deps: ImportDeps,
  actor: Actor,
  input: { url: string; token: string; config: ExecuteConfig; phase: Phase; state: PluginState },
): Promise<PluginStep> {
  requirePermission(actor, 'import:execute');
  const { config, phase, state } = input;
  const locale = resolveLocale(deps.ctx.config, config.locale, ['config', 'locale']);
  const scope: RunScope = { actor, locale, now: isoNow(deps.ctx.clock) };
  const client = new ExporterClient(deps.ctx, input.url, input.token);
  const snap = await deps.schema.snapshot();
  const summary = await client.summary();
  const targets = resolveTargets(config, snap, analysisFromSummary(summary, snap));
  const session = new ImportSession(deps, scope, config, snap, targets, new Map(), PAGE);
  await session.authors.checkMappings();
  for (const a of summary.authors) session.author(a);
  for (const t of summary.terms) session.term(t);
  for (const m of summary.menus) session.menus.declare(m.slug, m.name);
  const chunk: PluginStep['chunk'] = { idMap: {}, translationGroups: {}, commentRoots: {} };
  const idMap = state.idMap ?? {};
  /** The step's answer, with what the client repaired in the text it read. */
  const answer = (next: string | null) => {
    const repairs = client.repairs.result();
    if (repairs) session.tally.result.warnings = [repairWarning(repairs)];
    return step(phase, next, session.tally.result, chunk);
  };

  if (phase === 'content') {
    const page = await client.content(state.cursor ?? null, PAGE);
    const groups = { ...(state.translationGroups ?? {}) };
    // Items of a page can translate one another: then each is written before the next is read.
    const ordered = page.items.some((i) => i.translationOf);
    for (const item of page.items) {
      if (item.postType === 'nav_menu_item') continue; // menus come in the finalize phase
      if (item.postType === 'attachment') {
        session.tally.result.media.attachments.push({
          sourceId: item.postId,
          url: item.attachmentUrl || item.guid,
          title: item.title,
          alt: item.meta.find((m) => m.key === '_wp_attachment_image_alt')?.value ?? '',
        });
      }
      const itemLocale = item.locale && deps.ctx.config.i18n.locales.includes(item.locale) ? item.locale : undefined;
      const claimed = item.translationOf ? (groups[item.translationOf] ?? idMap[item.translationOf]?.group) : undefined;
      const target = targets.get(item.postType);
      const group =
        claimed && target?.c ? await joinable(deps.ctx.db, target.c, claimed, itemLocale ?? locale) : undefined;
      await session.item(item, { locale: itemLocale, group });
      if (ordered) await session.flush();
      const landed = session.landed.get(item.postId);
      if (landed) groups[item.postId] = landed.group;
    }
    await session.flush();
    for (const [sourceId, l] of session.landed) {
      chunk.idMap[sourceId] = {
        collection: l.collection.slug,
        id: l.id,
        group: l.group,
        ...(l.existing ? { existing: true } : {}),
      };
      chunk.translationGroups[sourceId] = l.group;
    }
    return answer(page.nextCursor);
  }

  if (phase === 'comments') {
    const page = await client.comments(state.cursor ?? null, PAGE);
    const roots = { ...(state.commentRoots ?? {}) };
    const refs = page.comments.map((c) => idMap[c.postId]).filter((r): r is IdRef => !!r);
    const known = await existing(deps.ctx.db, snap, refs);
    const rows = commentRowsAcrossChunks(page.comments, idMap, known, roots, chunk.commentRoots, scope, session);
    if (rows.length) {
      await deps.ctx.db.transaction().execute(async (trx) => {
        for (let i = 0; i < rows.length; i += 100)
          await trx
            .insertInto('_cms_comments')
            .values(rows.slice(i, i + 100))
            .execute();
      });
    }
    session.tally.result.comments.imported += rows.length;
    return answer(page.nextCursor);
  }

  // finalize: menus, pointing at entries through the accumulated map.
  const refs = Object.values(idMap);
  const known = await existing(deps.ctx.db, snap, refs);
  const landed = new Map<string, Landed>();
  for (const [sourceId, r] of Object.entries(idMap)) {
    const c = known.get(r.id);
    if (c && c.slug === r.collection) landed.set(sourceId, { collection: c, id: r.id, group: r.group });
  }
  await session.terms.setup();
  for (const item of await client.menuItems()) {
    session.tally.result.items++;
    if (!session.menus.add(item)) session.tally.skipped('nav_menu_item', null, 'no_menu');
  }
  await session.writeMenus(landed);
  return answer(null);
}

function step(phase: Phase, next: string | null, result: ExecuteResult, chunk: PluginStep['chunk']): PluginStep {
  return { phase, done: !next, ...(next ? { cursor: next } : {}), result, chunk };
}

/**
 * Comments of one page: parents may be in an earlier page (their new IDs come
 * from the client's `commentRoots`) or in this one. Updates `roots` in place.
 */
function commentRowsAcrossChunks(
  comments: ExporterComment[],
  idMap: Record<string, IdRef>,
  known: Map<string, CollectionInfo>,
  roots: Record<string, { id: string; root: string }>,
  fresh: Record<string, { id: string; root: string }>,
  scope: RunScope,
  session: ImportSession,
): CommentsTable[] {
  const { tally, userIds } = session;
  const now = scope.now;
  const rows: CommentsTable[] = [];
  const texts = new Map<ExporterComment, CommentText>();
  let pending = comments.filter((c) => {
    const ref = idMap[c.postId];
    const c2 = ref ? known.get(ref.id) : undefined;
    const reason = !c2
      ? 'entry_not_imported'
      : ref?.existing || roots[c.id]
        ? 'exists'
        : !c2.supports.includes('comments')
          ? 'comments_disabled'
          : isPingback(c.type)
            ? 'pingback'
            : null;
    if (reason) {
      tally.commentsSkipped(reason);
      return false;
    }
    const checked = checkImportedComment(c);
    if ('reason' in checked) {
      tally.commentsSkipped(checked.reason);
      return false;
    }
    for (const k of checked.changed) tally.result.comments.changed[k] = (tally.result.comments.changed[k] ?? 0) + 1;
    texts.set(c, checked.text);
    return true;
  });
  const inPage = new Set(pending.map((c) => c.id));
  while (pending.length) {
    const next: ExporterComment[] = [];
    for (const c of pending) {
      const parentWaits = c.parent && c.parent !== '0' && !roots[c.parent] && inPage.has(c.parent);
      if (parentWaits) {
        next.push(c);
        continue;
      }
      const parent = c.parent && roots[c.parent] ? roots[c.parent] : null;
      const id = newId();
      roots[c.id] = { id, root: parent ? parent.root : id };
      fresh[c.id] = roots[c.id];
      const ref = idMap[c.postId];
      rows.push(
        importedComment(c, texts.get(c) as CommentText, {
          id,
          collection: ref.collection,
          entryId: ref.id,
          rootId: roots[c.id].root,
          parentId: parent ? parent.id : null,
          at: commentDate(c, now),
          userIds,
        }),
      );
    }
    // A parent cycle: the rest become top-level comments.
    if (next.length === pending.length) for (const c of next) c.parent = '0';
    pending = next;
  }
  return rows;
}
