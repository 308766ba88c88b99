import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { extract, pack } from 'tar-stream';
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

/** A tar archive of these entries, in this order. */
export async function tarOf(entries: Array<[name: string, data: Buffer]>): Promise<Buffer> {
  const p = pack();
  for (const [name, data] of entries) p.entry({ name }, data);
  p.finalize();
  const chunks: Buffer[] = [];
  for await (const c of p) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** Files anywhere under `dir` whose names match (a site's stored package files, say). */
export function filesUnder(dir: string, name: RegExp): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      const p = join(d, entry);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.test(entry)) out.push(p);
    }
  };
  walk(dir);
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

/** PUT one package file into an import. */
export async function putFile(cms: Cms, token: string, importId: string, path: string, data: Buffer) {
  const res = await cms.app.request(`/_cms/api/admin/transfer/imports/${importId}/files/${encodeURIComponent(path)}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
    body: data,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Create an import and upload every entry of a package archive (manifest first). */
export async function uploadPackage(cms: Cms, token: string, archive: Buffer) {
  const created = await call(cms, 'POST', '/admin/transfer/imports', { token });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.data.id as string;
  for (const entry of await untar(archive)) {
    const res = await putFile(cms, token, id, entry.name, entry.data);
    expect(res.status, `${entry.name}: ${JSON.stringify(res.body)}`).toBe(200);
  }
  return id;
}

/** Analyze until planned; the plan. */
export async function analyzeImport(cms: Cms, token: string, id: string, maxSteps = 200) {
  let op: any;
  for (let i = 0; i < maxSteps; i++) {
    const res = await call(cms, 'POST', `/admin/transfer/imports/${id}/analyze`, { token, body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    op = res.body.data;
    if (op.nextRequestInMs === null) break;
  }
  expect(op.state).toBe('planned');
  const plan = await call(cms, 'GET', `/admin/transfer/imports/${id}/plan`, { token });
  expect(plan.status).toBe(200);
  return plan.body.data;
}

/** Execute a plan and advance until the import is complete; the receipt. */
export async function executeImport(cms: Cms, token: string, id: string, plan: any, maxSteps = 500) {
  const started = await call(cms, 'POST', `/admin/transfer/imports/${id}/execute`, {
    token,
    body: { packageDigest: plan.packageDigest, planDigest: plan.planDigest },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  let op = started.body.data;
  for (let i = 0; op.nextRequestInMs !== null && i < maxSteps; i++) {
    const res = await call(cms, 'POST', `/admin/transfer/imports/${id}/advance`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    op = res.body.data;
  }
  expect(op.state, JSON.stringify(op)).toBe('complete');
  const receipt = await call(cms, 'GET', `/admin/transfer/imports/${id}/receipt`, { token });
  expect(receipt.status).toBe(200);
  return receipt.body.data;
}

/** Export `from` and import the package into `to` (both as their first admins); plan and receipt. */
export async function transferSite(from: Cms & { adminToken: string }, to: Cms & { adminToken: string }) {
  const op = await runExport(from, from.adminToken);
  const archive = await fetchBytes(from, `/admin/transfer/exports/${op.id}/archive`, from.adminToken);
  expect(archive.status).toBe(200);
  const id = await uploadPackage(to, to.adminToken, archive.bytes);
  const plan = await analyzeImport(to, to.adminToken, id);
  expect(plan.blockers.items, JSON.stringify(plan.blockers)).toEqual([]);
  const receipt = await executeImport(to, to.adminToken, id, plan);
  return { exportOp: op, importId: id, plan, receipt };
}

export type PackageEntry = { name: string; data: Buffer };
type Rows = Record<string, unknown>[];

/**
 * A package's entries with record files rewritten (`edits`: path → new rows
 * from the old ones; a path the package lacks is added as a new file of the
 * kind its path names) and the manifest's sizes, digests and record counts
 * made to match, so the package passes every file check and only what the
 * records say is left to judge. `manifestEdit` may reorder or change the rest.
 */
export function repack(
  entries: PackageEntry[],
  edits: Record<string, (rows: Rows) => Rows>,
  manifestEdit?: (manifest: any) => void,
): PackageEntry[] {
  const manifest = JSON.parse(entries[0].data.toString('utf8'));
  const out = entries.slice(1).map((e) => ({ ...e }));
  for (const [path, edit] of Object.entries(edits)) {
    let entry = out.find((e) => e.name === path);
    if (!entry) {
      entry = { name: path, data: Buffer.alloc(0) };
      out.push(entry);
      const [, kind, collection] = /^records\/([a-zA-Z]+)\/(?:([a-z0-9_]+)\/)?/.exec(path) ?? [];
      manifest.files.push({ path, kind, ...(collection ? { collection } : {}), size: 0, sha256: '', records: 0 });
    }
    const rows = edit(entry.data.length ? ndjson(entry.data) : []);
    entry.data = Buffer.from(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const listed = manifest.files.find((f: any) => f.path === path);
    listed.size = entry.data.length;
    listed.sha256 = sha256(entry.data);
    listed.records = rows.length;
  }
  manifestEdit?.(manifest);
  return [{ name: 'manifest.json', data: Buffer.from(JSON.stringify(manifest)) }, ...out];
}

/** Create an import, upload these package entries in order and analyse it; the import ID and the plan. */
export async function planOf(cms: Cms, token: string, entries: PackageEntry[]) {
  const created = await call(cms, 'POST', '/admin/transfer/imports', { token });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.data.id as string;
  for (const e of entries) {
    const res = await putFile(cms, token, id, e.name, e.data);
    expect(res.status, `${e.name}: ${JSON.stringify(res.body)}`).toBe(200);
  }
  return { id, plan: await analyzeImport(cms, token, id) };
}

/** A package's entries with one file's bytes replaced, its size and digest in the manifest made to match. */
export function withFile(entries: PackageEntry[], name: string, data: Buffer): PackageEntry[] {
  const manifest = JSON.parse(entries[0].data.toString('utf8'));
  const listed = manifest.files.find((f: any) => f.path === name);
  listed.size = data.length;
  listed.sha256 = sha256(data);
  return [
    { name: 'manifest.json', data: Buffer.from(JSON.stringify(manifest)) },
    ...entries.slice(1).map((e) => (e.name === name ? { name, data } : e)),
  ];
}
