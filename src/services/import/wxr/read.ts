import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { invalidExport } from '../errors.js';
import type { WxrAuthor, WxrComment, WxrItem, WxrRecord, WxrSite, WxrTerm } from './model.js';

/**
 * Streaming reader of WordPress export files. The file is parsed as it
 * arrives (htmlparser2 in XML mode) and handed out one record at a time, so
 * memory stays flat however large the export is. Gzip-compressed exports are
 * read too. A file that is not well formed (a tag closed out of order, an
 * element left open at the end, no `<rss><channel>`) fails with
 * VALIDATION_ERROR / `invalid_export` before the caller sees the end.
 */
export async function* readWxr(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<WxrRecord> {
  const builder = new WxrBuilder();
  const parser = new Parser(builder.handlers(), { xmlMode: true, decodeEntities: true });
  const decoder = new TextDecoder('utf-8');
  try {
    for await (const chunk of ungzip(source)) {
      parser.write(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
      builder.check();
      yield* builder.drain();
    }
  } catch (err) {
    if (isZlibError(err)) throw invalidExport('The compressed export is damaged or truncated');
    throw err;
  }
  parser.write(decoder.decode());
  parser.end();
  builder.check();
  yield* builder.drain();
  builder.finish();
}

function isZlibError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}

/** Pass bytes through, gunzipping them when the stream starts with the gzip magic number. */
async function* ungzip(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array | string> {
  const it = source[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return;
  const head = first.value;
  const rest = async function* () {
    yield head;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  };
  if (typeof head === 'string' || head.length < 2 || head[0] !== 0x1f || head[1] !== 0x8b) {
    yield* rest();
    return;
  }
  const gunzip = createGunzip();
  pipeline(Readable.from(rest()), gunzip, () => {});
  yield* gunzip as AsyncIterable<Buffer>;
}

const ITEM_FIELDS: Record<string, keyof WxrItem> = {
  title: 'title',
  link: 'link',
  pubdate: 'pubDate',
  'dc:creator': 'creator',
  guid: 'guid',
  'content:encoded': 'content',
  'excerpt:encoded': 'excerpt',
  'wp:post_id': 'postId',
  'wp:post_date': 'postDate',
  'wp:post_date_gmt': 'postDateGmt',
  'wp:comment_status': 'commentStatus',
  'wp:post_name': 'postName',
  'wp:status': 'status',
  'wp:post_parent': 'postParent',
  'wp:menu_order': 'menuOrder',
  'wp:post_type': 'postType',
  'wp:post_password': 'postPassword',
  'wp:is_sticky': 'isSticky',
  'wp:attachment_url': 'attachmentUrl',
};

const COMMENT_FIELDS: Record<string, keyof WxrComment> = {
  'wp:comment_id': 'id',
  'wp:comment_author': 'author',
  'wp:comment_author_email': 'authorEmail',
  'wp:comment_author_url': 'authorUrl',
  'wp:comment_date': 'date',
  'wp:comment_date_gmt': 'dateGmt',
  'wp:comment_content': 'content',
  'wp:comment_approved': 'approved',
  'wp:comment_type': 'type',
  'wp:comment_parent': 'parent',
  'wp:comment_user_id': 'userId',
};

const AUTHOR_FIELDS: Record<string, keyof WxrAuthor> = {
  'wp:author_id': 'id',
  'wp:author_login': 'login',
  'wp:author_email': 'email',
  'wp:author_display_name': 'displayName',
  'wp:author_first_name': 'firstName',
  'wp:author_last_name': 'lastName',
};

/** Channel term elements: their WordPress taxonomy and their child elements. */
const TERM_KINDS: Record<string, { taxonomy: string | null; fields: Record<string, keyof WxrTerm> }> = {
  'wp:category': {
    taxonomy: 'category',
    fields: {
      'wp:term_id': 'id',
      'wp:category_nicename': 'slug',
      'wp:cat_name': 'name',
      'wp:category_parent': 'parent',
      'wp:category_description': 'description',
    },
  },
  'wp:tag': {
    taxonomy: 'post_tag',
    fields: { 'wp:term_id': 'id', 'wp:tag_slug': 'slug', 'wp:tag_name': 'name', 'wp:tag_description': 'description' },
  },
  'wp:term': {
    taxonomy: null,
    fields: {
      'wp:term_id': 'id',
      'wp:term_taxonomy': 'taxonomy',
      'wp:term_slug': 'slug',
      'wp:term_name': 'name',
      'wp:term_parent': 'parent',
      'wp:term_description': 'description',
    },
  },
};

const SITE_FIELDS: Record<string, keyof WxrSite> = {
  title: 'title',
  link: 'url',
  description: 'description',
  language: 'language',
  'wp:base_site_url': 'baseSiteUrl',
  'wp:wxr_version': 'wxrVersion',
};

const emptyItem = (): WxrItem => ({
  title: '',
  link: '',
  pubDate: '',
  creator: '',
  guid: '',
  content: '',
  excerpt: '',
  postId: '',
  postDate: '',
  postDateGmt: '',
  commentStatus: '',
  postName: '',
  status: '',
  postParent: '',
  menuOrder: '',
  postType: '',
  postPassword: '',
  isSticky: '',
  attachmentUrl: '',
  terms: [],
  meta: [],
  comments: [],
});

/** Builds records from parser events; `stack` holds the open element names (lower case). */
class WxrBuilder {
  private readonly out: WxrRecord[] = [];
  private readonly stack: string[] = [];
  private text = '';
  /** The element opened by the last event: an implied close of it is a self-closing tag (`<x/>`). */
  private justOpened: string | null = null;
  private error: Error | null = null;
  private sawRss = false;
  private sawChannel = false;
  private closedRss = false;
  private site: WxrSite | null = null;
  private siteSent = false;
  private item: WxrItem | null = null;
  private comment: WxrComment | null = null;
  private meta: { key: string; value: string } | null = null;
  private term: { kind: string; value: WxrTerm } | null = null;
  private author: WxrAuthor | null = null;
  private itemTerm: { domain: string; slug: string } | null = null;

  handlers() {
    return {
      onopentag: (name: string, attribs: Record<string, string>) => this.open(name.toLowerCase(), attribs),
      onclosetag: (name: string, isImplied: boolean) => this.close(name.toLowerCase(), isImplied),
      ontext: (data: string) => {
        this.justOpened = null;
        this.text += data;
      },
      onerror: (err: Error) => {
        this.error ??= invalidExport(`The export could not be read: ${err.message}`);
      },
    };
  }

  check(): void {
    if (this.error) throw this.error;
  }

  *drain(): Generator<WxrRecord> {
    for (let i = 0; i < this.out.length; i++) yield this.out[i];
    this.out.length = 0;
  }

  finish(): void {
    if (!this.sawRss || !this.sawChannel) {
      throw invalidExport('This is not a WordPress export file (no <rss><channel> found)');
    }
    if (!this.closedRss) throw invalidExport('The export file is truncated (it ends before </rss>)');
  }

  private fail(message: string): void {
    this.error ??= invalidExport(message);
  }

  private sendSite(): void {
    if (this.siteSent) return;
    this.siteSent = true;
    this.out.push({
      kind: 'site',
      site: this.site ?? { title: '', url: '', description: '', language: '', baseSiteUrl: '', wxrVersion: '' },
    });
  }

  private open(name: string, attribs: Record<string, string>): void {
    const parent = this.stack[this.stack.length - 1];
    this.stack.push(name);
    this.text = '';
    this.justOpened = name;
    if (this.stack.length === 1) {
      if (name !== 'rss') this.fail(`This is not a WordPress export file (root element <${name}>)`);
      this.sawRss = true;
      return;
    }
    if (parent === 'rss' && name === 'channel') {
      this.sawChannel = true;
      this.site = { title: '', url: '', description: '', language: '', baseSiteUrl: '', wxrVersion: '' };
      return;
    }
    if (parent === 'channel') {
      if (name === 'item') {
        this.sendSite();
        this.item = emptyItem();
      } else if (name === 'wp:author') {
        this.sendSite();
        this.author = { id: '', login: '', email: '', displayName: '', firstName: '', lastName: '' };
      } else if (TERM_KINDS[name]) {
        this.sendSite();
        const taxonomy = TERM_KINDS[name].taxonomy ?? '';
        this.term = { kind: name, value: { id: '', taxonomy, slug: '', name: '', parent: '', description: '' } };
      }
      return;
    }
    if (parent === 'item' && this.item) {
      if (name === 'category') this.itemTerm = { domain: attribs.domain ?? 'category', slug: attribs.nicename ?? '' };
      else if (name === 'wp:postmeta') this.meta = { key: '', value: '' };
      else if (name === 'wp:comment') {
        this.comment = {
          id: '',
          author: '',
          authorEmail: '',
          authorUrl: '',
          date: '',
          dateGmt: '',
          content: '',
          approved: '',
          type: '',
          parent: '',
          userId: '',
        };
      }
    }
  }

  private close(name: string, isImplied: boolean): void {
    const top = this.stack.pop();
    const selfClosed = isImplied && this.justOpened === name;
    this.justOpened = null;
    if ((isImplied && !selfClosed) || top !== name) {
      this.fail(
        this.closedRss || top === undefined
          ? `The export is malformed: unexpected </${name}>`
          : `The export is malformed or truncated: <${top}> is not closed`,
      );
      return;
    }
    const parent = this.stack[this.stack.length - 1];
    const text = this.text;
    this.text = '';
    if (this.stack.length === 0) {
      this.closedRss = true;
      return;
    }
    if (parent === 'channel' && this.site && SITE_FIELDS[name]) {
      this.site[SITE_FIELDS[name]] = text.trim();
      return;
    }
    if (parent === 'rss' && name === 'channel') {
      this.sendSite();
      return;
    }
    if (parent === 'channel') {
      this.closeChannelChild(name);
      return;
    }
    if (parent === 'item' && this.item) {
      this.closeItemChild(name, text);
      return;
    }
    if (parent === 'wp:postmeta' && this.meta) {
      if (name === 'wp:meta_key') this.meta.key = text.trim();
      else if (name === 'wp:meta_value') this.meta.value = text;
      return;
    }
    if (parent === 'wp:comment' && this.comment && COMMENT_FIELDS[name]) {
      this.comment[COMMENT_FIELDS[name]] = name === 'wp:comment_content' ? text : text.trim();
      return;
    }
    if (parent === 'wp:author' && this.author && AUTHOR_FIELDS[name]) {
      this.author[AUTHOR_FIELDS[name]] = text.trim();
      return;
    }
    if (this.term && parent === this.term.kind) {
      const field = TERM_KINDS[this.term.kind].fields[name];
      if (field) this.term.value[field] = text.trim();
    }
  }

  private closeChannelChild(name: string): void {
    if (name === 'item' && this.item) {
      this.out.push({ kind: 'item', item: this.item });
      this.item = null;
    } else if (name === 'wp:author' && this.author) {
      this.out.push({ kind: 'author', author: this.author });
      this.author = null;
    } else if (this.term && name === this.term.kind) {
      this.out.push({ kind: 'term', term: this.term.value });
      this.term = null;
    }
  }

  private closeItemChild(name: string, text: string): void {
    const item = this.item as WxrItem;
    const field = ITEM_FIELDS[name];
    if (field) {
      (item as unknown as Record<string, string>)[field] =
        field === 'content' || field === 'excerpt' || field === 'title' ? text : text.trim();
    } else if (name === 'category' && this.itemTerm) {
      item.terms.push({ ...this.itemTerm, name: text.trim() });
      this.itemTerm = null;
    } else if (name === 'wp:postmeta' && this.meta) {
      item.meta.push(this.meta);
      this.meta = null;
    } else if (name === 'wp:comment' && this.comment) {
      item.comments.push(this.comment);
      this.comment = null;
    }
  }
}
