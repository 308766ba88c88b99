import { CmsError } from '../../../core/errors.js';
import type { ImageSpec } from './params.js';
import type { FocalPoint } from './sign.js';

/**
 * What a transform does to the (orientation-corrected) source, worked out before any pixel is
 * read: from the item's stored width and height, the request and the focal point. Images are
 * never enlarged: when the source is smaller than asked, the output is smaller too, with the
 * aspect ratio asked for (a crop or a padded box) or the source's own.
 */
export interface Plan {
  /** Output size. */
  width: number;
  height: number;
  /** Scale the whole source to exactly this size first (omitted: no scaling). */
  resize: { width: number; height: number } | null;
  /** Then cut this region out of the scaled image (cover). */
  extract: { left: number; top: number; width: number; height: number } | null;
  /** Or pad around it (contain). */
  pad: { top: number; right: number; bottom: number; left: number } | null;
}

interface Size {
  width: number;
  height: number;
}

const atLeastOne = (n: number) => Math.max(1, Math.round(n));

function scaled(source: Size, s: number): Plan {
  if (s >= 1) return { ...source, resize: null, extract: null, pad: null };
  const size = { width: atLeastOne(source.width * s), height: atLeastOne(source.height * s) };
  return { ...size, resize: size, extract: null, pad: null };
}

/** Largest box of the aspect ratio `w:h` that fits in `size`, no larger than `w × h`. */
function boxWithin(size: Size, w: number, h: number): Size {
  const wide = size.width * h > size.height * w;
  const box = wide
    ? { width: atLeastOne((size.height * w) / h), height: size.height }
    : { width: size.width, height: atLeastOne((size.width * h) / w) };
  return { width: Math.min(box.width, w, size.width), height: Math.min(box.height, h, size.height) };
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

/** Scale so the source covers `w × h` (never above 1), then cut the box around the focal point. */
function cover(source: Size, w: number, h: number, focal: FocalPoint): Plan {
  const s = Math.min(1, Math.max(w / source.width, h / source.height));
  const size = s < 1 ? { width: atLeastOne(source.width * s), height: atLeastOne(source.height * s) } : source;
  const box = boxWithin(size, w, h);
  const left = clamp(Math.round(focal.x * size.width - box.width / 2), 0, size.width - box.width);
  const top = clamp(Math.round(focal.y * size.height - box.height / 2), 0, size.height - box.height);
  const extract = box.width === size.width && box.height === size.height ? null : { left, top, ...box };
  return { ...box, resize: s < 1 ? size : null, extract, pad: null };
}

/** The whole source inside `w × h`, padded to that box (a proportionally smaller one for a small source). */
function contain(source: Size, w: number, h: number): Plan {
  const f = Math.min(w / source.width, h / source.height);
  const inner = scaled(source, f);
  const box =
    f < 1
      ? { width: w, height: h }
      : {
          width: Math.max(source.width, Math.round(w / f)),
          height: Math.max(source.height, Math.round(h / f)),
        };
  const dx = box.width - inner.width;
  const dy = box.height - inner.height;
  const pad =
    dx || dy
      ? {
          top: Math.floor(dy / 2),
          bottom: dy - Math.floor(dy / 2),
          left: Math.floor(dx / 2),
          right: dx - Math.floor(dx / 2),
        }
      : null;
  return { ...box, resize: inner.resize, extract: null, pad };
}

export function planImage(source: Size, spec: ImageSpec, focal: FocalPoint, maxPixels: number): Plan {
  const { w, h } = spec;
  let plan: Plan;
  if (w !== undefined && h !== undefined) {
    if (spec.fit === 'inside') plan = scaled(source, Math.min(w / source.width, h / source.height));
    else if (spec.fit === 'contain') plan = contain(source, w, h);
    else plan = cover(source, w, h, focal);
  } else if (w !== undefined) plan = scaled(source, w / source.width);
  else if (h !== undefined) plan = scaled(source, h / source.height);
  else plan = scaled(source, 1);
  if (plan.width * plan.height > maxPixels) {
    throw new CmsError(
      'IMAGE_TOO_LARGE',
      `The image would be ${plan.width} × ${plan.height} pixels; at most ${maxPixels} are served`,
      { width: plan.width, height: plan.height, imageMaxPixels: maxPixels },
    );
  }
  return plan;
}
