import { createHash } from 'node:crypto';
import type { BlockTypeDoc, FieldDoc, SchemaDocument } from '../schema/document.js';

/**
 * `cms types`: TypeScript declarations for a site's schema (docs/frontends.md#generated-types).
 * One function of the schema snapshot — the schema document `cms schema export` reads through
 * the services (local) or the REST schema routes (remote) — and the site's locales, so both
 * targets write the same text for the same schema. Deterministic: collections and block types
 * sorted by slug, fields in the schema's order, and a header naming the schema's hash.
 */
export interface TypesInput {
  schema: SchemaDocument;
  locales: string[];
}

type Validation = Record<string, unknown>;

const vOf = (f: { validation?: unknown }): Validation => (f.validation ?? {}) as Validation;

/** `blog-posts` → `BlogPosts`; a leading digit gets a prefix. */
export function typeName(slug: string): string {
  const name = slug
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');
  return /^[0-9]/.test(name) ? `T${name}` : name || 'T';
}

const lit = (s: string) => JSON.stringify(s);
const key = (s: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(s) ? s : lit(s));

function stringUnion(options: unknown): string {
  if (!Array.isArray(options) || options.length === 0) return 'string';
  const values = [...new Set(options.filter((o): o is string => typeof o === 'string'))].sort();
  return values.length ? values.map(lit).join(' | ') : 'string';
}

/** Stable JSON: object keys sorted. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${lit(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function schemaHash(input: TypesInput): string {
  return createHash('sha256')
    .update(canonical({ schema: input.schema, locales: [...input.locales].sort() }))
    .digest('hex')
    .slice(0, 16);
}

/** A relation-bound reference has no value in `data`: reads give its links under `references`. */
const isRelation = (f: FieldDoc) =>
  f.type === 'reference' && (typeof vOf(f).targetCollection === 'string' || typeof vOf(f).relation === 'string');

function fieldType(f: FieldDoc, indent: string): string {
  const v = vOf(f);
  switch (f.type) {
    case 'string':
    case 'text':
    case 'url':
    case 'slug':
      return 'string';
    case 'datetime':
      return 'CmsDateTime';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'select':
      return stringUnion(v.options);
    case 'multiSelect': {
      const u = stringUnion(v.options);
      return u.includes('|') ? `Array<${u}>` : `${u}[]`;
    }
    case 'portableText':
      return 'PortableTextBlock[]';
    case 'image':
      return 'CmsImage';
    case 'file':
      return 'CmsFile';
    case 'reference': {
      const opts = (f as { options?: Record<string, unknown> }).options ?? {};
      return opts.allowMultiple ? 'string[]' : 'string';
    }
    case 'json':
      return 'CmsJson';
    case 'repeater': {
      const sub = Array.isArray(v.subFields) ? (v.subFields as FieldDoc[]) : [];
      return `Array<${objectType(sub, indent)}>`;
    }
    case 'blocks': {
      const allowed = Array.isArray(v.allowedTypes) ? (v.allowedTypes as string[]) : [];
      const types = [...new Set(allowed)].sort().map((t) => `Block${typeName(t)}`);
      return types.length ? `Array<${types.join(' | ')}>` : 'CmsBlock[]';
    }
    default:
      return 'unknown';
  }
}

function fieldLines(fields: FieldDoc[], indent: string): string[] {
  const lines: string[] = [];
  for (const f of fields) {
    if (isRelation(f)) continue;
    const t = fieldType(f, indent);
    const doc = f.label && f.label !== f.slug ? `${indent}/** ${f.label.replace(/\*\//g, '* /')} (${f.type}) */` : null;
    if (doc) lines.push(doc);
    // blocks default to an empty array and cannot be required; a required field always has a value.
    if (f.required) lines.push(`${indent}${key(f.slug)}: ${t};`);
    else if (f.type === 'blocks') lines.push(`${indent}${key(f.slug)}?: ${t};`);
    else lines.push(`${indent}${key(f.slug)}?: ${t} | null;`);
  }
  return lines;
}

function objectType(fields: FieldDoc[], indent: string): string {
  const lines = fieldLines(fields, `${indent}  `);
  return lines.length ? `{\n${lines.join('\n')}\n${indent}}` : 'Record<string, never>';
}

