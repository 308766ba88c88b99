import { isDeepStrictEqual } from 'node:util';
import { ApiError } from '../errors.js';
import type { Output } from '../io.js';
import type { CreateMenuItemBody, Target } from '../target/types.js';
import type { SeedFile, SeedMenuItem } from './file.js';
import type { SeedOptions } from './run.js';

/**
 * Seed sections beyond collections and entries: settings and taxonomies
 * (with their terms) before the entries that use them, menus after the
 * entries they point at. Like entries, each is idempotent: what exists is
 * matched (taxonomy by name and locale, term by slug, menu by name and
 * locale) and kept, so a second load changes nothing. A new section is one
 * more entry in SEED_SECTIONS.
 */
export interface SeedContext {
  /** Seed-local entry ID → the entry on the target. */
  entries: Map<string, { id: string; collection: string }>;
}

export interface SectionResult {
  created: number;
  updated: number;
  unchanged: number;
}

export interface SeedSection {
  name: keyof SeedFile['sections'];
  phase: 'before-entries' | 'after-entries';
  apply(target: Target, seed: SeedFile, opts: SeedOptions, out: Output, ctx: SeedContext): Promise<SectionResult>;
}

/** The value, or null when the target answers NOT_FOUND. */
export async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof ApiError && err.code === 'NOT_FOUND') return null;
    throw err;
  }
}

const isEmpty = (v: unknown) => v === null || v === undefined || v === '';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const dry = (opts: SeedOptions) => (opts.dryRun ? ' (dry run)' : '');

/** A setting is written where the site has none; one that differs is kept (or replaced with --update). */
const settings: SeedSection = {
  name: 'settings',
  phase: 'before-entries',
  async apply(target, seed, opts, out) {
    const wanted = seed.sections.settings ?? {};
    const current = (await target.structure.settings()) as unknown as Record<string, unknown>;
    const kept: string[] = [];
    const pick = (want: Record<string, unknown>, have: Record<string, unknown>, prefix: string) => {
      const body: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(want)) {
        if (isObject(value) && isObject(have[key])) {
          const inner = pick(value, have[key] as Record<string, unknown>, `${prefix}${key}.`);
          if (Object.keys(inner).length) body[key] = inner;
        } else if (!isDeepStrictEqual(have[key], value)) {
          if (isEmpty(have[key]) || opts.update) body[key] = value;
          else kept.push(`${prefix}${key}`);
        }
      }
      return body;
    };
    const body = pick(wanted, current, '');
    if (kept.length) out.progress(`= settings ${kept.join(', ')} differ: kept, see --update`);
    if (!Object.keys(body).length) {
      out.progress('= settings unchanged');
      return { created: 0, updated: 0, unchanged: 1 };
    }
    out.progress(`~ settings: ${Object.keys(body).join(', ')}${dry(opts)}`);
    if (!opts.dryRun) await target.structure.updateSettings(body);
    return { created: 0, updated: 1, unchanged: 0 };
  },
};

/** Taxonomies by name (and locale), then their terms by slug; a parent is a term earlier in the list. */
const taxonomies: SeedSection = {
  name: 'taxonomies',
  phase: 'before-entries',
  async apply(target, seed, opts, out) {
    const result = { created: 0, updated: 0, unchanged: 0 };
    for (const tax of seed.sections.taxonomies ?? []) {
      const { terms, ...definition } = tax;
      const found = await orNull(target.structure.taxonomy(tax.name, tax.locale));
      if (found && (tax.locale === undefined || found.locale === tax.locale)) {
        result.unchanged++;
        out.progress(`= taxonomy ${tax.name}${tax.locale ? ` (${tax.locale})` : ''} exists`);
      } else {
        result.created++;
        out.progress(`+ taxonomy ${tax.name}${tax.locale ? ` (${tax.locale})` : ''}${dry(opts)}`);
        if (!opts.dryRun) await target.structure.createTaxonomy(definition);
      }
      const ids = new Map<string, string>();
      for (const term of terms) {
        const existing = await orNull(target.structure.term(tax.name, term.slug, tax.locale));
        if (existing) {
          ids.set(term.slug, existing.id);
          result.unchanged++;
          continue;
        }
        result.created++;
        out.progress(`+ term ${tax.name}/${term.slug}${dry(opts)}`);
        if (opts.dryRun) continue;
        const made = await target.structure.createTerm(tax.name, {
          label: term.label,
          slug: term.slug,
          ...(term.description !== undefined ? { description: term.description } : {}),
          ...(term.parent !== undefined ? { parentId: ids.get(term.parent) ?? null } : {}),
          ...(tax.locale !== undefined ? { locale: tax.locale } : {}),
        });
        ids.set(term.slug, made.id);
      }
    }
    return result;
  },
};

/** Menus by name (and locale): a missing one is created with its items; an existing one is kept as it is. */
const menus: SeedSection = {
  name: 'menus',
  phase: 'after-entries',
  async apply(target, seed, opts, out, ctx) {
    const result = { created: 0, updated: 0, unchanged: 0 };
    for (const menu of seed.sections.menus ?? []) {
      const where = `${menu.name}${menu.locale ? ` (${menu.locale})` : ''}`;
      if (await orNull(target.structure.menu(menu.name, menu.locale))) {
        result.unchanged++;
        out.progress(`= menu ${where} exists`);
        continue;
      }
      result.created++;
      out.progress(`+ menu ${where}${dry(opts)}`);
      if (opts.dryRun) continue;
      await target.structure.createMenu({
        name: menu.name,
        label: menu.label,
        ...(menu.locale !== undefined ? { locale: menu.locale } : {}),
      });
      const body = async (item: SeedMenuItem): Promise<CreateMenuItemBody> => {
        const look = {
          ...(item.label !== undefined ? { label: item.label } : {}),
          ...(item.openInNewTab !== undefined ? { openInNewTab: item.openInNewTab } : {}),
        };
        if (item.url !== undefined) return { kind: 'url', url: item.url, ...look };
        if (item.entry !== undefined) {
          const entry = ctx.entries.get(item.entry)!;
          return { kind: 'content', collection: entry.collection, entryId: entry.id, ...look };
        }
        const [taxonomy, slug] = [
          item.term!.slice(0, item.term!.indexOf('/')),
          item.term!.slice(item.term!.indexOf('/') + 1),
        ];
        const term = await target.structure.term(taxonomy, slug, menu.locale);
        return { kind: 'term', termId: term.id, ...look };
      };
      const add = async (items: SeedMenuItem[], parentId: string | null) => {
        for (const item of items) {
          const made = await target.structure.createMenuItem(menu.name, menu.locale, {
            ...(await body(item)),
            parentId,
          });
          await add(item.items ?? [], made.id);
        }
      };
      await add(menu.items, null);
    }
    return result;
  },
};

/** Sections this version loads, in the order of their phase. */
export const SEED_SECTIONS: SeedSection[] = [settings, taxonomies, menus];
