import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Parser } from 'htmlparser2';
import { toStorableText } from '../../../core/text.js';
import { invalidExport } from '../errors.js';
import { exportTooLarge, recordTooLarge, type WxrLimits } from './limits.js';
import type { WxrAuthor, WxrComment, WxrItem, WxrPlace, WxrRecord, WxrSite, WxrTerm } from './model.js';

/**
 * Streaming reader of WordPress export files. The file is parsed as it
 * arrives (htmlparser2 in XML mode) and handed out one record at a time, so
 * memory stays flat however large the export is. Gzip-compressed exports are
 * read too. A file that is not well formed (a tag closed out of order, an
 * element left open at the end, no `<rss><channel>`) fails with
 * VALIDATION_ERROR / `invalid_export` before the caller sees the end.
 *
 * Bounded by `limits`: more XML than `maxExportBytes` (counted after gunzip),
 * or a record, element or token longer than `maxElementBytes`, fails with
 * PAYLOAD_TOO_LARGE at once, and the source (and the gunzip) are destroyed:
 * nothing more is read or decompressed.
 *
 * Every text leaves the reader storable (src/core/text.ts, toStorableText):
 * U+0000 and unpaired surrogates become U+FFFD, counted, and reported in a
 * last `repairs` record with the first place.
 */
export async function* readWxr(
  source: AsyncIterable<Uint8Array | string>,
  limits: WxrLimits,
): AsyncGenerator<WxrRecord> {
  const format = { compressed: false };
  let parser: Parser | null = null;
  let bytesRead = 0;
  const builder = new WxrBuilder(
    limits.maxElementBytes,
    () => parser?.endIndex ?? 0,
    () => parser?.startIndex ?? 0,
    () => bytesRead,
  );
  parser = new Parser(builder.handlers(), { xmlMode: true, decodeEntities: true });
  const decoder = new TextDecoder('utf-8');
  let written = 0;
  const write = (text: string) => {
    (parser as Parser).write(text);
    written += text.length;
    builder.check();
    builder.checkSize(written);
  };
  try {
    for await (const chunk of ungzip(source, format)) {
      bytesRead += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      if (bytesRead > limits.maxExportBytes) {
        throw exportTooLarge(limits.maxExportBytes, { bytesRead, compressed: format.compressed });
      }
      write(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
      yield* builder.drain();
    }
  } catch (err) {
    if (isZlibError(err)) throw invalidExport('The compressed export is damaged or truncated');
    throw err;
  }
  write(decoder.decode());
  parser.end();
  builder.check();
  yield* builder.drain();
  builder.finish();
  const repairs = builder.repairs();
  if (repairs) yield { kind: 'repairs', repairs };
}

function isZlibError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}

/**
 * Pass bytes through, gunzipping them when the stream starts with the gzip
 * magic number. When the consumer stops early (a limit, a malformed file),
 * the gunzip and the source are destroyed: the rest is neither read nor
 * decompressed.
 */
