import type { Actor } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { notFound, validationError } from '../../core/errors.js';
import type { ServiceContext } from '../context.js';
import type { BlockTypeVersionLookup } from '../fields/value-context.js';
import type { SchemaService } from '../schema/index.js';
import type { CollectionInfo, SchemaSnapshot } from '../schema/model.js';
import type { ContentHooks } from './hooks.js';
import type { LockOps } from './locks.js';
import type { ReadScope } from './references.js';

/** What the content operations are built from. */
export interface ContentDeps {
  ctx: ServiceContext;
  schema: SchemaService;
  hooks: ContentHooks;
  locks: LockOps;
}

export async function collectionFor(
  deps: ContentDeps,
  slug: string,
): Promise<{ snap: SchemaSnapshot; c: CollectionInfo }> {
  const snap = await deps.schema.snapshot();
  const c = snap.collections.get(slug);
  if (!c) throw notFound(`Collection "${slug}"`);
  return { snap, c };
}

export function nowIso(deps: ContentDeps): string {
  return isoNow(deps.ctx.clock);
}

export function revisionsOn(c: CollectionInfo): boolean {
  return c.supports.includes('revisions');
}

export function blockLookup(snap: SchemaSnapshot): BlockTypeVersionLookup {
  return {
    fields: (slug, version) => snap.blockTypes.get(slug)?.versions.find((v) => v.version === version)?.fields,
    activeVersion: (slug) => snap.blockTypes.get(slug)?.activeVersion,
  };
}

/** A configured locale, or the default one. */
export function localeOf(deps: ContentDeps, locale: string | undefined): string {
  const { i18n } = deps.ctx.config;
  if (locale === undefined || locale === '') return i18n.defaultLocale;
  if (!i18n.locales.includes(locale)) {
    throw validationError(`Locale "${locale}" is not configured`, { locales: i18n.locales });
  }
  return locale;
}

/** Requested locale, then its fallback, then the default locale (each once). */
export function fallbackChain(deps: ContentDeps, locale: string): string[] {
  const { i18n } = deps.ctx.config;
  const chain = [locale];
  const fb = i18n.fallback[locale];
  if (fb && !chain.includes(fb)) chain.push(fb);
  if (!chain.includes(i18n.defaultLocale)) chain.push(i18n.defaultLocale);
  return chain;
}

export function readScope(deps: ContentDeps, locale: string, draftReader: boolean): ReadScope {
  return { locales: fallbackChain(deps, locale), publishedOnly: !draftReader };
}

export type { Actor };
