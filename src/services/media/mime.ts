/** file-type loads on the first upload, not at start-up. */
let fileTypeModule: Promise<typeof import('file-type')> | null = null;
const loadFileType = () => (fileTypeModule ??= import('file-type'));

/**
 * What a file is, decided from its bytes (never from the name or the type the
 * client claims), and the rules built on it: allowlists, mismatches, and which
 * types a browser may render inline from the site's origin.
 */

/** Claimed types that name the same thing as the sniffed one. */
const ALIASES: Record<string, string> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'image/svg': 'image/svg+xml',
  'audio/mp3': 'audio/mpeg',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/x-m4a': 'audio/mp4',
  'video/x-m4v': 'video/mp4',
  'application/x-zip-compressed': 'application/zip',
  'text/x-markdown': 'text/markdown',
  'application/x-pdf': 'application/pdf',
};

/** Containers whose precise type only the claimed type tells (a .docx is a zip to the sniffer). */
const CONTAINER_REFINEMENTS: Record<string, readonly string[]> = {
  'application/zip': [
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'application/vnd.oasis.opendocument.text',
    'application/vnd.oasis.opendocument.spreadsheet',
    'application/vnd.oasis.opendocument.presentation',
    'application/epub+zip',
  ],
  'application/x-cfb': ['application/msword', 'application/vnd.ms-excel', 'application/vnd.ms-powerpoint'],
};

/** Text formats a claimed type may name once the bytes are known to be plain UTF-8 text. */
const TEXT_TYPES = new Set([
  'text/plain',
  'text/csv',
  'text/markdown',
  'text/vtt',
  'text/calendar',
  'application/json',
  'application/ld+json',
  'application/geo+json',
]);

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/svg+xml': 'svg',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'text/markdown': 'md',
  'text/vtt': 'vtt',
  'text/calendar': 'ics',
  'text/html': 'html',
  'application/json': 'json',
  'application/ld+json': 'jsonld',
  'application/geo+json': 'geojson',
  'application/msword': 'doc',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.ms-powerpoint': 'ppt',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/epub+zip': 'epub',
  'application/octet-stream': 'bin',
};

/** Lowercase, without parameters, aliases resolved; '' when absent. */
export function normaliseMime(value: string | null | undefined): string {
  const bare = (value ?? '').split(';')[0].trim().toLowerCase();
  return ALIASES[bare] ?? bare;
}

function isUtf8Text(head: Buffer, complete: boolean): boolean {
  // A multi-byte sequence cut by the end of the sample is not a decoding error.
  let end = head.length;
  if (!complete) {
    let back = 0;
    while (back < 4 && end - back - 1 >= 0 && (head[end - back - 1] & 0xc0) === 0x80) back++;
    if (end - back - 1 >= 0 && head[end - back - 1] >= 0xc0) end = end - back - 1;
  }
  const sample = head.subarray(0, end);
  for (const byte of sample) {
    // NUL and C0 controls other than tab, LF, FF, CR (and ESC, used by some logs) mean binary.
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b) return false;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample);
    return true;
  } catch {
    return false;
  }
}

/** The root element of an XML document, skipping the declaration, comments, doctype and processing instructions. */
function xmlRoot(text: string): string | null {
  let rest = text.replace(/^\uFEFF/, '');
  for (;;) {
    rest = rest.trimStart();
    if (rest.startsWith('<?')) rest = rest.slice(rest.indexOf('?>') + 2 || rest.length);
    else if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->');
      if (end < 0) return null;
      rest = rest.slice(end + 3);
    } else if (/^<!doctype/i.test(rest)) {
      const end = rest.indexOf('>');
      if (end < 0) return null;
      rest = rest.slice(end + 1);
    } else break;
  }
  const m = /^<([A-Za-z_][\w.:-]*)/.exec(rest);
  return m ? m[1].toLowerCase() : null;
}

/** Tags that make a browser treat a document as HTML when they open it (WHATWG MIME sniffing). */
const HTML_ROOTS = new Set([
  'html',
  'head',
  'script',
  'iframe',
  'h1',
  'div',
  'font',
  'table',
  'a',
  'style',
  'title',
  'b',
  'body',
  'br',
  'p',
]);

