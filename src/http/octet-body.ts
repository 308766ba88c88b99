import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Context } from 'hono';
import type { AppEnv } from './env.js';

/**
 * The raw bytes of an `application/octet-stream` upload, as a Node stream
 * the service reads (and counts) itself, and the declared length when the
 * client sent a well-formed one.
 */
export function octetBody(c: Context<AppEnv>): { body: Readable | null; length: number | null } {
  const raw = c.req.header('content-length');
  const length = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null;
  const body = c.req.raw.body ? Readable.fromWeb(c.req.raw.body as unknown as WebReadableStream<Uint8Array>) : null;
  return { body, length };
}
