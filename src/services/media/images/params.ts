import {
  IMAGE_FITS,
  IMAGE_FORMATS,
  type ImageConfig,
  type ImageFit,
  type ImageFormat,
  MAX_IMAGE_EDGE,
  PRESET_NAME,
} from '../../../core/config-images.js';
import { CmsError, issuesError, type ValidationIssue } from '../../../core/errors.js';
import { verifySignature } from './sign.js';

/**
 * The query of an image URL (docs/media.md, "Responsive images"):
 * `preset`, `w`, `h`, `fit`, `fm`, `q`, then `v` (the version the URL was made for) and `sig`.
 * One output has one URL: parameters come in that order, each once, in their plain form
 * (`w=640`, never `w=0640` or `w=%36%34%30`); anything else is refused or, when only the
 * order or spelling differs, redirected to the canonical URL.
 */
export interface ImageParams {
  preset?: string;
  w?: number;
  h?: number;
  fit?: ImageFit;
  fm?: ImageFormat | 'auto';
  q?: number;
}

export interface ImageRequest {
  params: ImageParams;
  /** The canonical transform parameters (what a signature covers): no `v`, no `sig`. */
  transform: string;
  v: string | null;
  sig: string | null;
}

export type ParsedImageQuery = { kind: 'request'; request: ImageRequest } | { kind: 'redirect'; query: string };

/** What a request asks for once its preset is applied. */
export interface ImageSpec {
  w?: number;
  h?: number;
  /** Only with both `w` and `h`; `cover` unless given. */
  fit?: ImageFit;
  fm?: ImageFormat | 'auto';
  q?: number;
}

export const PARAM_ORDER = ['preset', 'w', 'h', 'fit', 'fm', 'q', 'v', 'sig'] as const;
type ParamName = (typeof PARAM_ORDER)[number];

const EDGE = /^[1-9][0-9]{0,4}$/;
const QUALITY = /^(100|[1-9][0-9]?)$/;
const VERSION = /^[0-9a-f]{12}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{22}$/;

const FORMATS: readonly string[] = [...IMAGE_FORMATS, 'auto'];

type Check = (raw: string) => string | null;
const CHECKS: Record<ParamName, Check> = {
  preset: (v) => (PRESET_NAME.test(v) ? null : 'a preset name'),
  w: (v) => (EDGE.test(v) && Number(v) <= MAX_IMAGE_EDGE ? null : `a whole number from 1 to ${MAX_IMAGE_EDGE}`),
  h: (v) => (EDGE.test(v) && Number(v) <= MAX_IMAGE_EDGE ? null : `a whole number from 1 to ${MAX_IMAGE_EDGE}`),
  fit: (v) => ((IMAGE_FITS as readonly string[]).includes(v) ? null : `one of ${IMAGE_FITS.join(', ')}`),
  fm: (v) => (FORMATS.includes(v) ? null : `one of ${FORMATS.join(', ')}`),
  q: (v) => (QUALITY.test(v) ? null : 'a whole number from 1 to 100'),
  v: (v) => (VERSION.test(v) ? null : 'the 12-character version of an image URL'),
  sig: (v) => (SIGNATURE.test(v) ? null : 'a 22-character signature'),
};

const isParam = (k: string): k is ParamName => (PARAM_ORDER as readonly string[]).includes(k);

