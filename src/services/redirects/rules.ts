import { z } from 'zod';
import { type Actor, requirePermission } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { cursorInteger, cursorText, decodeCursor, encodeCursor } from '../../core/cursor.js';
import { CmsError, issuesError, notFound } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { isStorableText } from '../../core/text.js';
import type { Kdb } from '../../db/connect.js';
import { lockKey } from '../../db/locks.js';
import type { RedirectsTable } from '../../db/tables-public.js';
import type { ServiceContext } from '../context.js';
import { bumpRulesVersion, enabledRules, type RuleCache } from './cache.js';
import { forwardChain, type RedirectWarning, rulesChainingInto, samplePath, walk } from './chains.js';
import { Matcher, type RuleRecord } from './matcher.js';
import { parseSource, type RedirectKind, type RedirectStatus, targetIssues } from './rule.js';

export interface RedirectView {
  id: string;
  source: string;
  kind: RedirectKind;
  target: string;
  statusCode: RedirectStatus;
  enabled: boolean;
  note: string | null;
  hits: number;
  lastHitAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Chains through this rule (a loop is refused when it is written). */
  warnings: RedirectWarning[];
}

export interface RedirectInput {
  source: string;
  target: string;
  statusCode?: RedirectStatus;
  enabled?: boolean;
  note?: string | null;
}

export interface ListRedirectsQuery {
  cursor?: string;
  limit?: number;
  sort?: 'created' | 'source' | 'hits';
  /** Sources starting with this text. */
  prefix?: string;
}

/** A source as a sort key: longer than most keys (paths up to 2,048 characters). */
const sourceKey = z.string().max(2048).refine(isStorableText);

const toRecord = (r: RedirectsTable): RuleRecord => ({
  id: r.id,
  source: r.source,
  target: r.target,
  statusCode: Number(r.status_code) as RedirectStatus,
  createdAt: r.created_at,
});

/**
 * Redirect rules (Editors: `redirects:manage`). Every write runs in one
 * transaction that re-checks the whole rule set: a rule that would send
 * visitors in a loop (directly or through other rules, within ten hops) is
 * refused; chains are reported as warnings.
 */
