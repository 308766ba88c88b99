import type { ImageConfig } from '../../../core/config-images.js';
import { STORAGE_KEY } from '../../../storage/index.js';
import type { FieldDefinition } from '../../fields/types.js';
import type { SchemaSnapshot } from '../../schema/model.js';
import { FILE_ROUTE } from '../present.js';
import { srcsetOf } from './srcset.js';

/**
 * `srcset` and `srcsetCandidates` on the image field values of a content read (top-level
 * image fields and their dark variant, image sub-fields of repeaters, image fields of blocks),
 * made from what the stored value holds (id, type, size, storage key): no query. They are read
 * only: a write that sends a value back with them has them dropped (fields/values-media.ts).
 */
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

type Data = Record<string, unknown>;
const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);

export function imageValuePresenter(config: { publicUrl: string; images: ImageConfig }) {
  function withSrcset(value: unknown): unknown {
    if (!isObject(value) || typeof value.id !== 'string' || !ULID.test(value.id)) return value;
    if ((value.provider ?? 'local') !== 'local' || typeof value.mimeType !== 'string') return value;
    const meta = isObject(value.meta) ? value.meta : {};
    const key = typeof meta.storageKey === 'string' && STORAGE_KEY.test(meta.storageKey) ? meta.storageKey : null;
    const set = srcsetOf(config, {
      id: value.id,
      mimeType: value.mimeType,
      width: typeof value.width === 'number' ? value.width : null,
      height: typeof value.height === 'number' ? value.height : null,
      storageKey: key,
      original: typeof value.src === 'string' ? value.src : `${config.publicUrl}${FILE_ROUTE}/${value.id}`,
    });
    const dark = value.darkVariant === undefined ? undefined : withSrcset(value.darkVariant);
    if (!set && dark === value.darkVariant) return value;
    return {
      ...value,
      ...(set ? { srcset: set.srcset, srcsetCandidates: set.candidates } : {}),
      ...(dark !== undefined ? { darkVariant: dark } : {}),
    };
  }

  /** A copy of `data` where anything changed; the same object where nothing did. */
  function walk(fields: readonly FieldDefinition[], data: Data, snap: SchemaSnapshot): Data {
    let out: Data | null = null;
    const put = (slug: string, next: unknown) => {
      if (next === data[slug]) return;
      out ??= { ...data };
      out[slug] = next;
    };
    for (const field of fields) {
      const value = data[field.slug];
      if (value === null || value === undefined) continue;
      if (field.type === 'image') put(field.slug, withSrcset(value));
      else if (field.type === 'repeater' && Array.isArray(value) && Array.isArray(field.validation?.subFields)) {
        const sub = field.validation.subFields as FieldDefinition[];
        put(
          field.slug,
          mapSame(value, (row) => (isObject(row) ? walk(sub, row, snap) : row)),
        );
      } else if (field.type === 'blocks' && Array.isArray(value)) {
        put(
          field.slug,
          mapSame(value, (block) => {
            if (!isObject(block) || typeof block._type !== 'string') return block;
            const version = snap.blockTypes.get(block._type)?.versions.find((v) => v.version === block._version);
            return version ? walk(version.fields, block, snap) : block;
          }),
        );
      }
    }
    return out ?? data;
  }

  const capable = new WeakMap<object, boolean>();
  const hasImages = (fields: readonly FieldDefinition[]) =>
    fields.some((f) => f.type === 'image' || f.type === 'repeater' || f.type === 'blocks');

  return (fields: readonly FieldDefinition[], data: Data, snap: SchemaSnapshot): Data => {
    let can = capable.get(fields);
    if (can === undefined) {
      can = hasImages(fields);
      capable.set(fields, can);
    }
    return can ? walk(fields, data, snap) : data;
  };
}

function mapSame<T>(list: T[], fn: (item: T) => T): T[] {
  let changed = false;
  const out = list.map((item) => {
    const next = fn(item);
    if (next !== item) changed = true;
    return next;
  });
  return changed ? out : list;
}
