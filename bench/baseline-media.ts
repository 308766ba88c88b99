import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import busboy from 'busboy';
import type { Hono } from 'hono';
import { resolveImages } from '../src/core/config-images.js';
import { newId } from '../src/core/ids.js';
import { srcsetOf } from '../src/services/media/images/srcset.js';
import type { Row } from './baseline-app.js';

// Loaded on first use: a statically imported sharp would be resident in every bench process,
// including servers that never touch an image, and inflate the memory the bench reports.
const loadSharp = async () => (await import('sharp')).default;

/**
 * The baseline's media routes: the least a server must do to list a page of the library (one indexed
 * query) and to take an upload (stream the multipart file to disk while hashing it, read the image's
 * dimensions, insert a row), answering the same JSON as the service.
 */
export interface MediaStore {
  /** Ready items, newest first. */
  listMedia(limit: number): Promise<Row[]>;
  insertMedia(row: Row): Promise<Row>;
}

export const MEDIA_COLUMNS = [
  'id',
  'status',
  'filename',
  'name_key',
  'mime_type',
  'size',
  'width',
  'height',
  'alt',
  'caption',
  'placeholder',
  'folder_id',
  'storage_key',
  'content_hash',
  'dedupe_key',
  'declared_hash',
  'uploaded_by',
  'created_at',
  'updated_at',
  'expires_at',
  'version',
];

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** The service's default image widths: the srcset candidates of a ready image are part of its answer. */
const IMAGES = resolveImages({});

function item(r: Row, origin: string) {
  const base = `${origin}/_cms/api/media/file`;
  const immutableUrl = `${base}/${r.storage_key}`;
  const srcset =
    r.status === 'ready'
      ? srcsetOf(
          { publicUrl: origin, images: IMAGES },
          {
            id: String(r.id),
            mimeType: String(r.mime_type),
            width: num(r.width),
            height: num(r.height),
            storageKey: r.storage_key as string | null,
            original: immutableUrl,
          },
        )
      : null;
  return {
    id: r.id,
    status: r.status,
    filename: r.filename,
    mimeType: r.mime_type,
    size: Number(r.size),
    width: num(r.width),
    height: num(r.height),
    alt: r.alt,
    caption: r.caption,
    placeholder: r.placeholder,
    folderId: r.folder_id,
    storageKey: r.storage_key,
    contentHash: r.content_hash,
    url: `${base}/${r.id}`,
    immutableUrl,
    uploadedBy: r.uploaded_by,
    focalPoint: r.focal_x !== null && r.focal_y !== null ? { x: Number(r.focal_x), y: Number(r.focal_y) } : null,
    srcset: srcset?.srcset ?? null,
    srcsetCandidates: srcset?.candidates ?? null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

interface Received {
  path: string;
  size: number;
  hash: string;
  filename: string;
  mime: string;
}

/** Stream the `file` part to disk while counting and hashing it; text parts are collected. */
function receive(request: Request, dir: string): Promise<{ file: Received | null; fields: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    let stored: Promise<Received> | null = null;
    const parser = busboy({ headers: { 'content-type': request.headers.get('content-type') ?? '' } });
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (_name, stream, info) => {
      const path = join(dir, newId());
      const hash = createHash('sha256');
      let size = 0;
      const count = async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          size += chunk.length;
          hash.update(chunk);
          yield chunk;
        }
      };
      stored = pipeline(stream, count, createWriteStream(path)).then(() => ({
        path,
        size,
        hash: `sha256:${hash.digest('hex')}`,
        filename: info.filename ?? '',
        mime: info.mimeType,
      }));
      stored.catch(() => {});
    });
    parser.on('close', () => {
      if (!stored) resolve({ file: null, fields });
      else stored.then((file) => resolve({ file, fields }), reject);
    });
    parser.on('error', reject);
    // The load generator cuts connections when a run ends: an aborted body must not crash the process.
    const source = Readable.fromWeb(request.body as unknown as WebReadableStream<Uint8Array>);
    source.on('error', reject);
    source.pipe(parser);
  });
}

export function mediaRoutes(app: Hono, store: MediaStore, authorId: string): { close(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'cms-baseline-media-'));
  app.get('/_cms/api/media', async (c) => {
    const limit = Number(c.req.query('limit') ?? 50);
    const rows = await store.listMedia(limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const origin = new URL(c.req.url).origin;
    const data: Row = { items: page.map((r) => item(r, origin)) };
    if (rows.length > limit) {
      data.nextCursor = Buffer.from(JSON.stringify([last.created_at, last.id])).toString('base64url');
    }
    return c.json({ success: true, data });
  });
  app.post('/_cms/api/media', async (c) => {
    const { file, fields } = await receive(c.req.raw, dir);
    if (!file) return c.json({ success: false, error: { code: 'NO_FILE', message: 'No file' } }, 400);
    const meta = await (await loadSharp())(file.path).metadata();
    const id = newId();
    const now = new Date().toISOString();
    const row = await store.insertMedia({
      id,
      status: 'ready',
      filename: file.filename,
      name_key: file.filename.toLowerCase(),
      mime_type: file.mime,
      size: file.size,
      width: meta.width ?? null,
      height: meta.height ?? null,
      alt: fields.alt ?? null,
      caption: null,
      placeholder: null,
      folder_id: null,
      storage_key: `${id}.jpg`,
      content_hash: file.hash,
      dedupe_key: file.hash,
      declared_hash: null,
      uploaded_by: authorId,
      created_at: now,
      updated_at: now,
      expires_at: null,
      version: 1,
    });
    return c.json({ success: true, data: { item: item(row, new URL(c.req.url).origin), deduplicated: false } }, 201);
  });
  return { close: () => rmSync(dir, { recursive: true, force: true }) };
}