/**
 * The MIME type of a file from its first bytes. `complete` is true when the
 * sample holds the whole file. Text formats the bytes cannot tell apart take
 * the claimed type when it is one of them.
 */
export async function sniffMime(head: Buffer, complete: boolean, claimed: string): Promise<string> {
  const { fileTypeFromBuffer } = await loadFileType();
  const found = await fileTypeFromBuffer(head);
  if (found) {
    const refinements = CONTAINER_REFINEMENTS[found.mime];
    if (refinements?.includes(claimed)) return claimed;
    // The sniffer reports XML documents as application/xml; SVG is told by its root below.
    if (found.mime !== 'application/xml' && found.mime !== 'text/xml') return found.mime;
  }
  if (head.length === 0) return TEXT_TYPES.has(claimed) ? claimed : 'application/octet-stream';
  if (!isUtf8Text(head, complete)) return 'application/octet-stream';
  const text = head.toString('utf8');
  const root = xmlRoot(text);
  if (root === 'svg' || root?.endsWith(':svg')) return 'image/svg+xml';
  if (/^\uFEFF?\s*<!doctype\s+html/i.test(text) || (root !== null && HTML_ROOTS.has(root))) return 'text/html';
  if (root !== null && claimed !== 'text/plain') return 'application/xml';
  return TEXT_TYPES.has(claimed) ? claimed : 'text/plain';
}

/**
 * A claimed type disagrees with the bytes when it names another kind of file.
 * No claim, `application/octet-stream` and text-family claims on text are not
 * disagreements; an image claim on HTML is.
 */
export function mimeMismatch(claimed: string, sniffed: string): boolean {
  if (!claimed || claimed === 'application/octet-stream' || claimed === sniffed) return false;
  if (TEXT_TYPES.has(claimed) && (TEXT_TYPES.has(sniffed) || sniffed === 'application/xml')) return false;
  const top = (m: string) => m.split('/')[0];
  // Same family, another subtype (a .png that is really a JPEG): the bytes decide, the claim is not an attack.
  if (top(claimed) === top(sniffed) && !isActive(sniffed) && !isActive(claimed)) return false;
  return true;
}

/** `image/*` matches the family; everything else matches exactly (case-insensitive). */
export function mimeAllowed(mime: string, patterns: readonly string[]): boolean {
  const m = mime.toLowerCase();
  return patterns.some((p) => {
    const pattern = p.toLowerCase();
    return pattern.endsWith('/*') ? m.startsWith(pattern.slice(0, -1)) : m === pattern;
  });
}

/** File name extension for a stored key. */
export function extensionFor(mime: string): string {
  const known = EXTENSIONS[mime];
  if (known) return known;
  const sub = mime.split('/')[1] ?? '';
  const clean = sub
    .replace(/^(x-|vnd\.)/, '')
    .replace(/\+.*$/, '')
    .replace(/[^a-z0-9]/g, '');
  return clean.slice(0, 10) || 'bin';
}

/** Types a browser renders as a document that can run script (never inline from the site's origin). */
export function isActive(mime: string): boolean {
  return (
    mime === 'text/html' ||
    mime === 'image/svg+xml' ||
    mime === 'application/xhtml+xml' ||
    mime === 'application/xml' ||
    mime === 'text/xml' ||
    mime === 'application/javascript' ||
    mime === 'text/javascript'
  );
}

/** Types served with `Content-Disposition: inline`; everything else downloads. */
export function servedInline(mime: string): boolean {
  if (isActive(mime)) return false;
  return (
    /^image\/(jpeg|png|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon)$/.test(mime) ||
    mime.startsWith('video/') ||
    mime.startsWith('audio/') ||
    mime === 'application/pdf' ||
    mime === 'text/plain'
  );
}

/** Raster formats sharp reads for width, height and a placeholder (SVG is never rendered on the server). */
export function isRasterImage(mime: string): boolean {
  return /^image\/(jpeg|png|gif|webp|avif|tiff|heic|heif)$/.test(mime);
}