async function* ungzip(
  source: AsyncIterable<Uint8Array | string>,
  format: { compressed: boolean },
): AsyncGenerator<Uint8Array | string> {
  const it = source[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) return;
  const head = first.value;
  // `yield*` hands a return() on to the source's iterator, which ends the stream behind it.
  const all = (async function* () {
    yield head;
    yield* { [Symbol.asyncIterator]: () => it };
  })();
  if (typeof head === 'string' || head.length < 2 || head[0] !== 0x1f || head[1] !== 0x8b) {
    yield* all;
    return;
  }
  format.compressed = true;
  const input = Readable.from(all, { objectMode: false });
  const gunzip = createGunzip();
  const piped = pipeline(input, gunzip).catch(() => {});
  try {
    yield* gunzip as AsyncIterable<Buffer>;
  } finally {
    // Not awaited: the source may wait on a client that stopped sending; destroying it is enough.
    gunzip.destroy();
    input.destroy();
    void piped;
  }
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

/** Deeper than any WordPress export nests (rss › channel › item › wp:comment › wp:commentmeta › wp:meta_key). */
const MAX_DEPTH = 64;

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
  /** Parser position of the last event, and where the open record (channel child) started. */
  private lastEvent = 0;
  private recordStart = -1;
  /** Records opened so far, by element name (for "item number 3"). */
  private readonly recordCounts = new Map<string, number>();
  private replaced = 0;
  private firstReplaced: WxrPlace | null = null;

  constructor(
    private readonly maxElement: number,
    private readonly endIndex: () => number,
    private readonly startIndex: () => number,
    private readonly bytesRead: () => number,
  ) {}

  handlers() {
    const seen = () => {
      this.lastEvent = this.endIndex();
    };
    return {
      onopentag: (name: string, attribs: Record<string, string>) => {
        seen();
        this.open(name.toLowerCase(), attribs);
      },
      onclosetag: (name: string, isImplied: boolean) => {
        seen();
        this.close(name.toLowerCase(), isImplied);
      },
      ontext: (data: string) => {
        seen();
        this.justOpened = null;
        this.text += data;
      },
      oncomment: seen,
      onprocessinginstruction: seen,
      onerror: (err: Error) => {
        this.error ??= invalidExport(`The export could not be read: ${err.message}`);
      },
    };
  }

  check(): void {
    if (this.error) throw this.error;
  }

  /**
   * After each write (`written` characters so far): a record, the text of an
   * element, or a token the parser still holds (a CDATA section, a comment, a
   * tag) longer than the element limit stops the reading.
   */
  checkSize(written: number): void {
    const max = this.maxElement;
    const record = this.recordStart >= 0 ? written - this.recordStart : 0;
    if (this.text.length > max || written - this.lastEvent > max || record > max) {
      throw this.tooLarge(this.stack[this.stack.length - 1]);
    }
  }

  /** The element limit's error for `element` (a chunk may hold a whole element: closes are checked too). */
  private tooLarge(element: string | undefined, record = this.stack[2]) {
    const title = this.item?.title.trim().slice(0, 100);
    return recordTooLarge(this.maxElement, {
      element: element ?? '(document)',
      record: record ?? 'channel',
      recordNumber: record ? (this.recordCounts.get(record) ?? 1) : 1,
      ...(record === 'item' && title ? { title } : {}),
      bytesRead: this.bytesRead(),
    });
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

  repairs() {
    return this.firstReplaced ? { replaced: this.replaced, first: this.firstReplaced } : null;
  }

  /** Text as it leaves the reader: storable on every engine, each replacement counted (the first with its place). */
  private clean(raw: string, element: string): string {
    const { text, replaced } = toStorableText(raw);
    if (replaced) {
      this.replaced += replaced;
      const record = this.stack[2] ?? 'channel';
      this.firstReplaced ??= { record, recordNumber: this.recordCounts.get(record) ?? 1, element };
    }
    return text;
  }

  /** The first replacement's record now has a source ID: name it. */
  private named(record: string, sourceId: string): void {
    const f = this.firstReplaced;
    if (f && !f.sourceId && f.record === record && f.recordNumber === this.recordCounts.get(record)) {
      f.sourceId = sourceId;
    }
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
    if (this.stack.length > MAX_DEPTH) {
      this.fail(`The export nests elements deeper than ${MAX_DEPTH} levels`);
      return;
    }
    if (this.stack.length === 3) {
      this.recordStart = this.startIndex();
      this.recordCounts.set(name, (this.recordCounts.get(name) ?? 0) + 1);
    }
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
      if (name === 'category') {
        this.itemTerm = {
          domain: this.clean(attribs.domain ?? 'category', 'category@domain'),
          slug: this.clean(attribs.nicename ?? '', 'category@nicename'),
        };
      } else if (name === 'wp:postmeta') this.meta = { key: '', value: '' };
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
    const raw = this.text;
    this.text = '';
    if (raw.length > this.maxElement) {
      this.error ??= this.tooLarge(name);
      return;
    }
    if (this.stack.length === 2) {
      if (this.endIndex() - this.recordStart > this.maxElement) {
        this.error ??= this.tooLarge(name, name);
        return;
      }
      this.recordStart = -1;
    }
    const parent = this.stack[this.stack.length - 1];
    /** The element's text, storable; `trim` for every field but bodies and titles. */
    const text = (trim = true) => {
      const t = this.clean(raw, name);
      return trim ? t.trim() : t;
    };
    if (this.stack.length === 0) {
      this.closedRss = true;
      return;
    }
    if (parent === 'channel' && this.site && SITE_FIELDS[name]) {
      this.site[SITE_FIELDS[name]] = text();
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
      if (name === 'wp:meta_key') this.meta.key = text();
      else if (name === 'wp:meta_value') this.meta.value = text(false);
      return;
    }
    if (parent === 'wp:comment' && this.comment && COMMENT_FIELDS[name]) {
      this.comment[COMMENT_FIELDS[name]] = text(name !== 'wp:comment_content');
      return;
    }
    if (parent === 'wp:author' && this.author && AUTHOR_FIELDS[name]) {
      this.author[AUTHOR_FIELDS[name]] = text();
      return;
    }
    if (this.term && parent === this.term.kind) {
      const field = TERM_KINDS[this.term.kind].fields[name];
      if (field) this.term.value[field] = text();
    }
  }

  private closeChannelChild(name: string): void {
    if (name === 'item' && this.item) {
      this.named('item', this.item.postId);
      this.out.push({ kind: 'item', item: this.item });
      this.item = null;
    } else if (name === 'wp:author' && this.author) {
      this.named(name, this.author.login);
      this.out.push({ kind: 'author', author: this.author });
      this.author = null;
    } else if (this.term && name === this.term.kind) {
      this.named(name, this.term.value.slug);
      this.out.push({ kind: 'term', term: this.term.value });
      this.term = null;
    }
  }

  private closeItemChild(name: string, text: (trim?: boolean) => string): void {
    const item = this.item as WxrItem;
    const field = ITEM_FIELDS[name];
    if (field) {
      (item as unknown as Record<string, string>)[field] = text(
        !(field === 'content' || field === 'excerpt' || field === 'title'),
      );
    } else if (name === 'category' && this.itemTerm) {
      item.terms.push({ ...this.itemTerm, name: text() });
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
