import { z } from 'zod';
import { UsageError } from '../errors.js';
import type { SchemaDocument } from '../schema/document.js';
import { parseSchemaDocument } from '../schema/validate.js';

/**
 * A seed file (JSON or YAML): block types and collections to create when
 * missing, then entries per collection. Entries are matched by collection +
 * slug + locale, so loading a file twice creates nothing the second time.
 * `id` is a seed-local name other entries use: `translationOf` (the source
 * must come earlier in the file) and `references`.
 */
const Entry = z.strictObject({
  id: z.string().min(1).max(200).optional(),
  slug: z.string().min(1).max(200),
  locale: z.string().min(1).max(35).optional(),
  translationOf: z.string().min(1).max(200).optional(),
  status: z.enum(['published', 'draft']).default('published'),
  data: z.record(z.string(), z.unknown()).default({}),
  references: z.record(z.string(), z.array(z.string().min(1)).max(1000)).optional(),
  /** Taxonomy name → term slugs (in the entry's locale). */
  terms: z.record(z.string(), z.array(z.string().min(1).max(200)).max(100)).optional(),
});

export type SeedEntry = z.output<typeof Entry>;

const Name = z.string().regex(/^[a-z][a-z0-9_-]*$/, 'a machine name: lowercase letters, digits, _ and -');

const Taxonomy = z.strictObject({
  name: Name,
  label: z.string().min(1),
  labelSingular: z.string().min(1).optional(),
  hierarchical: z.boolean().optional(),
  collections: z.array(z.string()).optional(),
  locale: z.string().min(1).optional(),
  terms: z
    .array(
      z.strictObject({
        slug: z.string().min(1).max(200),
        label: z.string().min(1),
        description: z.string().nullable().optional(),
        /** Slug of a term earlier in the list. */
        parent: z.string().min(1).optional(),
      }),
    )
    .default([]),
});

export interface SeedMenuItem {
  label?: string;
  url?: string;
  /** Seed-local ID of an entry. */
  entry?: string;
  /** `taxonomy/slug` of a term. */
  term?: string;
  openInNewTab?: boolean;
  items?: SeedMenuItem[];
}

const MenuItem: z.ZodType<SeedMenuItem> = z.lazy(() =>
  z
    .strictObject({
      label: z.string().min(1).optional(),
      url: z.string().min(1).optional(),
      entry: z.string().min(1).optional(),
      term: z
        .string()
        .regex(/^[a-z][a-z0-9_-]*\/.+$/, 'taxonomy/slug')
        .optional(),
      openInNewTab: z.boolean().optional(),
      items: z.array(MenuItem).optional(),
    })
    .refine((i) => [i.url, i.entry, i.term].filter((x) => x !== undefined).length === 1, {
      message: 'a menu item has exactly one of url, entry and term',
    }),
);

const Menu = z.strictObject({
  name: Name,
  label: z.string().min(1),
  locale: z.string().min(1).optional(),
  items: z.array(MenuItem).default([]),
});

export type SeedTaxonomy = z.output<typeof Taxonomy>;
export type SeedMenu = z.output<typeof Menu>;

const Seed = z.strictObject({
  version: z.literal(1).default(1),
  description: z.string().optional(),
  blockTypes: z.array(z.unknown()).default([]),
  collections: z.array(z.unknown()).default([]),
  content: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/, 'a collection slug'), z.array(Entry)).default({}),
  settings: z.record(z.string(), z.unknown()).optional(),
  taxonomies: z.array(Taxonomy).optional(),
  menus: z.array(Menu).optional(),
});

export interface SeedFile {
  schema: SchemaDocument;
  /** Entries in file order, each with its collection. */
  entries: Array<SeedEntry & { collection: string }>;
  /** Sections beyond collections and entries, by name, for SEED_SECTIONS. */
  sections: { settings?: Record<string, unknown>; taxonomies?: SeedTaxonomy[]; menus?: SeedMenu[] };
}

function fail(file: string, problems: string[]): never {
  throw new UsageError(`${file} is not a valid seed file:\n${problems.map((p) => `  ${p}`).join('\n')}`);
}

export function parseSeedFile(value: unknown, file: string): SeedFile {
  const parsed = Seed.safeParse(value);
  if (!parsed.success) {
    fail(
      file,
      parsed.error.issues.slice(0, 20).map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`),
    );
  }
  const seed = parsed.data;
  const schema = parseSchemaDocument(
    { version: 1, collections: seed.collections, blockTypes: seed.blockTypes },
    `${file} (collections and block types)`,
  );
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const entries: SeedFile['entries'] = [];
  for (const [collection, list] of Object.entries(seed.content)) {
    list.forEach((entry, i) => {
      const at = `content.${collection}.${i}${entry.id ? ` (${entry.id})` : ''}`;
      if (entry.translationOf !== undefined) {
        const source = seen.get(entry.translationOf);
        if (source === undefined) {
          problems.push(`${at}: translationOf "${entry.translationOf}" must name an entry earlier in the file`);
        } else if (source !== collection) {
          problems.push(`${at}: translationOf "${entry.translationOf}" is in ${source}, not ${collection}`);
        }
        if (entry.locale === undefined) problems.push(`${at}: a translation needs its locale`);
      }
      for (const [field, ids] of Object.entries(entry.references ?? {})) {
        for (const id of ids) {
          if (!seen.has(id)) problems.push(`${at}: references.${field} "${id}" must name an entry earlier in the file`);
        }
      }
      if (entry.id !== undefined) {
        if (seen.has(entry.id)) problems.push(`${at}: id "${entry.id}" is used twice`);
        seen.set(entry.id, collection);
      }
      entries.push({ ...entry, collection });
    });
  }
  for (const [t, tax] of (seed.taxonomies ?? []).entries()) {
    const slugs = new Set<string>();
    tax.terms.forEach((term, i) => {
      if (term.parent !== undefined && !slugs.has(term.parent)) {
        problems.push(`taxonomies.${t}.terms.${i}: parent "${term.parent}" must be a term earlier in the list`);
      }
      slugs.add(term.slug);
    });
  }
  const walk = (items: SeedMenuItem[], at: string) =>
    items.forEach((item, i) => {
      if (item.entry !== undefined && !seen.has(item.entry)) {
        problems.push(`${at}.${i}: entry "${item.entry}" is not the id of an entry of this file`);
      }
      walk(item.items ?? [], `${at}.${i}.items`);
    });
  for (const [m, menu] of (seed.menus ?? []).entries()) walk(menu.items, `menus.${m}.items`);
  if (problems.length) fail(file, problems.slice(0, 30));
  return { schema, entries, sections: { settings: seed.settings, taxonomies: seed.taxonomies, menus: seed.menus } };
}
