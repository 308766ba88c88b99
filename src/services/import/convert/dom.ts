/** Small read helpers over the htmlparser2 DOM (domhandler nodes). */
import type { ChildNode, Element } from 'domhandler';

export const isElement = (n: ChildNode): n is Element => n.type === 'tag' || n.type === 'script' || n.type === 'style';

export function attr(el: Element, name: string): string | undefined {
  const v = el.attribs[name];
  return v === undefined ? undefined : v.trim();
}

export function classes(el: Element): string[] {
  const c = el.attribs.class;
  return c ? c.split(/\s+/).filter(Boolean) : [];
}

export const hasClass = (el: Element, name: string) => classes(el).includes(name);

/** All text under `nodes`, in document order; iterative so depth cannot overflow the stack. */
export function textOf(nodes: readonly ChildNode[]): string {
  let out = '';
  const stack: ChildNode[] = [...nodes].reverse();
  while (stack.length) {
    const n = stack.pop() as ChildNode;
    if (n.type === 'text') out += n.data;
    else if (n.type === 'cdata' || isElement(n)) {
      const kids = (n as Element).children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
  }
  return out;
}

/** Whitespace runs as one space, trimmed: how a browser shows short text such as a caption. */
export function squash(text: string): string {
  return text.replace(/[ \t\n\r\f]+/g, ' ').trim();
}

/** Descendant elements matching `test`, document order, iterative. */
export function findAll(root: readonly ChildNode[], test: (el: Element) => boolean, skip?: (el: Element) => boolean) {
  const found: Element[] = [];
  const stack: ChildNode[] = [...root].reverse();
  while (stack.length) {
    const n = stack.pop() as ChildNode;
    if (!isElement(n)) continue;
    if (test(n)) found.push(n);
    if (skip?.(n)) continue;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return found;
}

/** The original markup of a run of sibling nodes (parsed with start and end indices). */
export function rawOf(source: string, first: ChildNode, last: ChildNode): string {
  const s = first.startIndex;
  const e = last.endIndex;
  if (s == null || e == null) return textOf([first]);
  return source.slice(s, e + 1);
}
