import { type Actor, requirePermission } from '../../auth/actor.js';
import { CmsError, issuesError, notFound, type ValidationIssue } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { CollectionInfo } from '../schema/model.js';
import type { BuildOps, IndexDeps } from './build.js';
import type { CollectionSearchStatus, Tokenizer } from './model.js';
import { defaultSettings, lockCollection, readSettings } from './settings.js';
import { DEFAULT_WEIGHT, planTiers, searchableFields } from './tiers.js';

export interface EnableInput {
  collection: string;
  enabled?: boolean;
  tokenizer?: Tokenizer;
  /** Searchable field slug → weight; fields not named keep their weight. */
  weights?: Record<string, number>;
}

export interface BuildReport extends CollectionSearchStatus {
  /** While a rebuild runs: call again (or read stats) after this many milliseconds; null when done. */
  nextRequestInMs: number | null;
}

/** How long one enable or rebuild request keeps stepping a large build before answering with progress. */
export const REQUEST_BUDGET_MS = 1_000;
const POLL_AFTER_MS = 1_000;

/** Enabling, rebuilding and inspecting indexes: search:manage (Editors and up). */
export function adminOps(deps: IndexDeps, builds: BuildOps) {
  const { ctx, engine } = deps;

  async function collection(slug: string): Promise<CollectionInfo> {
    const c = (await deps.schema.snapshot()).collections.get(slug);
    if (!c) throw notFound(`Collection "${slug}"`);
    return c;
  }

  async function status(c: CollectionInfo): Promise<CollectionSearchStatus> {
    const s = (await readSettings(ctx.db, c.id)) ?? defaultSettings(c.id);
    const enabled = c.supports.includes('search');
    const shape = s.index ?? s.build;
    const size = enabled && shape ? await engine.stats(ctx.db, shape.table) : null;
    const weights: Record<string, number> = {};
    for (const f of searchableFields(c.fields)) weights[f.slug] = s.weights[f.id] ?? DEFAULT_WEIGHT;
    return {
      collection: c.slug,
      enabled,
      tokenizer: s.tokenizer,
      weights,
      state: !enabled ? 'disabled' : s.build || !s.index ? 'building' : 'ready',
      documents: size?.documents ?? null,
      sizeBytes: size?.sizeBytes ?? null,
      lastRebuildAt: s.lastRebuildAt,
      lastRebuildMs: s.lastRebuildMs,
      build: s.build
        ? {
            phase: s.build.phase,
            done: s.build.done,
            total: Math.max(s.build.total, s.build.done),
            startedAt: s.build.startedAt,
            reason: s.build.reason,
          }
        : null,
    };
  }

  async function report(c: CollectionInfo): Promise<BuildReport> {
    const st = await status(await collection(c.slug));
    return { ...st, nextRequestInMs: st.state === 'building' ? POLL_AFTER_MS : null };
  }

  function checkWeights(c: CollectionInfo, weights: Record<string, number>): Record<string, number> {
    const byId: Record<string, number> = {};
    const issues: ValidationIssue[] = [];
    const fields = searchableFields(c.fields);
    for (const [slug, w] of Object.entries(weights)) {
      const f = fields.find((x) => x.slug === slug);
      if (!f) {
        issues.push({
          path: ['weights', slug],
          code: 'not_searchable',
          message: fields.length
            ? `not a searchable field of "${c.slug}" (searchable: ${fields.map((x) => x.slug).join(', ')})`
            : `"${c.slug}" has no searchable fields`,
        });
      } else byId[f.id] = w;
    }
    if (issues.length) throw issuesError('Invalid weights', issues);
    return byId;
  }

  async function enable(actor: Actor, input: EnableInput): Promise<BuildReport> {
    requirePermission(actor, 'search:manage');
    const c = await collection(input.collection);
    const weights = checkWeights(c, input.weights ?? {});
    const on = input.enabled ?? true;
    if (input.tokenizer && on && !(await engine.supports(ctx.db, input.tokenizer))) {
      throw issuesError('Tokenizer not available', [
        {
          path: ['tokenizer'],
          code: 'unavailable',
          message: `"${input.tokenizer}" needs the pg_trgm extension in this PostgreSQL database (see docs/search.md)`,
        },
      ]);
    }
    /** Store the settings; the flag change (or the reconcile below) shapes the index from them. */
    const apply = async (trx: Kdb, target: CollectionInfo) => {
      await lockCollection(trx, ctx.dialect, target.id, 'exclusive');
      const s = (await readSettings(trx, target.id)) ?? defaultSettings(target.id);
      if (input.tokenizer) s.tokenizer = input.tokenizer;
      s.weights = { ...s.weights, ...weights };
      planTiers(searchableFields(target.fields), s.weights, null);
      await builds.saveSettings(trx, s, ctx.clock.now().toISOString());
    };
    if (c.supports.includes('search') !== on) {
      await deps.schema.collections.setSupport(actor, c.slug, 'search', on, {
        permission: 'search:manage',
        inside: apply,
      });
    } else {
      await ctx.db.transaction().execute(async (trx) => {
        const fresh = (await deps.schema.cache.fresh(trx)).collectionsById.get(c.id);
        if (!fresh) throw notFound(`Collection "${c.slug}"`);
        await apply(trx, fresh);
        await builds.reconcile(trx, fresh.id, fresh, { reason: 'settings changed' });
      });
    }
    deps.settings.forget();
    await builds.advance(c.id, REQUEST_BUDGET_MS);
    return report(c);
  }

  async function rebuild(actor: Actor, slug: string): Promise<BuildReport> {
    requirePermission(actor, 'search:manage');
    const c = await collection(slug);
    if (!c.supports.includes('search')) {
      throw new CmsError('INVALID_STATE', `Search is not enabled for "${slug}"`, { collection: slug });
    }
    await ctx.db.transaction().execute(async (trx) => {
      const fresh = (await deps.schema.cache.fresh(trx)).collectionsById.get(c.id);
      if (!fresh) throw notFound(`Collection "${slug}"`);
      // A rebuild in progress is resumed, not restarted.
      const s = await readSettings(trx, c.id);
      if (!s?.build) await builds.reconcile(trx, c.id, fresh, { reason: 'rebuild', force: true });
    });
    await builds.advance(c.id, REQUEST_BUDGET_MS);
    return report(c);
  }

  async function stats(actor: Actor, slug?: string): Promise<{ collections: CollectionSearchStatus[] }> {
    requirePermission(actor, 'search:manage');
    const snap = await deps.schema.snapshot();
    const list = slug ? [await collection(slug)] : [...snap.collections.values()];
    const collections: CollectionSearchStatus[] = [];
    for (const c of list) collections.push(await status(c));
    return { collections };
  }

  return { enable, rebuild, stats };
}
