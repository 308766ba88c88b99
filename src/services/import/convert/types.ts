/** The Portable Text shapes the WordPress converter writes, and its public options and result. */

export interface PtSpan {
  _type: 'span';
  _key: string;
  text: string;
  marks: string[];
}

export interface PtLinkDef {
  _type: 'link';
  _key: string;
  href: string;
}

export interface PtTextBlock {
  _type: 'block';
  _key: string;
  style: string;
  markDefs: PtLinkDef[];
  children: PtSpan[];
  listItem?: 'bullet' | 'number';
  level?: number;
}

/** Block objects: image, gallery, embed, video, audio, code, table, break, html, reusableBlock. */
export interface PtObject {
  _type: string;
  _key: string;
  [field: string]: unknown;
}

export type PortableTextBlock = PtTextBlock | PtObject;

export interface AttachmentInfo {
  url: string;
  alt?: string;
  caption?: string;
}

export interface ConvertContext {
  /** The address an image or media file should point at now (e.g. its copy in the media library). */
  mediaBySourceUrl?: (url: string) => string | undefined;
  /** Resolves `[gallery ids="…"]` attachment IDs to their files; without it the IDs are kept on the block. */
  attachmentById?: (id: number) => AttachmentInfo | undefined;
}

/** One kind of content that was kept as a marked block (or as literal text) instead of being converted. */
export interface ConvertReport {
  kind: string;
  reason: string;
  count: number;
}

export interface ConvertResult {
  blocks: PortableTextBlock[];
  unconverted: ConvertReport[];
  /** Source IDs of reusable blocks (`wp:block {"ref":N}`), each kept as a `reusableBlock` block in place. */
  reusableBlockRefs: number[];
}
