/**
 * The live preview's messages between the editor and the site in its frame
 * (docs/frontends.md#live-preview). The editor posts `refresh` after each
 * save with the front end's origin as the target (never `*`); a site that
 * handles it answers `ack` at once to the editor's origin and re-renders in
 * place. Without an answer within ACK_TIMEOUT_MS the editor reloads the frame.
 */
export const REFRESH = 'cms:preview:refresh';
export const ACK = 'cms:preview:ack';

/** How long the editor waits for a site's `ack` before reloading the frame instead. */
export const ACK_TIMEOUT_MS = 3000;

export interface RefreshMessage {
  type: typeof REFRESH;
  collection: string;
  id: string;
  locale: string;
  /** The entry's `_rev` after the save. */
  rev: string;
  /** A fresh preview token for this entry (the one in the frame's address may be older). */
  token: string;
  /** The entry's preview URL with that token. */
  url: string;
}

export function isAck(data: unknown): data is { type: typeof ACK; rev?: string } {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === ACK;
}

/** A preview URL without its token: two links to the same page compare equal. */
export function pageOf(url: string): string {
  const u = new URL(url);
  u.searchParams.delete('preview');
  return u.toString();
}
