/** Reads the posts (title, id, content) out of a WordPress export file for converter tests. */
import { readFileSync } from 'node:fs';
import { DomUtils, parseDocument } from 'htmlparser2';

export interface WxrPost {
  id: number;
  title: string;
  type: string;
  content: string;
}

export const WXR_DIR = '/work/shared/testdata/wxr';

export function wxrPosts(file: string): WxrPost[] {
  const doc = parseDocument(readFileSync(`${WXR_DIR}/${file}`, 'utf8'), { xmlMode: true, recognizeCDATA: true });
  const text = (el: Parameters<typeof DomUtils.getElementsByTagName>[1], tag: string) => {
    const found = DomUtils.getElementsByTagName(tag, el, true, 1)[0];
    return found ? DomUtils.textContent(found) : '';
  };
  return DomUtils.getElementsByTagName('item', doc.children).map((item) => ({
    id: Number(text(item.children, 'wp:post_id')),
    title: text(item.children, 'title'),
    type: text(item.children, 'wp:post_type'),
    content: text(item.children, 'content:encoded'),
  }));
}
