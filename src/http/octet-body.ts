import type { Readable } from 'node:stream';
import type { Context } from 'hono';
import type { AppEnv } from './env.js';
import { bodyWithBytes } from './request-body.js';

/**
 * The raw bytes of an `application/octet-stream` upload, as a Node stream
 * the service reads (and counts) itself, and the declared length when the
 * client sent a well-formed one. `body` is null when the request carries no
 * bytes (see request-body.ts): the service decides what an empty upload means
 * before it compares lengths.
 */
export async function octetBody(c: Context<AppEnv>): Promise<{ body: Readable | null; length: number | null }> {
  const raw = c.req.header('content-length');
  const length = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null;
  return { body: await bodyWithBytes(c.req.raw), length };
}
