import { createHash } from 'node:crypto';
import { extract } from 'tar-stream';
import { expect } from 'vitest';
import type { Cms } from '../../src/index.js';
import { call } from './cms.js';

/** Start an export and advance it until it is complete (at most `maxSteps` steps). */
export async function runExport(cms: Cms, token: string, body: Record<string, unknown> = {}, maxSteps = 200) {
  const started = await call(cms, 'POST', '/admin/transfer/exports', { token, body });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  let op = started.body.data;
  for (let i = 0; op.nextRequestInMs !== null && i < maxSteps; i++) {
    const res = await call(cms, 'POST', `/admin/transfer/exports/${op.id}/advance`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    op = res.body.data;
  }
  expect(op.state, JSON.stringify(op)).toBe('complete');
  return op;
}

/** GET a download: status, headers and the raw bytes. */
export async function fetchBytes(cms: Cms, path: string, token: string) {
  const res = await cms.app.request(`/_cms/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The entries of a tar archive, in order. */
export async function untar(bytes: Buffer): Promise<Array<{ name: string; data: Buffer }>> {
  const out: Array<{ name: string; data: Buffer }> = [];
  const ex = extract();
  const done = new Promise<void>((resolve, reject) => {
    ex.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        out.push({ name: header.name, data: Buffer.concat(chunks) });
        next();
      });
      stream.on('error', reject);
    });
    ex.on('finish', resolve);
    ex.on('error', reject);
  });
  ex.end(bytes);
  await done;
  return out;
}

/** Records of an NDJSON file. */
export function ndjson(bytes: Buffer): Record<string, unknown>[] {
  return bytes
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
}
