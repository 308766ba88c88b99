/**
 * The value an image or file field stores for a media library item (spec 2,
 * "Field types": image, file). One builder for every writer: the admin's media
 * picker and Portable Text image blocks, and the WordPress import's featured
 * images. Plain data in, plain data out, so the admin bundle can import it.
 */

/** What the builder reads from a library item (the `MediaItem` every door shows). */
export interface LibraryItem {
  id: string;
  url: string;
  filename: string;
  mimeType: string;
  size: number;
  width: number | null;
  height: number | null;
  alt: string | null;
  storageKey?: string;
}

export type MediaValue = Record<string, unknown> & {
  id?: string;
  filename?: string;
  src?: string;
  url?: string;
  alt?: string;
};

export function mediaValue(type: 'image' | 'file', item: LibraryItem, previous: MediaValue | null): MediaValue {
  // The storage key lets a renderer build a transform or CDN address without asking the library.
  const meta = item.storageKey ? { meta: { storageKey: item.storageKey } } : {};
  if (type === 'file') {
    return {
      id: item.id,
      provider: 'local',
      filename: item.filename,
      mimeType: item.mimeType,
      url: item.url,
      size: item.size,
      ...meta,
    };
  }
  const value: MediaValue = { id: item.id, provider: 'local', src: item.url, mimeType: item.mimeType, ...meta };
  if (item.width !== null) value.width = item.width;
  if (item.height !== null) value.height = item.height;
  // Alt text written for this use wins over the library's default.
  const alt = previous?.alt || item.alt;
  if (alt) value.alt = alt;
  if (previous?.darkVariant) value.darkVariant = previous.darkVariant;
  return value;
}
