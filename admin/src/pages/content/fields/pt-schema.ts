/**
 * The Portable Text schema the editor works with: the usual rich text set,
 * images, the site's block types as custom blocks, plus every style, mark,
 * list and object type already present in the value, so content written
 * elsewhere (imports, the API, plugins) round-trips unchanged.
 */
import { defineSchema, type PortableTextBlock } from '@portabletext/editor';
import type { BlockType } from '../../../api/content';

export const STYLES = [
  { name: 'normal', title: 'Paragraph' },
  { name: 'h1', title: 'Heading 1' },
  { name: 'h2', title: 'Heading 2' },
  { name: 'h3', title: 'Heading 3' },
  { name: 'h4', title: 'Heading 4' },
  { name: 'blockquote', title: 'Quote' },
];
export const DECORATORS = [
  { name: 'strong', title: 'Bold', short: 'B', key: 'b' },
  { name: 'em', title: 'Italic', short: 'I', key: 'i' },
  { name: 'underline', title: 'Underline', short: 'U', key: 'u' },
  { name: 'code', title: 'Code', short: '</>', key: "'" },
  { name: 'strike-through', title: 'Strikethrough', short: 'S', key: 'x' },
];
export const LISTS = [
  { name: 'bullet', title: 'Bulleted list' },
  { name: 'number', title: 'Numbered list' },
];

type Named = { name: string; title?: string };

function collect(value: PortableTextBlock[] | undefined) {
  const styles = new Set<string>();
  const lists = new Set<string>();
  const decorators = new Set<string>();
  const annotations = new Set<string>();
  const blockObjects = new Set<string>();
  const inlineObjects = new Set<string>();
  for (const block of value ?? []) {
    if (block._type !== 'block') {
      blockObjects.add(block._type);
      continue;
    }
    const b = block as PortableTextBlock & {
      style?: string;
      listItem?: string;
      markDefs?: Array<{ _key: string; _type: string }>;
      children?: Array<{ _type: string; marks?: string[] }>;
    };
    if (b.style) styles.add(b.style);
    if (b.listItem) lists.add(b.listItem);
    const defKeys = new Set((b.markDefs ?? []).map((d) => d._key));
    for (const d of b.markDefs ?? []) annotations.add(d._type);
    for (const child of b.children ?? []) {
      if (child._type !== 'span') inlineObjects.add(child._type);
      for (const m of child.marks ?? []) if (!defKeys.has(m)) decorators.add(m);
    }
  }
  return { styles, lists, decorators, annotations, blockObjects, inlineObjects };
}

const merge = (base: Named[], extra: Set<string>): Named[] => [
  ...base,
  ...[...extra].filter((n) => !base.some((b) => b.name === n)).map((name) => ({ name, title: name })),
];

type PtField = { name: string; type: 'string' | 'number' | 'boolean' | 'object' | 'array' };

/** The image block keeps an image field's shape, so library images in rich text and in fields read alike. */
const IMAGE_FIELDS: PtField[] = [
  { name: 'id', type: 'string' },
  { name: 'provider', type: 'string' },
  { name: 'src', type: 'string' },
  { name: 'alt', type: 'string' },
  { name: 'width', type: 'number' },
  { name: 'height', type: 'number' },
  { name: 'mimeType', type: 'string' },
];

function ptFieldType(type: string): PtField['type'] {
  if (type === 'number' || type === 'integer') return 'number';
  if (type === 'boolean') return 'boolean';
  if (['multiSelect', 'repeater', 'blocks', 'portableText'].includes(type)) return 'array';
  if (['image', 'file', 'json', 'reference'].includes(type)) return 'object';
  return 'string';
}

/**
 * The editor only sets properties its schema declares on a block object, so
 * each block type declares the fields of all its versions (and `_version`).
 */
function blockTypeFields(b: BlockType): PtField[] {
  const out = new Map<string, PtField>([['_version', { name: '_version', type: 'number' }]]);
  for (const v of b.versions) {
    for (const f of v.fields) if (!out.has(f.slug)) out.set(f.slug, { name: f.slug, type: ptFieldType(f.type) });
  }
  for (const f of b.fields) if (!out.has(f.slug)) out.set(f.slug, { name: f.slug, type: ptFieldType(f.type) });
  return [...out.values()];
}

export function ptSchema(value: PortableTextBlock[] | undefined, blockTypes: BlockType[]) {
  const found = collect(value);
  const blockObjects: Array<Named & { fields?: PtField[] }> = [
    { name: 'image', title: 'Image', fields: IMAGE_FIELDS },
    ...blockTypes.map((b) => ({ name: b.slug, title: b.label, fields: blockTypeFields(b) })),
  ];
  return defineSchema({
    styles: merge(STYLES, found.styles),
    decorators: merge(DECORATORS, found.decorators),
    lists: merge(LISTS, found.lists),
    annotations: merge([{ name: 'link', title: 'Link' }], found.annotations),
    blockObjects: merge(blockObjects, found.blockObjects),
    inlineObjects: [...found.inlineObjects].map((name) => ({ name, title: name })),
  });
}
