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
interface MediaRef {
  id: string;
  mimeType: unknown;
  path: (string | number)[];
  allowed: string[] | null;
}

const CHUNK = 500;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function allowlist(field: FieldDefinition): string[] | null {
  const list = field.validation?.allowedMimeTypes;
  return Array.isArray(list) && list.length ? list.filter((m): m is string => typeof m === 'string') : null;
}

function pushRef(field: FieldDefinition, value: unknown, path: (string | number)[], out: MediaRef[]): void {
  if (!isObject(value) || typeof value.id !== 'string' || value.id === '') return;
  const provider = value.provider ?? 'local';
  if (provider !== 'local') return;
  out.push({ id: value.id, mimeType: value.mimeType, path, allowed: allowlist(field) });
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
    } else if (field.type === 'repeater' && Array.isArray(value)) {
      const sub = field.validation?.subFields;
      if (!Array.isArray(sub)) continue;
      value.forEach((row, i) => {
        if (isObject(row)) collect(sub as FieldDefinition[], row, [...here, i], snap, out);
      });
    } else if (field.type === 'blocks' && Array.isArray(value)) {
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
      const found: MediaRef[] = [];
      collect(change.collection.fields, data, ['data'], snap, found);
      const before = change.kind === 'update' ? change.previous?.[id] : undefined;
      if (before) {
        const held: MediaRef[] = [];
        collect(change.collection.fields, before as Record<string, unknown>, ['data'], snap, held);
        const unchanged = new Set(held.map(refKey));
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
