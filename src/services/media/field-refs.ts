import { issuesError, type ValidationIssue } from '../../core/errors.js';
import type { Kdb } from '../../db/connect.js';
import type { EntryChange } from '../content/hooks.js';
import { decodeData, dyn } from '../content/rows.js';
import type { FieldDefinition } from '../fields/types.js';
import type { SchemaSnapshot } from '../schema/model.js';
import { mimeAllowed } from './mime.js';

/**
 * Image and file field values that point into the media library (provider
 * `local`, or no provider) are checked against it on every create and update,
 * inside the writing transaction: the item must exist and be ready, its type
 * must be one the field allows, and a `mimeType` written beside it must be the
 * library's. Values of other providers (external assets) are left to the
 * shape rules. Repeater image sub-fields and image/file fields of blocks are
 * checked too.
 *
 * The listener reads the entry as the write left it. On an update it checks
 * only the values the write changed: a reference the entry already held at the
 * same place (same item, same written `mimeType`) is left alone, so an
 * unrelated edit does not fail because an item used elsewhere in the entry was
 * deleted since. The write path hands over the previous state
 * (`EntryChange.previous`).
 */
export interface MediaRef {
  id: string;
  mimeType: unknown;
  path: (string | number)[];
  allowed: string[] | null;
  /** Slug of the top-level field holding the reference. */
  field: string;
  /**
   * `field`: an image or file value (checked against the library on every write);
   * `portableText`: an image or gallery block inside rich text (indexed for usage only).
   */
  source: 'field' | 'portableText';
}

const CHUNK = 500;
const MEDIA_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function allowlist(field: FieldDefinition): string[] | null {
  const list = field.validation?.allowedMimeTypes;
  return Array.isArray(list) && list.length ? list.filter((m): m is string => typeof m === 'string') : null;
}

function pushRef(field: FieldDefinition, value: unknown, path: (string | number)[], out: MediaRef[]): void {
  if (!isObject(value) || typeof value.id !== 'string' || value.id === '') return;
  const provider = value.provider ?? 'local';
  if (provider !== 'local') return;
  out.push({
    id: value.id,
    mimeType: value.mimeType,
    path,
    allowed: allowlist(field),
    field: String(path[1]),
    source: 'field',
  });
}

/**
 * The library item a Portable Text image names: `asset._ref` / `asset.id` (the
 * Portable Text convention), or `mediaId` / `id` on the block itself. Only
 * library IDs count; a block pointing at an address (`src`) is rendered HTML,
 * which usage indexing does not cover.
 */
function portableImageId(node: unknown): string | null {
  if (!isObject(node)) return null;
  if ((node.provider ?? 'local') !== 'local') return null;
  const asset = isObject(node.asset) ? node.asset : null;
  for (const candidate of [asset?._ref, asset?.id, node.mediaId, node.id]) {
    if (typeof candidate === 'string' && MEDIA_ID.test(candidate)) return candidate;
  }
  return null;
}

/** `image` blocks and the images of `gallery` blocks (`images` or `items`); custom blocks are not covered. */
function collectPortable(value: unknown[], path: (string | number)[], out: MediaRef[]): void {
  value.forEach((block, i) => {
    if (!isObject(block)) return;
    const push = (node: unknown, at: (string | number)[]) => {
      const id = portableImageId(node);
      if (id)
        out.push({ id, mimeType: undefined, path: at, allowed: null, field: String(path[1]), source: 'portableText' });
    };
    if (block._type === 'image') push(block, [...path, i]);
    else if (block._type === 'gallery') {
      for (const key of ['images', 'items'] as const) {
        const list = block[key];
        if (!Array.isArray(list)) continue;
        list.forEach((node, j) => {
          push(node, [...path, i, key, j]);
        });
      }
    }
  });
}

function collect(
  fields: readonly FieldDefinition[],
  data: Record<string, unknown>,
  path: (string | number)[],
  snap: SchemaSnapshot,
  out: MediaRef[],
): void {
  for (const field of fields) {
    const value = data[field.slug];
    if (value === null || value === undefined) continue;
    const here = [...path, field.slug];
    if (field.type === 'image' || field.type === 'file') {
      pushRef(field, value, here, out);
      if (field.type === 'image' && isObject(value)) pushRef(field, value.darkVariant, [...here, 'darkVariant'], out);
    } else if (field.type === 'portableText' && Array.isArray(value)) {
      collectPortable(value, here, out);
    } else if (field.type === 'repeater' && Array.isArray(value)) {
      const sub = field.validation?.subFields;
      if (!Array.isArray(sub)) continue;
      value.forEach((row, i) => {
        if (isObject(row)) collect(sub as FieldDefinition[], row, [...here, i], snap, out);
      });
    } else if (field.type === 'blocks' && Array.isArray(value)) {
      // Each block is read with the fields of the version it was written with (retained versions).
      value.forEach((block, i) => {
        if (!isObject(block) || typeof block._type !== 'string') return;
        const type = snap.blockTypes.get(block._type);
        const version = type?.versions.find((v) => v.version === block._version);
        if (version) collect(version.fields, block, [...here, i], snap, out);
      });
    }
  }
}