export function ruleOps(ctx: ServiceContext, cache: RuleCache, siteOrigin: () => Promise<string | null>) {
  const db = ctx.db;

  function view(
    r: RedirectsTable,
    matcher: Matcher,
    origin: string | null,
    extra: RedirectWarning[] = [],
  ): RedirectView {
    const chain = r.enabled ? forwardChain(matcher, toRecord(r), origin) : null;
    return {
      id: r.id,
      source: r.source,
      kind: r.kind as RedirectKind,
      target: r.target,
      statusCode: Number(r.status_code) as RedirectStatus,
      enabled: Boolean(r.enabled),
      note: r.note,
      hits: Number(r.hits),
      lastHitAt: r.last_hit_at,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      warnings: [...(chain ? [chain] : []), ...extra],
    };
  }

  async function load(id: string, trx: Kdb = db): Promise<RedirectsTable> {
    const r = await trx.selectFrom('_cms_redirects').selectAll().where('id', '=', id).executeTakeFirst();
    if (!r) throw notFound('Redirect');
    return r;
  }

  async function list(
    actor: Actor,
    query: ListRedirectsQuery,
  ): Promise<{ items: RedirectView[]; nextCursor?: string }> {
    requirePermission(actor, 'redirects:manage');
    const limit = query.limit ?? 50;
    const sort = query.sort ?? 'created';
    let q = db.selectFrom('_cms_redirects').selectAll();
    if (query.prefix) q = q.where('source', '>=', query.prefix).where('source', '<', `${query.prefix}\uffff`);
    if (sort === 'source') {
      if (query.cursor) q = q.where('source', '>', decodeCursor(query.cursor, [sourceKey])[0]);
      q = q.orderBy('source');
    } else if (sort === 'hits') {
      if (query.cursor) {
        const [hits, id] = decodeCursor(query.cursor, [cursorInteger, cursorText]);
        q = q.where((eb) => eb.or([eb('hits', '<', hits), eb.and([eb('hits', '=', hits), eb('id', '<', id)])]));
      }
      q = q.orderBy('hits', 'desc').orderBy('id', 'desc');
    } else {
      if (query.cursor) {
        const [at, id] = decodeCursor(query.cursor, [cursorText, cursorText]);
        q = q.where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', id)])]));
      }
      q = q.orderBy('created_at', 'desc').orderBy('id', 'desc');
    }
    const rows = await q.limit(limit + 1).execute();
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const cursorOf = (r: RedirectsTable) =>
      sort === 'source'
        ? encodeCursor([r.source])
        : sort === 'hits'
          ? encodeCursor([Number(r.hits), r.id])
          : encodeCursor([r.created_at, r.id]);
    const matcher = await cache.get();
    const origin = await siteOrigin();
    return {
      items: page.map((r) => view(r, matcher, origin)),
      ...(rows.length > limit && last ? { nextCursor: cursorOf(last) } : {}),
    };
  }

  async function get(actor: Actor, id: string): Promise<RedirectView> {
    requirePermission(actor, 'redirects:manage');
    return view(await load(id), await cache.get(), await siteOrigin());
  }

  /** Validate a rule against the others (loops refused); answers the normalised source and kind. */
  async function check(trx: Kdb, id: string, input: Required<Omit<RedirectInput, 'note'>>, origin: string | null) {
    const parsed = parseSource(input.source);
    if (Array.isArray(parsed)) throw issuesError('Invalid redirect', parsed);
    const targetProblems = targetIssues(input.target, parsed);
    if (targetProblems.length) throw issuesError('Invalid redirect', targetProblems);
    const clash = await trx
      .selectFrom('_cms_redirects')
      .select('id')
      .where('source', '=', parsed.source)
      .where('id', '!=', id)
      .executeTakeFirst();
    if (clash) {
      throw new CmsError('ALREADY_EXISTS', `A redirect from ${parsed.source} already exists`, {
        redirectId: clash.id,
        issues: [{ path: ['source'], code: 'already_exists', message: 'another rule has this source' }],
      });
    }
    const others = (await enabledRules(trx)).filter((r) => r.id !== id);
    const self: RuleRecord = {
      id,
      source: parsed.source,
      target: input.target.trim(),
      statusCode: input.statusCode,
      createdAt: '',
    };
    const rules = input.enabled ? [...others, self] : others;
    const matcher = new Matcher(rules);
    const warnings: RedirectWarning[] = [];
    if (input.enabled) {
      const w = walk(matcher, samplePath(parsed), origin);
      if (w.loop) {
        throw issuesError('This redirect would send visitors in a loop', [
          { path: ['target'], code: 'redirect_loop', message: `loops: ${w.chain.join(' → ')}` },
        ]);
      }
      warnings.push(...rulesChainingInto(matcher, others, id, origin));
    }
    return { parsed, warnings };
  }

  async function write(actor: Actor, id: string, input: Required<RedirectInput>, existing: boolean) {
    const origin = await siteOrigin();
    const { warnings, row } = await db.transaction().execute(async (trx) => {
      // One rule-set writer at a time, so two writes cannot each pass the loop check and form a loop together.
      await lockKey(trx, ctx.dialect, 'cms:redirects');
      if (existing) await load(id, trx);
      const { parsed, warnings } = await check(trx, id, input, origin);
      const now = isoNow(ctx.clock);
      const values = {
        source: parsed.source,
        kind: parsed.kind,
        target: input.target.trim(),
        status_code: input.statusCode,
        enabled: input.enabled ? 1 : 0,
        note: input.note?.trim() || null,
        updated_at: now,
      };
      if (existing) await trx.updateTable('_cms_redirects').set(values).where('id', '=', id).execute();
      else {
        await trx
          .insertInto('_cms_redirects')
          .values({ id, ...values, hits: 0, last_hit_at: null, created_by: actor.userId, created_at: now })
          .execute();
      }
      await bumpRulesVersion(trx);
      return { warnings, row: await load(id, trx) };
    });
    cache.invalidate();
    return view(row, await cache.get(), origin, warnings);
  }

  async function create(actor: Actor, input: RedirectInput): Promise<RedirectView> {
    requirePermission(actor, 'redirects:manage');
    return write(
      actor,
      newId(),
      {
        source: input.source,
        target: input.target,
        statusCode: input.statusCode ?? 301,
        enabled: input.enabled ?? true,
        note: input.note ?? null,
      },
      false,
    );
  }

  async function update(actor: Actor, id: string, input: Partial<RedirectInput>): Promise<RedirectView> {
    requirePermission(actor, 'redirects:manage');
    const current = await load(id);
    return write(
      actor,
      id,
      {
        source: input.source ?? current.source,
        target: input.target ?? current.target,
        statusCode: input.statusCode ?? (Number(current.status_code) as RedirectStatus),
        enabled: input.enabled ?? Boolean(current.enabled),
        note: input.note === undefined ? current.note : input.note,
      },
      true,
    );
  }

  async function remove(actor: Actor, id: string): Promise<{ deleted: true; id: string }> {
    requirePermission(actor, 'redirects:manage');
    await db.transaction().execute(async (trx) => {
      await load(id, trx);
      await trx.deleteFrom('_cms_redirects').where('id', '=', id).execute();
      await bumpRulesVersion(trx);
    });
    cache.invalidate();
    return { deleted: true, id };
  }

  return { list, get, create, update, remove, view };
}
