import { isDeepStrictEqual } from 'node:util';
import { ApiError } from '../errors.js';
import type { Output } from '../io.js';
import { applyPlan } from '../schema/apply.js';
import { readSchema } from '../schema/document.js';
import { planSchema } from '../schema/plan.js';
import type { SingleContent, Target } from '../target/types.js';
import type { SeedEntry, SeedFile } from './file.js';
import { orNull, SEED_SECTIONS, type SectionResult, type SeedContext } from './sections.js';

export interface SeedOptions {
  /** Also bring existing entries to the file's values and status. */
  update?: boolean;
  /** Report what would change; write nothing. */
  dryRun?: boolean;
}

export interface SeedSummary {
  blockTypes: { created: number };
  collections: { created: number; fieldsAdded: number };
  entries: { created: number; updated: number; unchanged: number };
  sections: Record<string, SectionResult>;
}

type Entry = SeedEntry & { collection: string };

const where = (e: Entry) => `${e.collection}/${e.slug}${e.locale ? ` (${e.locale})` : ''}`;

/** The entry the seed names, by collection + slug + locale (a slug read falls back across locales: checked). */
async function findEntry(target: Target, e: Entry): Promise<SingleContent | null> {
  const found = await orNull(target.content.get(e.collection, e.slug, e.locale));
  if (!found || found.item.slug !== e.slug || (e.locale !== undefined && found.item.locale !== e.locale)) return null;
  return found;
}

/** Taxonomies whose terms on the stored entry differ from the file's. */
async function termDifferences(target: Target, e: Entry, id: string): Promise<string[]> {
  const out: string[] = [];
  for (const [taxonomy, slugs] of Object.entries(e.terms ?? {})) {
    const stored = (await target.structure.entryTerms(e.collection, id, taxonomy)).items.map((t) => t.slug);
    if (!isDeepStrictEqual(stored, slugs)) out.push(`terms.${taxonomy}`);
  }
  return out;
}

async function setTerms(target: Target, e: Entry, id: string, only?: string[]): Promise<void> {
  for (const [taxonomy, slugs] of Object.entries(e.terms ?? {})) {
    if (!only || only.includes(`terms.${taxonomy}`))
      await target.structure.setEntryTerms(e.collection, id, taxonomy, slugs);
  }
}

function mappedReferences(e: Entry, ids: Map<string, string>): Record<string, string[]> | undefined {
  if (!e.references) return undefined;
  return Object.fromEntries(Object.entries(e.references).map(([field, refs]) => [field, refs.map((r) => ids.get(r)!)]));
}

/** What differs between the file's entry and the stored one (only the fields the file gives). */
function differences(e: Entry, found: SingleContent, references: Record<string, string[]> | undefined): string[] {
  const item = found.item;
  const out: string[] = [];
  for (const [key, value] of Object.entries(e.data)) if (!isDeepStrictEqual(item.data[key], value)) out.push(key);
  for (const [field, ids] of Object.entries(references ?? {})) {
    const stored = item.references?.[field]?.items.map((l) => l.id) ?? [];
    if (!isDeepStrictEqual(stored, ids)) out.push(`references.${field}`);
  }
  return out;
}

/** A failed entry names itself and says how far the load got; loading the file again continues. */
async function naming<T>(e: Entry, done: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const so = `${done} entr${done === 1 ? 'y was' : 'ies were'} loaded before it; load the file again once fixed to continue.`;
    throw new ApiError(err.code, `${where(e)}: ${err.message}\n  ${so}`, err.details, err.status);
  }
}

async function seedEntries(
  target: Target,
  seed: SeedFile,
  opts: SeedOptions,
  out: Output,
  summary: SeedSummary,
  ctx: SeedContext,
) {
  const ids = new Map<string, string>();
  const total = seed.entries.length;
  for (const [i, e] of seed.entries.entries()) {
    await naming(e, i, () => seedEntry(target, e, `[${i + 1}/${total}]`, ids, opts, out, summary));
    const id = e.id === undefined ? undefined : ids.get(e.id);
    if (e.id !== undefined && id !== undefined) ctx.entries.set(e.id, { id, collection: e.collection });
  }
}

