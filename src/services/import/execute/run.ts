import { type Actor, requirePermission } from '../../../auth/actor.js';
import { isoNow } from '../../../core/clock.js';
import { resolveLocale } from '../../locales.js';
import type { SchemaSnapshot } from '../../schema/model.js';
import { type Analysis, Analyzer } from '../analyze.js';
import type { ExecuteConfig } from '../config.js';
import { invalidConfig } from '../errors.js';
import { defaultCollection, INTERNAL_POST_TYPES, isInternalType, reviewExisting } from '../post-types.js';
import { type WxrLimits, wxrLimits } from '../wxr/limits.js';
import { metaValue } from '../wxr/model.js';
import { readWxr } from '../wxr/read.js';
import type { ImportDeps, RunScope } from './deps.js';
import { ImportSession, type Target } from './session.js';
import type { AttachmentRef, ExecuteResult } from './tally.js';

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

/**
 * The check pass: reads the whole file before anything is written, so a
 * malformed or truncated export fails with nothing imported, and collects what
 * the import pass needs up front (attachments by source ID, post-type usage).
 */
async function checkPass(open: ExportSource, snap: SchemaSnapshot, limits: WxrLimits) {
  const analyzer = new Analyzer();
  const attachments = new Map<string, AttachmentRef>();
  for await (const r of readWxr(open(), limits)) {
    analyzer.add(r);
    if (r.kind !== 'item') continue;
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

export function resolveTargets(
  config: ExecuteConfig,
  snap: SchemaSnapshot,
  analysis: Pick<Analysis, 'postTypes'>,
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
    const rv = reviewExisting(c, pt.fields, { comments: 0 });
    if (rv.state === 'Incompatible') throw invalidConfig(['postTypeMappings', pt.name], rv.reason as string);
    out.set(pt.name, { c });
  }
  return out;
}

/**
 * Every check that can refuse the import — permission, locale, the whole file
 * read once, mappings, author mappings — before anything is written; answers
 * the function that runs the import (so a door can start streaming progress
 * only once nothing can be refused any more).
 */
export async function startWxr(
  deps: ImportDeps,
  actor: Actor,
  open: ExportSource,
  config: ExecuteConfig,
  opts: Omit<ExecuteOptions, 'onProgress'> = {},
): Promise<(onProgress?: ExecuteOptions['onProgress']) => Promise<ExecuteResult>> {
  requirePermission(actor, 'import:execute');
  const started = Date.now();
  const locale = resolveLocale(deps.ctx.config, config.locale, ['config', 'locale']);
  const scope: RunScope = { actor, locale, now: isoNow(deps.ctx.clock) };
  const snap = await deps.schema.snapshot();
  const limits = wxrLimits(deps.ctx.config);
  const { analysis, attachments } = await checkPass(open, snap, limits);
  const total = analysis.items;
  const targets = resolveTargets(config, snap, analysis);
  const session = new ImportSession(deps, scope, config, snap, targets, attachments, opts.batchSize);
  await session.authors.checkMappings();
  return async (onProgress) => {
    let done = 0;
    onProgress?.({ stage: 'import', done, total });
    for await (const r of readWxr(open(), limits)) {
      if (r.kind === 'author') session.author(r.author);
      else if (r.kind === 'term') session.term(r.term);
      else if (r.kind === 'item') {
        await session.item(r.item);
        if (++done % 100 === 0) onProgress?.({ stage: 'import', done, total });
      }
    }
    await session.flush();
    onProgress?.({ stage: 'menus', done, total });
    await session.writeMenus();
    const { tally } = session;
    tally.result.media.attachments = [...attachments.values()];
    tally.result.warnings = analysis.warnings;
    tally.result.durationMs = Date.now() - started;
    onProgress?.({ stage: 'done', done, total });
    return tally.result;
  };
}

export async function executeWxr(
  deps: ImportDeps,
  actor: Actor,
  open: ExportSource,
  config: ExecuteConfig,
  opts: ExecuteOptions = {},
): Promise<ExecuteResult> {
  opts.onProgress?.({ stage: 'check', done: 0, total: 0 });
  const run = await startWxr(deps, actor, open, config, opts);
  return run(opts.onProgress);
}
