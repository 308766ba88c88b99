/**
 * The value rules of the 17 field types, checked in the browser so people see
 * a problem next to the field before saving. The service checks again on
 * every write (its answer wins); the URL rule is the service's own function.
 */
import { checkUrl } from '../../../src/services/fields/url';
import type { FieldLike } from '../api/content';

export type Issues = Record<string, string>;

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const codePoints = (s: string) => [...s].length;

export function isEmpty(v: unknown): boolean {
  return (
    v === null || v === undefined || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0)
  );
}

/** A `pattern` must match the whole value, with the `u` flag (as the service and the HTML attribute do). */
export function patternError(pattern: unknown, value: string): string | undefined {
  if (typeof pattern !== 'string' || value === '') return undefined;
  try {
    return new RegExp(`^(?:${pattern})$`, 'u').test(value) ? undefined : 'Does not have the expected format.';
  } catch {
    return undefined;
  }
}

function textRules(f: FieldLike, v: string): string | undefined {
  const val = f.validation ?? {};
  const len = codePoints(v);
  const min = num(val.minLength);
  const max = num(val.maxLength);
  if (v !== '' && min !== undefined && len < min) return `At least ${min} characters (now ${len}).`;
  if (max !== undefined && len > max) return `At most ${max} characters (now ${len}).`;
  return patternError(val.pattern, v);
}

/** The message for one value, or undefined when it is acceptable. */
export function fieldError(f: FieldLike, value: unknown): string | undefined {
  if (f.required && isEmpty(value)) return `${f.label} is required.`;
  if (isEmpty(value) && f.type !== 'boolean') return undefined;
  const val = f.validation ?? {};
  switch (f.type) {
    case 'string':
    case 'text':
    case 'slug':
      return typeof value === 'string' ? textRules(f, value) : 'Must be text.';
    case 'url':
      return typeof value === 'string' ? (checkUrl(value) ?? undefined) : 'Must be a link.';
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'Must be a number.';
      if (f.type === 'integer' && !Number.isSafeInteger(value)) return 'Must be a whole number.';
      const min = num(val.min);
      const max = num(val.max);
      if (min !== undefined && value < min) return `At least ${min}.`;
      if (max !== undefined && value > max) return `At most ${max}.`;
      return undefined;
    }
    case 'datetime':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? undefined : 'Enter a date and time.';
    case 'select': {
      const opts = val.options;
      if (Array.isArray(opts) && !opts.includes(value)) return 'Choose one of the options.';
      return undefined;
    }
    case 'multiSelect': {
      const opts = val.options;
      if (!Array.isArray(value)) return 'Must be a list.';
      if (Array.isArray(opts)) {
        const bad = value.find((x) => !opts.includes(x));
        if (bad !== undefined) return `"${String(bad)}" is not one of the options.`;
      }
      return undefined;
    }
    case 'json':
      return undefined;
    case 'repeater':
    case 'blocks': {
      if (!Array.isArray(value)) return 'Must be a list.';
      const min = num(val.minItems);
      const max = num(val.maxItems);
      const noun = f.type === 'repeater' ? 'rows' : 'blocks';
      if (min !== undefined && value.length < min) return `At least ${min} ${noun}.`;
      if (max !== undefined && value.length > max) return `At most ${max} ${noun}.`;
      return undefined;
    }
    default:
      return undefined;
  }
}

/** Issues of a whole form (`field` or `field.row.sub` keys), nested rows included. */
export function formIssues(fields: FieldLike[], data: Record<string, unknown>, blockFields?: BlockFieldsOf): Issues {
  const out: Issues = {};
  for (const f of fields) {
    const value = data[f.slug];
    const own = fieldError(f, value);
    if (own) out[f.slug] = own;
    if (f.type === 'repeater' && Array.isArray(value)) {
      const subs = (f.validation?.subFields ?? []) as FieldLike[];
      value.forEach((row, i) => {
        for (const sub of subs) {
          const err = fieldError(sub, (row as Record<string, unknown>)?.[sub.slug]);
          if (err) out[`${f.slug}.${i}.${sub.slug}`] = err;
        }
      });
    }
    if (f.type === 'blocks' && Array.isArray(value) && blockFields) {
      value.forEach((block, i) => {
        const b = block as Record<string, unknown>;
        const defs = blockFields(String(b._type), Number(b._version));
        const inner = formIssues(defs ?? [], b, blockFields);
        for (const [k, msg] of Object.entries(inner)) out[`${f.slug}.${i}.${k}`] = msg;
      });
    }
  }
  return out;
}

export type BlockFieldsOf = (type: string, version: number) => FieldLike[] | undefined;
