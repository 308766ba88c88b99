/**
 * WordPress post content (block-editor markup, classic HTML, shortcodes) to Portable Text.
 *
 * The HTML is parsed once with htmlparser2 (a tolerant, linear tokenizer) and walked; the walk
 * is bounded in depth, and every hand-written scanner is linear, so hostile content costs time
 * in proportion to its length. Nothing is dropped silently: what has no Portable Text form is
 * kept as an `html` block (or, for unknown shortcodes, as the literal text) and counted in
 * `unconverted`.
 */
import { parseDocument } from 'htmlparser2';
import { storable } from './out.js';
import type { ConvertContext, ConvertResult, PortableTextBlock } from './types.js';
import { Walker } from './walker.js';

export type {
  AttachmentInfo,
  ConvertContext,
  ConvertReport,
  ConvertResult,
  PortableTextBlock,
  PtObject,
  PtTextBlock,
} from './types.js';

export function wpContentToPortableText(html: string, ctx: ConvertContext = {}): ConvertResult {
  const source = typeof html === 'string' ? html : '';
  const doc = parseDocument(source, {
    withStartIndices: true,
    withEndIndices: true,
    decodeEntities: true,
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
  });
  const w = new Walker(source, ctx);
  // Top-level content outside any block is "freeform" to WordPress and formatted with wpautop.
  const st = { marks: [], shape: { style: 'normal' }, mode: 'classic' as const, depth: 0 };
  w.nodes(doc.children, st);
  w.flush(st);
  return {
    // Text blocks were cleaned when closed; objects carry attribute values and raw markup.
    blocks: w.out.blocks.map((b) => (b._type === 'block' ? b : (clean(b, 0) as PortableTextBlock))),
    unconverted: w.out.unconverted(),
    reusableBlockRefs: [...w.out.refs],
  };
}

/** Every string storable on both databases (no NUL, no lone surrogate); objects are shallow here. */
function clean(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return storable(value);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => clean(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = clean(v, depth + 1);
  return out;
}