async function seedEntry(
  target: Target,
  e: Entry,
  n: string,
  ids: Map<string, string>,
  opts: SeedOptions,
  out: Output,
  summary: SeedSummary,
): Promise<void> {
  const references = mappedReferences(e, ids);
  const found = await findEntry(target, e);
  if (found) {
    if (e.id) ids.set(e.id, found.item.id);
    const values = differences(e, found, references);
    const terms = found.item.status === 'trashed' ? [] : await termDifferences(target, e, found.item.id);
    const changed = [...values, ...terms];
    const publish = e.status === 'published' && (found.item.status !== 'published' || found.item.hasDraft);
    if (!opts.update || (!changed.length && !publish) || found.item.status === 'trashed') {
      summary.entries.unchanged++;
      const note =
        found.item.status === 'trashed'
          ? ', in the trash: left there'
          : changed.length
            ? `, differs (${changed.join(', ')}): kept, see --update`
            : '';
      out.progress(`${n} = ${where(e)} exists${note}`);
      return;
    }
    summary.entries.updated++;
    out.progress(
      `${n} ~ ${where(e)}: ${[...changed, ...(publish ? ['publish'] : [])].join(', ')}${opts.dryRun ? ' (dry run)' : ''}`,
    );
    if (opts.dryRun) return;
    let current = found;
    if (values.length) {
      current = await target.content.update(e.collection, found.item.id, {
        data: e.data,
        ...(references ? { references } : {}),
        _rev: found._rev,
      });
    }
    if (e.status === 'published' && (current.item.status !== 'published' || current.item.hasDraft)) {
      await target.content.lifecycle('publish', e.collection, current.item.id, { _rev: current._rev });
    }
    await setTerms(target, e, found.item.id, terms);
    return;
  }
  summary.entries.created++;
  out.progress(`${n} + ${where(e)}${e.status === 'draft' ? ' as a draft' : ''}${opts.dryRun ? ' (dry run)' : ''}`);
  if (opts.dryRun) return;
  const made = await target.content.create(e.collection, {
    data: e.data,
    slug: e.slug,
    ...(e.locale !== undefined ? { locale: e.locale } : {}),
    ...(e.translationOf !== undefined ? { translationOf: ids.get(e.translationOf) } : {}),
    ...(references ? { references } : {}),
  });
  if (e.id) ids.set(e.id, made.item.id);
  if (e.status === 'published' && made.item.status !== 'published') {
    await target.content.lifecycle('publish', e.collection, made.item.id, { _rev: made._rev });
  }
  await setTerms(target, e, made.item.id);
}

/**
 * Load a seed: missing block types, collections and fields first (never
 * changing or deleting what exists), then sections that entries use, then
 * entries in file order (a translation after its source), then sections
 * that point at entries.
 */
export async function runSeed(target: Target, seed: SeedFile, opts: SeedOptions, out: Output): Promise<SeedSummary> {
  const summary: SeedSummary = {
    blockTypes: { created: 0 },
    collections: { created: 0, fieldsAdded: 0 },
    entries: { created: 0, updated: 0, unchanged: 0 },
    sections: {},
  };
  if (seed.schema.collections.length || seed.schema.blockTypes.length) {
    const plan = planSchema(seed.schema, await readSchema(target), 'additive');
    for (const step of plan.steps) {
      if (step.adds === 'blockType') summary.blockTypes.created++;
      else if (step.adds === 'collection') summary.collections.created++;
      else if (step.adds === 'field') summary.collections.fieldsAdded++;
    }
    if (opts.dryRun) for (const step of plan.steps) out.progress(`${step.text} (dry run)`);
    else await applyPlan(target, plan, out);
  }
  const ctx: SeedContext = { entries: new Map() };
  const sections = SEED_SECTIONS.filter((s) => seed.sections[s.name] !== undefined);
  for (const section of sections.filter((s) => s.phase === 'before-entries')) {
    summary.sections[section.name] = await section.apply(target, seed, opts, out, ctx);
  }
  await seedEntries(target, seed, opts, out, summary, ctx);
  for (const section of sections.filter((s) => s.phase === 'after-entries')) {
    summary.sections[section.name] = await section.apply(target, seed, opts, out, ctx);
  }
  return summary;
}
