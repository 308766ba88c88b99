/**
 * Plain paragraphs ↔ Portable Text, for the small editors of sections and
 * rich-text widgets. Only text without marks, links or other block types
 * round-trips; anything richer is edited as Portable Text JSON instead.
 */
interface Span {
  _type: 'span';
  _key: string;
  text: string;
  marks: string[];
}

export interface TextBlock {
  _type: 'block';
  _key: string;
  style: 'normal';
  markDefs: never[];
  children: Span[];
}

const key = () => Math.random().toString(36).slice(2, 10);

/** The paragraphs of simple blocks (joined by blank lines), or null when the content is richer. */
export function toParagraphs(blocks: unknown[]): string | null {
  const out: string[] = [];
  for (const b of blocks) {
    const block = b as Record<string, unknown>;
    if (block._type !== 'block' || (block.style !== undefined && block.style !== 'normal')) return null;
    if (block.listItem !== undefined) return null;
    if (Array.isArray(block.markDefs) && block.markDefs.length) return null;
    const children = Array.isArray(block.children) ? (block.children as Array<Record<string, unknown>>) : [];
    if (children.some((c) => c._type !== 'span' || (Array.isArray(c.marks) && c.marks.length))) return null;
    out.push(children.map((c) => String(c.text ?? '')).join(''));
  }
  return out.join('\n\n');
}

/** One normal block per paragraph (blank lines separate them; single line breaks are kept). */
export function fromParagraphs(text: string): TextBlock[] {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => ({
      _type: 'block',
      _key: key(),
      style: 'normal',
      markDefs: [],
      children: [{ _type: 'span', _key: key(), text: p, marks: [] }],
    }));
}
