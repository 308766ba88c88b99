/** Row types of the media tables (migration 007). */
export interface MediaFoldersTable {
  id: string;
  name: string;
  /** NFKC-normalised, lowercased name: two folders may not share it. */
  name_key: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export type MediaStatus = 'pending' | 'ready';

export interface MediaTable {
  id: string;
  status: MediaStatus;
  filename: string;
  /** NFKC-normalised, lowercased filename for the filename filter. */
  name_key: string;
  mime_type: string;
  size: number;
  width: number | null;
  height: number | null;
  alt: string | null;
  caption: string | null;
  /** ThumbHash (base64) of the image or of the uploaded thumbnail. */
  placeholder: string | null;
  folder_id: string | null;
  storage_key: string;
  /** `sha256:<hex>` of the stored bytes; null while a pending upload has not been verified. */
  content_hash: string | null;
  /** content_hash of the one ready item that answers for these bytes (unique); null otherwise. */
  dedupe_key: string | null;
  /**
   * `sha1:<hex>` of the bytes an import copied (a lookup key only, unique);
   * null for uploads and after the file is replaced.
   */
  import_key: string | null;
  /** Hash the client announced for a pending upload, checked at confirmation. */
  declared_hash: string | null;
  uploaded_by: string | null;
  created_at: string;
  updated_at: string;
  /** Pending uploads only: after this instant the sweeper removes the item and its bytes. */
  expires_at: string | null;
  version: number;
  /** Focal point as fractions of the displayed width and height (migration 020); both null: the centre. */
  focal_x: number | null;
  focal_y: number | null;
}

export interface MediaTables {
  _cms_media_folders: MediaFoldersTable;
  _cms_media: MediaTable;
}
