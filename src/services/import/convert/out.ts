/**
 * What a conversion writes: the block list, the unconverted report and the paragraph being
 * filled. Inline text arrives piece by piece with its marks; a paragraph is only started when
 * visible text arrives, so containers that hold nothing leave no empty blocks behind.
 */
import { isWellFormed, toWellFormed } from '../../../core/text.js';
import type { ConvertReport, PortableTextBlock, PtLinkDef, PtObject, PtSpan, PtTextBlock } from './types.js';

/** A link around inline content; one object per `<a>`, so a paragraph split inside it keeps the link. */
export interface LinkMark {
  href: string;
}
export type Mark = string | LinkMark;

export interface ParaShape {
  style: string;
  listItem?: 'bullet' | 'number';
  level?: number;
}

/** Text both databases store: NUL is refused by PostgreSQL, lone surrogates are not Unicode. */
export function storable(text: string): string {
  const noNul = text.includes('\u0000') ? text.split('\u0000').join('\uFFFD') : text;
  return isWellFormed(noNul) ? noNul : toWellFormed(noNul);
}

export class Out {
  readonly blocks: PortableTextBlock[] = [];
  readonly refs: number[] = [];
  private readonly reports = new Map<string, ConvertReport>();
  private n = 0;
  private para: { block: PtTextBlock; links: Map<LinkMark, string> } | null = null;

  key(): string {
    return `k${(this.n++).toString(36)}`;
  }

  report(kind: string, reason: string): void {
    const r = this.reports.get(kind);
    if (r) r.count++;
    else this.reports.set(kind, { kind, reason, count: 1 });
  }

  unconverted(): ConvertReport[] {
    return [...this.reports.values()];
  }

  /** Adds inline text to the open paragraph (opening one shaped as `shape` when none is open). */
  text(text: string, marks: readonly Mark[], shape: ParaShape): void {
    if (text === '') return;
    if (!this.para) {
      if (text.trim() === '') return; // whitespace alone does not start a paragraph
      const block: PtTextBlock = { _type: 'block', _key: '', style: shape.style, markDefs: [], children: [] };
      if (shape.listItem) {
        block.listItem = shape.listItem;
        block.level = shape.level ?? 1;
      }
      this.para = { block, links: new Map() };
    }
    const { block, links } = this.para;
    const names: string[] = [];
    for (const m of marks) {
      if (typeof m === 'string') {
        if (!names.includes(m)) names.push(m);
        continue;
      }
      let k = links.get(m);
      if (!k) {
        k = this.key();
        links.set(m, k);
        block.markDefs.push({ _type: 'link', _key: k, href: m.href } satisfies PtLinkDef);
      }
      names.push(k);
    }
    const last = block.children[block.children.length - 1];
    if (last && sameMarks(last.marks, names)) {
      last.text += text;
      return;
    }
    block.children.push({ _type: 'span', _key: '', text, marks: names } satisfies PtSpan);
  }

  /** The last character of the open paragraph ('' when none is open): enough to collapse spaces. */
  lastChar(): string {
    const kids = this.para?.block.children;
    const last = kids?.[kids.length - 1]?.text;
    return last ? last[last.length - 1] : '';
  }

  /** Closes the open paragraph: trims it, drops it when empty, otherwise appends it. */
  flush(): PtTextBlock | null {
    const p = this.para;
    if (!p) return null;
    this.para = null;
    const children = p.block.children;
    trimEdges(children);
    const kept = children.filter((c) => c.text !== '');
    // Only spaces (no-break spaces included, as in WordPress's `<p>&nbsp;</p>` spacers): nothing to keep.
    if (kept.every((c) => c.text.trim() === '')) return null;
    const used = new Set(kept.flatMap((c) => c.marks));
    p.block.markDefs = p.block.markDefs.filter((d) => used.has(d._key));
    p.block.children = kept;
    p.block._key = this.key();
    for (const c of kept) {
      c._key = this.key();
      c.text = storable(c.text);
    }
    this.blocks.push(p.block);
    return p.block;
  }

  /** Appends a block object (closing the open paragraph first so order is kept). */
  object(type: string, fields: Record<string, unknown>): PtObject {
    this.flush();
    const obj: PtObject = { _type: type, _key: this.key(), ...fields };
    this.blocks.push(obj);
    return obj;
  }
}

function sameMarks(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((m, i) => m === b[i]);
}

const isSpace = (c: string) => c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f';

/** Leading whitespace of the first spans and trailing whitespace of the last ones (no regex: linear). */
function trimEdges(children: PtSpan[]): void {
  for (const c of children) {
    let i = 0;
    while (i < c.text.length && isSpace(c.text[i])) i++;
    c.text = c.text.slice(i);
    if (c.text !== '') break;
  }
  for (let j = children.length - 1; j >= 0; j--) {
    const c = children[j];
    let e = c.text.length;
    while (e > 0 && isSpace(c.text[e - 1])) e--;
    c.text = c.text.slice(0, e);
    if (c.text !== '') break;
  }
}