/** Identity of a reference at its place: an unchanged one has the same key before and after. */
const refKey = (r: MediaRef) => JSON.stringify([r.path, r.id, r.mimeType ?? null]);

/**
 * Every library reference in an entry's values: image and file fields (and
 * dark variants), repeater sub-fields, Portable Text image and gallery blocks,
 * and the media fields of blocks as their retained versions declare them. The
 * one extractor: the write check below and the usage index both use it.
 */
export function mediaRefsOf(
  fields: readonly FieldDefinition[],
  data: Record<string, unknown>,
  snap: SchemaSnapshot,
): MediaRef[] {
  const out: MediaRef[] = [];
  collect(fields, data, ['data'], snap, out);
  return out;
}

/** Field types whose values can hold library references. */
export const MEDIA_CAPABLE: ReadonlySet<string> = new Set(['image', 'file', 'repeater', 'blocks', 'portableText']);

const hasMediaFields = (fields: readonly FieldDefinition[]): boolean =>
  fields.some((f) => f.type === 'image' || f.type === 'file' || f.type === 'repeater' || f.type === 'blocks');

/** The entry's data as this write left it: its pending draft when it has one, else its row. */
async function currentData(trx: Kdb, change: EntryChange, id: string): Promise<Record<string, unknown> | null> {
  const c = change.collection;
  const row = await dyn(trx).selectFrom(c.table).selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  if (row.draft_revision_id) {
    const rev = await trx
      .selectFrom('_cms_revisions')
      .select('data')
      .where('id', '=', row.draft_revision_id as string)
      .executeTakeFirst();
    if (rev) return JSON.parse(rev.data) as Record<string, unknown>;
  }
  return decodeData(c, row);
}

export function mediaFieldListener(snapshot: () => Promise<SchemaSnapshot>) {
  return async (trx: Kdb, change: EntryChange): Promise<void> => {
    if (change.kind !== 'create' && change.kind !== 'update') return;
    if (!hasMediaFields(change.collection.fields)) return;
    const snap = await snapshot();
    const refs: MediaRef[] = [];
    for (const id of change.ids) {
      const data = await currentData(trx, change, id);
      if (!data) continue;
      // Rich-text images are indexed for usage but not checked against the library here.
      const fieldRefs = (values: Record<string, unknown>) =>
        mediaRefsOf(change.collection.fields, values, snap).filter((r) => r.source === 'field');
      const found = fieldRefs(data);
      const before = change.kind === 'update' ? change.previous?.[id] : undefined;
      if (before) {
        const unchanged = new Set(fieldRefs(before as Record<string, unknown>).map(refKey));
        refs.push(...found.filter((r) => !unchanged.has(refKey(r))));
      } else refs.push(...found);
    }
    if (!refs.length) return;
    const ids = [...new Set(refs.map((r) => r.id))];
    const items = new Map<string, { status: string; mime_type: string }>();
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await trx
        .selectFrom('_cms_media')
        .select(['id', 'status', 'mime_type'])
        .where('id', 'in', ids.slice(i, i + CHUNK))
        .execute();
      for (const r of rows) items.set(r.id, r);
    }
    const issues: ValidationIssue[] = [];
    for (const ref of refs) {
      const item = items.get(ref.id);
      if (item?.status !== 'ready') {
        issues.push({
          path: [...ref.path, 'id'],
          code: 'not_found',
          message: `media item ${ref.id} is not in the library`,
        });
        continue;
      }
      if (ref.allowed && !mimeAllowed(item.mime_type, ref.allowed)) {
        issues.push({
          path: ref.path,
          code: 'invalid_mime_type',
          message: `${item.mime_type} is not allowed (allowed: ${ref.allowed.join(', ')})`,
        });
      }
      if (typeof ref.mimeType === 'string' && ref.mimeType.toLowerCase() !== item.mime_type) {
        issues.push({
          path: [...ref.path, 'mimeType'],
          code: 'mismatch',
          message: `the library has this file as ${item.mime_type}`,
        });
      }
    }
    if (issues.length) throw issuesError('Invalid entry data', issues);
  };
}
