import { type Actor, can, requirePermission } from '../../auth/actor.js';
import { issuesError, notFound, validationError } from '../../core/errors.js';
import type { CollectionInfo } from '../schema/model.js';
import type { IndexDeps } from './build.js';
import { decodeCursor, encodeCursor, fingerprint, keysetFor, type SearchPosition } from './cursor.js';
import type { Candidate, RankRequest } from './engine.js';
import { singleUnit } from './head-keys.js';
import { readHeadMeta } from './heads.js';
import { rankFromHeads } from './heads-rank.js';
import type { SearchHit, SearchResult, Suggestion, Visibility } from './model.js';
import { passageWindow } from './passage-window.js';
import { charCount, parseQuery } from './query.js';
import { readAllSettings, type SearchSettings } from './settings.js';
import { markedToHtml, pickSnippet } from './snippet.js';
import { tierWeightsOf } from './tiers.js';

export interface SearchInput {
  q: string;
  collections?: string[];
  locale?: string;
  limit?: number;
  cursor?: string;
}

export interface SuggestInput {
  q: string;
  collections?: string[];
  locale?: string;
  limit?: number;
}

export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 100;
export const DEFAULT_SUGGEST_LIMIT = 8;
export const MAX_SUGGEST_LIMIT = 20;
/** Shorter input suggests nothing: a one-letter prefix matches most of any index. */
export const MIN_SUGGEST_CHARS = 2;

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();

interface Target {
  c: CollectionInfo;
  s: SearchSettings;
}

/** A table a rebuild swapped away between reading the settings and the query: try once more. */
const isMissingTable = (err: unknown) =>
  (err as { code?: string }).code === '42P01' || /no such table/i.test((err as Error).message ?? '');

/** The passage shown: cut here from a whole tier text, once, for the one tier a result shows. */
const cut = (whole: boolean, text: string) => (whole ? passageWindow(text) : text);