function blockType(b: BlockTypeDoc): string {
  const active = b.versions.find((v) => v.version === b.activeVersion) ?? b.versions[b.versions.length - 1];
  const lines = [
    `/** Block type ${lit(b.slug)}${b.label ? ` (${b.label.replace(/\*\//g, '* /')})` : ''}, version ${active?.version ?? 1}. */`,
    `export interface Block${typeName(b.slug)} {`,
    `  _type: ${lit(b.slug)};`,
    '  _key: string;',
    '  _version: number;',
    ...fieldLines(active?.fields ?? [], '  '),
    '}',
  ];
  return lines.join('\n');
}

const COMMON = `/** An instant as the API writes it: \`YYYY-MM-DDTHH:MM:SS.mmmZ\`. */
export type CmsDateTime = string;

export type CmsJson = string | number | boolean | null | CmsJson[] | { [key: string]: CmsJson };

export type CmsStatus = 'draft' | 'published' | 'scheduled' | 'trashed';

export interface SrcsetCandidate {
  /** Pixels (the \`w\` descriptor). */
  width: number;
  url: string;
}

/** An image field value; \`srcset\` and \`srcsetCandidates\` are added by reads of library JPEG, PNG, WebP, AVIF and TIFF images. */
export interface CmsImage {
  id: string;
  provider?: string;
  src?: string;
  alt?: string;
  width?: number;
  height?: number;
  mimeType?: string;
  meta?: { storageKey?: string };
  srcset?: string;
  srcsetCandidates?: SrcsetCandidate[];
  darkVariant?: CmsImage;
}

export interface CmsFile {
  id: string;
  provider?: string;
  filename: string;
  mimeType: string;
  meta?: { storageKey?: string };
  url?: string;
  size?: number;
}

export interface PortableTextSpan {
  _type: 'span';
  _key?: string;
  text: string;
  marks?: string[];
}

export interface PortableTextMarkDef {
  _key: string;
  _type: string;
  href?: string;
  [key: string]: unknown;
}

export interface PortableTextTextBlock {
  _type: 'block';
  _key?: string;
  style?: string;
  listItem?: 'bullet' | 'number' | (string & {});
  level?: number;
  children: PortableTextSpan[];
  markDefs?: PortableTextMarkDef[];
}

export interface PortableTextImageBlock extends Partial<CmsImage> {
  _type: 'image';
  _key?: string;
}

/** Other block types a plugin adds. */
export interface PortableTextCustomBlock {
  _type: string;
  _key?: string;
  [key: string]: unknown;
}

export type PortableTextBlock = PortableTextTextBlock | PortableTextImageBlock | PortableTextCustomBlock;

/** A block of a blocks field whose allowed types are not listed. */
export interface CmsBlock {
  _type: string;
  _key: string;
  _version: number;
  [key: string]: unknown;
}

/** A linked entry under an entry's \`references\`. */
export interface CmsLinkedEntry<C extends string = string> {
  id: string;
  slug: string | null;
  collection: C;
  title: string | null;
  locale: string;
  translationGroup: string;
  status: string;
}

export interface CmsReferencePage<C extends string = string> {
  items: Array<CmsLinkedEntry<C>>;
  nextCursor?: string;
  next?: string;
}

export interface CmsTerm {
  id: string;
  taxonomy: string;
  slug: string;
  label: string;
  description?: string | null;
  parentId: string | null;
  locale: CmsLocale;
  translationGroup: string;
  [key: string]: unknown;
}

export interface CmsMenuItem {
  id: string;
  label: string;
  url: string | null;
  parentId?: string | null;
  [key: string]: unknown;
}

export interface CmsMenu {
  id: string;
  name: string;
  label: string;
  locale: CmsLocale;
  items: CmsMenuItem[];
  [key: string]: unknown;
}

export interface CmsSettings {
  title: string | null;
  tagline: string | null;
  logo: string | null;
  favicon: string | null;
  timezone: string;
  siteUrl: string | null;
  seo: { defaultOgImage: string | null; titleSeparator: string; description: string | null };
}`;

export function generateTypes(input: TypesInput): string {
  const collections = [...input.schema.collections].sort((a, b) => a.slug.localeCompare(b.slug));
  const blockTypes = [...input.schema.blockTypes].sort((a, b) => a.slug.localeCompare(b.slug));
  const locales = [...new Set(input.locales)].sort();
  const out: string[] = [
    '/**',
    ` * Generated by \`cms types\` from schema ${schemaHash(input)} (schema document version ${input.schema.version}).`,
    ' * Do not edit: run `cms types` again when the schema changes.',
    ' */',
    '',
    `export type CmsLocale = ${locales.length ? locales.map(lit).join(' | ') : 'string'};`,
    '',
    COMMON,
    '',
  ];
  for (const b of blockTypes) out.push(blockType(b), '');
  const map: string[] = [];
  const refs: string[] = [];
  for (const c of collections) {
    const name = typeName(c.slug);
    out.push(`/** Entry data of ${lit(c.slug)}${c.label ? ` (${String(c.label).replace(/\*\//g, '* /')})` : ''}. */`);
    out.push(`export interface ${name}Data ${objectType(c.fields, '')}`, '');
    const relations = c.fields.filter(isRelation);
    if (relations.length) {
      out.push(
        `/** Linked entries of ${lit(c.slug)}'s reference fields (single-entry reads, under \`references\`). */`,
      );
      out.push(`export interface ${name}References {`);
      for (const f of relations) {
        const target = vOf(f).targetCollection;
        out.push(`  ${key(f.slug)}?: CmsReferencePage${typeof target === 'string' ? `<${lit(target)}>` : ''};`);
      }
      out.push('}', '');
      refs.push(`  ${key(c.slug)}: ${name}References;`);
    }
    map.push(`  ${key(c.slug)}: ${name}Data;`);
  }
  out.push(
    '/** Collection slug → entry data: `createClient<CmsSchema>(…)`. */',
    `export interface CmsSchema {${map.length ? `\n${map.join('\n')}\n` : ''}}`,
    '',
    '/** Collection slug → its reference fields’ linked entries. */',
    `export interface CmsReferences {${refs.length ? `\n${refs.join('\n')}\n` : ''}}`,
    '',
    'export type CmsCollection = keyof CmsSchema;',
    '',
  );
  return out.join('\n');
}
