/**
 * What a WordPress export (WXR) holds, as the streaming reader hands it out:
 * the site header, authors and terms declared in the channel, then one item
 * (post, page, attachment, menu item, reusable block …) at a time.
 */

export interface WxrSite {
  title: string;
  url: string;
  description: string;
  language: string;
  baseSiteUrl: string;
  wxrVersion: string;
}

export interface WxrAuthor {
  id: string;
  login: string;
  email: string;
  displayName: string;
  firstName: string;
  lastName: string;
}

/** A term declared in the channel: category, tag, or a custom taxonomy's term. */
export interface WxrTerm {
  id: string;
  /** WordPress taxonomy name (`category`, `post_tag`, `nav_menu`, …). */
  taxonomy: string;
  slug: string;
  name: string;
  /** Slug of the parent term (categories and hierarchical terms), or ''. */
  parent: string;
  description: string;
}

export interface WxrComment {
  id: string;
  author: string;
  authorEmail: string;
  authorUrl: string;
  date: string;
  dateGmt: string;
  content: string;
  /** `1`, `0`, `spam`, `trash`, … */
  approved: string;
  type: string;
  parent: string;
  userId: string;
}

/** A term an item is filed under (`<category domain nicename>`). */
export interface WxrItemTerm {
  domain: string;
  slug: string;
  name: string;
}

export interface WxrItem {
  title: string;
  link: string;
  pubDate: string;
  creator: string;
  guid: string;
  content: string;
  excerpt: string;
  postId: string;
  postDate: string;
  postDateGmt: string;
  commentStatus: string;
  postName: string;
  status: string;
  postParent: string;
  menuOrder: string;
  postType: string;
  postPassword: string;
  isSticky: string;
  attachmentUrl: string;
  terms: WxrItemTerm[];
  meta: Array<{ key: string; value: string }>;
  comments: WxrComment[];
}

/** Where in the export a text was read: the record (channel child) and the element. */
export interface WxrPlace {
  /** `item`, `wp:author`, `wp:category`, `wp:tag`, `wp:term`, or `channel` for the site's own elements. */
  record: string;
  /** 1 for the file's first record of that name. */
  recordNumber: number;
  /** The element whose text it was (`title`, `wp:meta_key`, `category@nicename` for an attribute …). */
  element: string;
  /** The record's source ID once read: the item's post ID, the author's login, the term's slug. */
  sourceId?: string;
}

/**
 * Characters no database stores (U+0000, unpaired surrogates) that the reader
 * replaced by U+FFFD: how many, and the first place. Sent once, after the last
 * record, when there were any.
 */
export interface WxrRepairs {
  replaced: number;
  first: WxrPlace;
}

export type WxrRecord =
  | { kind: 'site'; site: WxrSite }
  | { kind: 'author'; author: WxrAuthor }
  | { kind: 'term'; term: WxrTerm }
  | { kind: 'item'; item: WxrItem }
  | { kind: 'repairs'; repairs: WxrRepairs };

export function metaValue(item: WxrItem, key: string): string | undefined {
  return item.meta.find((m) => m.key === key)?.value;
}