export function readOps(deps: IndexDeps) {
  const { ctx, engine } = deps;

  /** Reading follows the content rules: drafts only for draft readers. */
  function visibilityOf(actor: Actor): Visibility {
    requirePermission(actor, 'content:read');
    return can(actor, 'content:read_drafts') ? 'current' : 'live';
  }

  function localeOf(locale: string | undefined): string {
    const { i18n } = ctx.config;
    if (locale === undefined || locale === '') return i18n.defaultLocale;
    if (!i18n.locales.includes(locale)) {
      throw issuesError(`Locale "${locale}" is not configured`, [
        { path: ['locale'], code: 'unknown_locale', message: `one of ${i18n.locales.join(', ')}` },
      ]);
    }
    return locale;
  }

  /** Collections to search: the named ones (each must exist and have search on) or every searchable one. */
  async function targets(names: string[] | undefined): Promise<Target[]> {
    const snap = await deps.schema.snapshot();
    let list: CollectionInfo[];
    if (names?.length) {
      list = [];
      for (const [i, name] of [...new Set(names)].entries()) {
        const c = snap.collections.get(name);
        if (!c) throw notFound(`Collection "${name}"`);
        if (!c.supports.includes('search')) {
          throw issuesError(`Search is not enabled for "${name}"`, [
            { path: ['collection', i], code: 'search_disabled', message: 'enable it with POST /search/enable' },
          ]);
        }
        list.push(c);
      }
    } else {
      list = [...snap.collections.values()].filter((c) => c.supports.includes('search'));
    }
    const settings = await deps.settings.read(
      ctx.db,
      list.map((c) => c.id),
    );
    return list.flatMap((c) => {
      const s = settings.get(c.id);
      return s && (s.index || s.build) ? [{ c, s }] : [];
    });
  }

  function requestFor(
    t: Target,
    base: Omit<RankRequest, 'table' | 'tokenizer' | 'tierWeights' | 'window'>,
  ): RankRequest {
    // Before its first build completes a collection is searched in the part already built.
    const shape = (t.s.index ?? t.s.build)!;
    return {
      ...base,
      table: shape.table,
      tokenizer: shape.tokenizer,
      tierWeights: tierWeightsOf(shape.tiers, t.s.weights),
      window: deps.rankWindow,
    };
  }

  /**
   * A one-word, one-prefix or two-word phrase query on a key common in the
   * collection is ranked from its head list; null sends the query to the engine.
   */
  async function fromHeads(req: RankRequest): Promise<Candidate[] | null> {
    const one = req.tokenizer === 'trigram' ? null : singleUnit(req.query);
    if (!one || (await engine.outdated(ctx.db, req.table))) return null;
    const meta = await readHeadMeta(ctx.db, req.table);
    if (!meta?.ready) return null;
    const key = await engine.heads.queryKey(ctx.db, req.tokenizer, one.words, one.prefix);
    if (!key) return null;
    return rankFromHeads(ctx.db, engine.heads, {
      table: req.table,
      key,
      locale: req.locale,
      visibility: req.visibility,
      weights: req.tierWeights,
      after: req.after,
      limit: req.limit,
    });
  }

  async function retrying<T>(t: Target, run: (t: Target) => Promise<T>): Promise<T> {
    try {
      return await run(t);
    } catch (err) {
      if (!isMissingTable(err)) throw err;
      deps.settings.forget();
      const fresh = (await readAllSettings(ctx.db, [t.c.id])).get(t.c.id);
      if (!fresh || !(fresh.index || fresh.build)) throw err;
      return run({ c: t.c, s: fresh });
    }
  }

  async function search(actor: Actor, input: SearchInput): Promise<SearchResult> {
    const visibility = visibilityOf(actor);
    const locale = localeOf(input.locale);
    const limit = input.limit ?? DEFAULT_SEARCH_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
      throw validationError(`limit must be an integer from 1 to ${MAX_SEARCH_LIMIT}`);
    }
    const query = parseQuery(input.q);
    const list = await targets(input.collections);
    const bound = fingerprint([input.q, [...(input.collections ?? [])].sort(), locale, visibility]);
    const position: SearchPosition | null = input.cursor ? decodeCursor(input.cursor, bound) : null;

    const ranked: Array<{ t: Target; req: RankRequest; cand: Candidate }> = [];
    for (const t of list) {
      await retrying(t, async (tt) => {
        const req = requestFor(tt, {
          query,
          locale,
          visibility,
          after: keysetFor(tt.c.slug, position),
          limit: limit + 1,
        });
        const found = (await fromHeads(req)) ?? (await engine.rank(ctx.db, req));
        for (const cand of found) ranked.push({ t: tt, req, cand });
      });
    }
    ranked.sort(
      (x, y) =>
        y.cand.score - x.cand.score ||
        (x.t.c.slug < y.t.c.slug ? -1 : x.t.c.slug > y.t.c.slug ? 1 : 0) ||
        (x.cand.entryId < y.cand.entryId ? -1 : 1),
    );
    const page = ranked.slice(0, limit);

    const bySlug = new Map<string, typeof page>();
    for (const r of page) bySlug.set(r.t.c.slug, [...(bySlug.get(r.t.c.slug) ?? []), r]);
    const passages = new Map<string, SearchHit>();
    for (const [slug, rows] of bySlug) {
      const { t, req } = rows[0];
      const found = await engine.passages(
        ctx.db,
        req,
        rows.map((r) => r.cand),
      );
      for (const p of found) {
        const score = rows.find((r) => r.cand.entryId === p.entryId)!.cand.score;
        passages.set(`${slug}/${p.entryId}`, {
          id: p.entryId,
          collection: t.c.slug,
          locale: p.locale,
          slug: p.slug,
          title: p.title || null,
          status: p.status,
          snippet: markedToHtml(cut(p.whole, pickSnippet(p.snippets, req.tierWeights, p.title))),
          score,
        });
      }
    }
    // An entry rewritten between the two statements keeps its place with what is known of it.
    const items = page.flatMap((r) => {
      const hit = passages.get(`${r.t.c.slug}/${r.cand.entryId}`);
      return hit ? [hit] : [];
    });
    const last = page.at(-1);
    const nextCursor =
      ranked.length > limit && last
        ? encodeCursor({ score: last.cand.score, collection: last.t.c.slug, id: last.cand.entryId }, bound)
        : undefined;
    return nextCursor ? { items, nextCursor } : { items };
  }

  async function suggest(actor: Actor, input: SuggestInput): Promise<{ items: Suggestion[] }> {
    const visibility = visibilityOf(actor);
    const locale = localeOf(input.locale);
    const limit = input.limit ?? DEFAULT_SUGGEST_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SUGGEST_LIMIT) {
      throw validationError(`limit must be an integer from 1 to ${MAX_SUGGEST_LIMIT}`);
    }
    const query = parseQuery(input.q);
    const list = await targets(input.collections);
    if (charCount(input.q.trim()) < MIN_SUGGEST_CHARS) return { items: [] };
    const found: Suggestion[] = [];
    for (const t of list) {
      await retrying(t, async (tt) => {
        const shape = (tt.s.index ?? tt.s.build)!;
        const rows = await engine.suggest(ctx.db, {
          table: shape.table,
          tokenizer: shape.tokenizer,
          query,
          text: input.q.trim(),
          locale,
          visibility,
          limit,
        });
        for (const r of rows) {
          if (r.title)
            found.push({ id: r.entryId, collection: tt.c.slug, locale: r.locale, slug: r.slug, title: r.title });
        }
      });
    }
    // Titles that start with what was typed first, then those with a word that does; accents and case aside.
    const typed = fold(input.q.trim());
    const rank = (s: Suggestion) => {
      const title = fold(s.title);
      if (title.startsWith(typed)) return 0;
      return title.includes(` ${typed}`) ? 1 : 2;
    };
    found.sort(
      (x, y) =>
        rank(x) - rank(y) ||
        x.title.length - y.title.length ||
        x.title.localeCompare(y.title) ||
        (x.id < y.id ? -1 : 1),
    );
    return { items: found.slice(0, limit) };
  }

  return { search, suggest };
}
