import { randomBytes } from 'node:crypto';

// Loaded on first use: a statically imported sharp would be resident in every bench process,
// including servers that never touch an image, and inflate the memory the bench reports.
const loadSharp = async () => (await import('sharp')).default;

/**
 * Bodies for the upload scenario: a ~1 MB photo-like JPEG (noise compresses
 * badly, like a real photo), sent as multipart/form-data. Every request gets
 * different bytes (a counter in a JPEG comment segment), so each upload is a
 * new file and nothing is answered by deduplication.
 */
const BOUNDARY = '----cms-bench-boundary-7d3f1e';
export const UPLOAD_CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

let cached: { head: Buffer; jpegTail: Buffer; tail: Buffer } | null = null;
let making: Promise<unknown> | null = null;
let counter = 0;
const run = randomBytes(4).toString('hex');

async function parts(targetBytes: number) {
  if (cached) return cached;
  // q90 noise JPEG: about 0.85 bytes per pixel; pick the side that lands near the target size.
  const side = Math.round(Math.sqrt(targetBytes / 0.85));
  const noise = randomBytes(side * side * 3);
  const jpeg = await (await loadSharp())(noise, { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="alt"\r\n\r\nBenchmark photo\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  cached = { head, jpegTail: jpeg.subarray(2), tail: Buffer.from(`\r\n--${BOUNDARY}--\r\n`) };
  return cached;
}

/** Prepare the image once (call before load starts: encoding it takes a moment). */
export async function prepareUploads(targetBytes: number): Promise<void> {
  // Concurrent callers (the two probes) must share one image.
  making ??= parts(targetBytes);
  await making;
}

/** The next upload body: SOI, a COM segment naming this request, then the rest of the JPEG. */
export function nextUploadBody(): Buffer {
  if (!cached) throw new Error('prepareUploads() first');
  const text = Buffer.from(`bench ${run} ${String(++counter).padStart(10, '0')}`);
  const com = Buffer.alloc(4);
  com.writeUInt16BE(0xfffe, 0);
  com.writeUInt16BE(text.length + 2, 2);
  return Buffer.concat([cached.head, Buffer.from([0xff, 0xd8]), com, text, cached.jpegTail, cached.tail]);
}
