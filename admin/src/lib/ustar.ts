/**
 * A reader of POSIX ustar archives that never holds the archive in memory:
 * it reads one 512-byte header at a time with `blob.slice()` and reports where
 * each entry's bytes are, so a caller can hand `blob.slice(start, end)` to an
 * upload and the browser streams it from disk.
 *
 * Why not a tar library: the well-kept ones (tar-stream, modern-tar) parse a
 * byte stream, so every byte of the archive — gigabytes of media — would pass
 * through the page just to find the next header, and they hand out entry
 * bodies as streams, not as offsets into the file that could become Blob
 * slices. Reading headers at known offsets needs none of that.
 *
 * Format (POSIX.1-1988 ustar, what site exports write): the archive is a run
 * of 512-byte blocks. Each entry is one header block followed by its bytes,
 * padded with zeros to a whole block. The archive ends with two blocks of
 * zeros (some writers stop after one, or leave the end off, at end of file).
 *
 * Header fields used here (offset, length), all text NUL- or space-padded:
 *   name     (0, 100)    the path, or its last part when `prefix` is set
 *   size     (124, 12)   octal digits; GNU tar writes base-256 (high bit set) above 8 GiB
 *   chksum   (148, 8)    octal sum of the header's bytes, this field counted as spaces
 *   typeflag (156, 1)    '0' or NUL: a regular file; '5' a directory; 'x', 'g' pax, 'L', 'K' GNU long names
 *   magic    (257, 6)    "ustar\0" (POSIX) or "ustar " (GNU, whose header has no prefix field)
 *   prefix   (345, 155)  POSIX: the path's leading part; the full path is prefix + "/" + name
 *
 * Pax extended headers and GNU long names carry a path longer than these
 * fields in an entry of their own. Exports never write them (every package
 * path fits), so they are refused with a message rather than half-supported.
 */

export const BLOCK = 512;

export interface TarEntry {
  /** The full path (prefix + "/" + name when the header has a prefix). */
  name: string;
  /** Bytes of the entry's content. */
  size: number;
  /** Where its content starts in the archive; it ends at `start + size`. */
  start: number;
  /** Where its header block starts. */
  headerAt: number;
}

/** The file is not an archive this reader accepts; the message says why, for a person. */
export class TarFormatError extends Error {
  override name = 'TarFormatError';
}

const NOT_TAR = 'This file is not a tar archive. Choose the .tar file a site export downloads.';

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** A NUL-terminated text field. */
function text(block: Uint8Array, at: number, length: number): string {
  const field = block.subarray(at, at + length);
  const end = field.indexOf(0);
  return utf8.decode(end === -1 ? field : field.subarray(0, end));
}

/** An octal number field (digits, then NUL or spaces), or base-256 when its first byte has the high bit set. */
function number(block: Uint8Array, at: number, length: number, field: string, headerAt: number): number {
  const bytes = block.subarray(at, at + length);
  if (bytes[0] & 0x80) {
    // GNU base-256: the remaining bits, big-endian. Negative values (0xff first) make no sense for sizes.
    if (bytes[0] === 0xff) throw new TarFormatError(`The ${field} of the entry at byte ${headerAt} is negative.`);
    let value = bytes[0] & 0x7f;
    for (let i = 1; i < bytes.length; i++) value = value * 256 + bytes[i];
    if (!Number.isSafeInteger(value))
      throw new TarFormatError(`The ${field} of the entry at byte ${headerAt} is too large.`);
    return value;
  }
  const digits = text(block, at, length).trim();
  if (!/^[0-7]*$/.test(digits)) {
    throw new TarFormatError(`The ${field} field of the entry at byte ${headerAt} is not an octal number.`);
  }
  return digits === '' ? 0 : Number.parseInt(digits, 8);
}

const isZero = (block: Uint8Array) => block.every((b) => b === 0);

/** The header's checksum: every byte summed, the checksum field itself counted as eight spaces. */
function checksumOf(block: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i];
  return sum;
}

async function readBlock(blob: Blob, at: number): Promise<Uint8Array> {
  return new Uint8Array(await blob.slice(at, at + BLOCK).arrayBuffer());
}

/** What a typeflag means, for the entries this reader refuses. */
function refusal(flag: string, name: string): string | null {
  switch (flag) {
    case '0':
    case '\0':
    case '5':
      return null;
    case 'x':
    case 'g':
      return `The archive has a pax extended header (before “${name}”). Site packages never have one: use the archive as the export downloaded it, not one packed again by another tool.`;
    case 'L':
    case 'K':
      return `The archive has a GNU long name entry (before “${name}”). Site packages never have one: use the archive as the export downloaded it, not one packed again by another tool.`;
    case '1':
    case '2':
      return `“${name}” in the archive is a link, not a file.`;
    default:
      return `“${name}” in the archive is not a regular file (type “${flag}”).`;
  }
}

/**
 * The regular files of a ustar archive, in archive order (directories are
 * skipped). Reads only header blocks; throws TarFormatError for anything that
 * is not a well-formed ustar archive (a checksum that does not add up, a
 * header past the end, an entry cut short, pax or GNU extensions).
 */
export async function* tarEntries(blob: Blob): AsyncGenerator<TarEntry> {
  if (blob.size < BLOCK) throw new TarFormatError(NOT_TAR);
  let at = 0;
  while (at + BLOCK <= blob.size) {
    const block = await readBlock(blob, at);
    // End of archive: a zero block (the second one, if there, is not needed).
    if (isZero(block)) return;
    const magic = text(block, 257, 6);
    if (magic !== 'ustar' && magic !== 'ustar ') {
      throw new TarFormatError(at === 0 ? NOT_TAR : `The archive is damaged: there is no tar header at byte ${at}.`);
    }
    const declared = number(block, 148, 8, 'checksum', at);
    if (declared !== checksumOf(block)) {
      throw new TarFormatError(`The archive is damaged: the header at byte ${at} does not match its checksum.`);
    }
    const posix = block[262] === 0; // "ustar\0": the POSIX header, which has the prefix field
    const prefix = posix ? text(block, 345, 155) : '';
    const last = text(block, 0, 100);
    const name = prefix ? `${prefix}/${last}` : last;
    const flag = String.fromCharCode(block[156]);
    const refused = refusal(flag, name);
    if (refused) throw new TarFormatError(refused);
    const size = number(block, 124, 12, 'size', at);
    const start = at + BLOCK;
    if (start + size > blob.size) {
      throw new TarFormatError(
        `The archive is cut short: “${name}” needs ${size} bytes, the file ends before them. Download the archive again.`,
      );
    }
    if (flag !== '5') yield { name, size, start, headerAt: at };
    at = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  // Some writers leave out the end blocks; a partial block, though, is a file cut short.
  if (at < blob.size)
    throw new TarFormatError('The archive is cut short in the middle of a header. Download it again.');
}

/** The content of an entry as a Blob slice (nothing is read until it is used). */
export const entryBlob = (blob: Blob, entry: TarEntry): Blob => blob.slice(entry.start, entry.start + entry.size);