/** Parse the raw query string (without `?`); refuses what no canonical URL has. */
export function parseImageQuery(raw: string): ParsedImageQuery {
  const issues: ValidationIssue[] = [];
  const values = new Map<ParamName, string>();
  for (const [key, value] of new URLSearchParams(raw)) {
    if (!isParam(key)) {
      issues.push({
        path: ['query', key],
        code: 'unrecognized_keys',
        message: `unknown parameter (known: ${PARAM_ORDER.join(', ')})`,
      });
      continue;
    }
    if (values.has(key)) {
      issues.push({ path: ['query', key], code: 'duplicate', message: 'given more than once' });
      continue;
    }
    const problem = CHECKS[key](value);
    if (problem) issues.push({ path: ['query', key], code: 'invalid_value', message: `expected ${problem}` });
    values.set(key, value);
  }
  const has = (k: ParamName) => values.has(k);
  if (has('preset') && (has('w') || has('h') || has('fit'))) {
    issues.push({
      path: ['query', 'preset'],
      code: 'invalid_combination',
      message: 'a preset sets w, h and fit itself',
    });
  }
  if (has('fit') && !(has('w') && has('h'))) {
    issues.push({ path: ['query', 'fit'], code: 'invalid_combination', message: 'fit needs both w and h' });
  }
  if (issues.length) throw issuesError('Invalid image parameters', issues);

  const canonical = PARAM_ORDER.filter(has).map((k) => `${k}=${values.get(k)}`);
  const transform = canonical.filter((p) => !p.startsWith('v=') && !p.startsWith('sig=')).join('&');
  if (canonical.join('&') !== raw) return { kind: 'redirect', query: canonical.join('&') };
  const num = (k: ParamName) => (has(k) ? Number(values.get(k)) : undefined);
  const params: ImageParams = {
    preset: values.get('preset'),
    w: num('w'),
    h: num('h'),
    fit: values.get('fit') as ImageFit | undefined,
    fm: values.get('fm') as ImageFormat | 'auto' | undefined,
    q: num('q'),
  };
  return {
    kind: 'request',
    request: { params, transform, v: values.get('v') ?? null, sig: values.get('sig') ?? null },
  };
}

/** The canonical transform query of parameters (what URL builders and signatures use). */
export function canonicalTransform(params: ImageParams): string {
  return PARAM_ORDER.filter((k) => k !== 'v' && k !== 'sig' && params[k] !== undefined)
    .map((k) => `${k}=${params[k as keyof ImageParams]}`)
    .join('&');
}

/** The preset applied: its size and fit, then the request's own format and quality over the preset's. */
export function specOf(params: ImageParams, presets: ImageConfig['presets']): ImageSpec {
  let spec: ImageSpec = { w: params.w, h: params.h, fit: params.fit, fm: params.fm, q: params.q };
  if (params.preset !== undefined) {
    const preset = Object.hasOwn(presets, params.preset) ? presets[params.preset] : undefined;
    if (!preset) {
      throw issuesError('Unknown image preset', [
        { path: ['query', 'preset'], code: 'invalid_value', message: `no preset "${params.preset}" is configured` },
      ]);
    }
    spec = { ...preset, fm: params.fm ?? preset.fm, q: params.q ?? preset.q };
  }
  if (spec.w !== undefined && spec.h !== undefined) spec.fit ??= 'cover';
  return spec;
}

/**
 * Who may ask for this size: anyone for a configured width (alone), a preset or the original
 * size; anything else only with the site's signature over the item and the transform. A
 * signature that is there must be right, whatever it would allow.
 */
export function authorize(id: string, request: ImageRequest, images: ImageConfig): ImageSpec {
  const spec = specOf(request.params, images.presets);
  if (request.sig !== null) {
    if (!images.signingKey || !verifySignature(images.signingKey, id, request.transform, request.sig)) {
      throw new CmsError('IMAGE_SIGNATURE_INVALID', 'The signature does not match this image URL');
    }
    return spec;
  }
  const { w, h, preset } = request.params;
  if (preset !== undefined) return spec;
  if (h !== undefined || (w !== undefined && !images.widths.includes(w))) {
    throw new CmsError(
      'IMAGE_SIZE_NOT_ALLOWED',
      'Only the configured widths and presets are served without a signature',
      { widths: images.widths, presets: Object.keys(images.presets) },
    );
  }
  return spec;
}

/** Whether the output depends on the focal point: a crop to both a width and a height. */
export function focalMatters(spec: ImageSpec): boolean {
  return spec.w !== undefined && spec.h !== undefined && spec.fit === 'cover';
}
