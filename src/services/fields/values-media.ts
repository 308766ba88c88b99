/** Value checks for image and file fields (spec 2, "Field types": image, file). */
import { type IssuePath, isPlainObject, report } from './issue.js';
import { readKey } from './rule-helpers.js';
import type { FieldDefinition } from './types.js';
import { checkUrl } from './url.js';
import type { ValueContext } from './value-context.js';
import { typeIssue, type ValueChecker } from './values-scalar.js';

/** text: a string; url: a safe link target; count: a non-negative integer; meta: an object. */
type PropKind = 'text' | 'url' | 'count' | 'meta';

interface MediaShape {
  what: string;
  props: Readonly<Record<string, PropKind>>;
  /** Required properties, each a non-empty string. */
  required: readonly string[];
}

const IMAGE: MediaShape = {
  what: 'an image object with id',
  props: {
    id: 'text',
    src: 'url',
    alt: 'text',
    width: 'count',
    height: 'count',
    provider: 'text',
    meta: 'meta',
    mimeType: 'text',
  },
  required: ['id'],
};

const FILE: MediaShape = {
  what: 'a file object with id, filename and mimeType',
  props: { id: 'text', provider: 'text', filename: 'text', mimeType: 'text', meta: 'meta', url: 'url', size: 'count' },
  required: ['id', 'filename', 'mimeType'],
};

function checkProp(kind: PropKind, value: unknown, path: IssuePath, ctx: ValueContext): void {
  switch (kind) {
    case 'text':
      if (typeof value !== 'string') typeIssue(ctx, path, 'a string', value);
      return;
    case 'url': {
      if (typeof value !== 'string') {
        typeIssue(ctx, path, 'a URL string', value);
        return;
      }
      const problem = checkUrl(value, { allowSchemeless: ctx.options.allowSchemelessUrls });
      if (problem) report(ctx.sink, path, 'invalid_url', problem);
      return;
    }
    case 'count':
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
        typeIssue(ctx, path, 'a non-negative integer', value);
      }
      return;
    case 'meta':
      if (!isPlainObject(value)) {
        typeIssue(ctx, path, 'an object', value);
        return;
      }
      if (value.storageKey !== undefined && value.storageKey !== null && typeof value.storageKey !== 'string') {
        typeIssue(ctx, [...path, 'storageKey'], 'a string', value.storageKey);
      }
      return;
  }
}

/** Unknown properties are rejected so a typo (`altText`) does not silently drop data. */
function checkShape(
  shape: MediaShape,
  value: Record<string, unknown>,
  path: IssuePath,
  ctx: ValueContext,
  extraKeys: readonly string[],
): void {
  for (const [key, prop] of Object.entries(value)) {
    const kind = Object.hasOwn(shape.props, key) ? shape.props[key] : undefined;
    if (kind === undefined) {
      if (!extraKeys.includes(key)) {
        const known = [...Object.keys(shape.props), ...extraKeys].join(', ');
        report(ctx.sink, [...path, key], 'unknown_field', `unknown property "${key}" (known: ${known})`);
      }
      continue;
    }
    if (prop === undefined || prop === null) continue;
    checkProp(kind, prop, [...path, key], ctx);
  }
  for (const key of shape.required) {
    const v = value[key];
    if (v === undefined || v === null || v === '') report(ctx.sink, [...path, key], 'required', `${key} is required`);
  }
}

/**
 * What content reads add to a library image (its responsive `srcset`, media/images/field-values.ts):
 * accepted back in a write, so a value read and sent back is not refused, and never stored.
 */
const READ_ONLY_IMAGE_KEYS = ['srcset', 'srcsetCandidates'] as const;

function withoutReadOnly(value: Record<string, unknown>): Record<string, unknown> {
  const out = { ...value };
  for (const key of READ_ONLY_IMAGE_KEYS) delete out[key];
  return out;
}

/** MIME types compare case-insensitively (RFC 2045). */
function checkMime(field: FieldDefinition, value: Record<string, unknown>, path: IssuePath, ctx: ValueContext): void {
  const allowed = readKey(field.validation, 'allowedMimeTypes');
  if (!Array.isArray(allowed) || typeof value.mimeType !== 'string' || value.mimeType === '') return;
  const list = allowed.filter((m): m is string => typeof m === 'string');
  if (!list.some((m) => m.toLowerCase() === (value.mimeType as string).toLowerCase())) {
    report(
      ctx.sink,
      [...path, 'mimeType'],
      'invalid_mime_type',
      `${value.mimeType} is not allowed (allowed: ${list.join(', ')})`,
    );
  }
}

export const checkImage: ValueChecker = (field, value, path, ctx) => {
  if (!isPlainObject(value)) {
    typeIssue(ctx, path, IMAGE.what, value);
    return value;
  }
  checkShape(IMAGE, value, path, ctx, ['darkVariant', ...READ_ONLY_IMAGE_KEYS]);
  checkMime(field, value, path, ctx);
  const dark = value.darkVariant;
  if (dark === undefined || dark === null) return withoutReadOnly(value);
  const darkPath = [...path, 'darkVariant'];
  if (readKey(field.options, 'darkVariant') !== true) {
    report(
      ctx.sink,
      darkPath,
      'not_allowed',
      'this image field has no dark variant slot (options.darkVariant is not enabled)',
    );
    return withoutReadOnly(value);
  }
  if (!isPlainObject(dark)) {
    typeIssue(ctx, darkPath, IMAGE.what, dark);
    return withoutReadOnly(value);
  }
  checkShape(IMAGE, dark, darkPath, ctx, READ_ONLY_IMAGE_KEYS);
  checkMime(field, dark, darkPath, ctx);
  return { ...withoutReadOnly(value), darkVariant: withoutReadOnly(dark) };
};

export const checkFile: ValueChecker = (field, value, path, ctx) => {
  if (!isPlainObject(value)) {
    typeIssue(ctx, path, FILE.what, value);
    return value;
  }
  checkShape(FILE, value, path, ctx, []);
  checkMime(field, value, path, ctx);
  return { ...value };
};
