import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { notFound } from '../../../core/errors.js';
import { newId } from '../../../core/ids.js';
import type { ObjectHeaders, ReadResult } from '../../../storage/index.js';
import type { MediaDeps } from '../deps.js';
import { contentDisposition, IMMUTABLE } from '../files.js';
import { CONTENT_TYPE, EXTENSION, outputFormat, outputQuality, TRANSFORMABLE } from './formats.js';
import { type Plan, planImage } from './geometry.js';
import { authorize, focalMatters, type ImageParams, parseImageQuery } from './params.js';
import { CENTRE, type FocalPoint, versionToken } from './sign.js';
import { TransformSlots } from './slots.js';
import { notTransformable, runTransform, type TransformJob } from './transform.js';
import { type ImageUrlTarget, imageUrl } from './url.js';

/** Addressed without the current `v`, an image can change (replace, focal point): caches must revalidate. */
const REVALIDATE = 'public, no-cache';
/** Presigned URLs live an hour; a redirect to one is cached for less. */
const PRESIGN_SECONDS = 3600;

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** One derivative of one version of an item's file, as the route serves it. */
export interface Derivative {
  key: string;
  /** Strong validator of exactly these output bytes. */
  etag: string;
  headers: ObjectHeaders;
  /** `fm=auto`: the format came from `Accept`. */
  vary: boolean;
  /** The URL named the current version: cacheable for a year. */
  immutable: boolean;
  /** Of the answer: immutable for the current version's URL, else revalidated. */
  cacheControl: string;
  job: Omit<TransformJob, 'input' | 'output'> & { itemId: string; sourceKey: string; hash: string; focal: FocalPoint };
}

export type ImageAnswer =
  /** The same parameters in canonical order and spelling. */
  | { kind: 'redirect'; query: string }
  /** Served as the file is (SVG): by storage key when the URL named the current version, else by ID. */
  | { kind: 'original'; ref: string }
  | { kind: 'derivative'; derivative: Derivative };

export type Delivery =
  | { kind: 'body'; read: ReadResult }
  | { kind: 'redirect'; location: string; cacheControl: string };

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
/** 16 hex characters naming one version of an item's file in derivative keys. */
const hashPart = (hash: string) =>
  /^sha256:[0-9a-f]{64}$/.test(hash) ? hash.slice(7, 23) : createHash('sha256').update(hash).digest('hex').slice(0, 16);
const focalTag = (f: FocalPoint) => `f${sha256(`${f.x}|${f.y}`).slice(0, 8)}`;

/**
 * Responsive images: a ready image served transformed by URL (docs/media.md, "Responsive
 * images"). Each derivative is made once per (item, file version, output plan, format,
 * quality), stored under `derived/<id>/…` in the configured storage and looked up there before
 * any transform; concurrent requests for one derivative share one transform (in this process;
 * the store is the shared cache between processes), and transforms run in bounded slots.
 */
export function imageOps(deps: MediaDeps) {
  const { ctx, storage } = deps;
  const images = ctx.config.images;
  const slots = new TransformSlots(images.concurrency, images.queue);
  const inflight = new Map<string, Promise<void>>();
  const workDir = join(ctx.config.dataDir, 'tmp', 'images');
  let transforms = 0;

  async function resolve(id: string, rawQuery: string, accept: string | undefined): Promise<ImageAnswer> {
    if (!ULID.test(id)) throw notFound('Image');
    const parsed = parseImageQuery(rawQuery);
    if (parsed.kind === 'redirect') return parsed;
    const { request } = parsed;
    // Before the database: a refused size costs no query.
    const spec = authorize(id, request, images);
    const row = await ctx.db
      .selectFrom('_cms_media')
      .select(['mime_type', 'filename', 'width', 'height', 'storage_key', 'content_hash', 'focal_x', 'focal_y'])
      .where('id', '=', id)
      .where('status', '=', 'ready')
      .executeTakeFirst();
    if (!row) throw notFound('Image');
    const focal = row.focal_x !== null && row.focal_y !== null ? { x: row.focal_x, y: row.focal_y } : CENTRE;
    const immutable = request.v === versionToken(row.storage_key, focalMatters(spec) ? focal : null);
    // SVG is never rasterised: the file itself, with the file route's download headers and sandbox.
    if (row.mime_type === 'image/svg+xml') return { kind: 'original', ref: immutable ? row.storage_key : id };
    if (!TRANSFORMABLE.has(row.mime_type)) throw notTransformable(`${row.mime_type} is not an image`);
    if (!row.width || !row.height) throw notTransformable('the library has no dimensions for it');
    const source = { width: Number(row.width), height: Number(row.height) };
    const plan = planImage(source, spec, focal, images.maxPixels);
    const format = outputFormat(spec.fm, row.mime_type, accept);
    const quality = outputQuality(format, spec.q);
    const hash = row.content_hash ?? row.storage_key;
    const digest = sha256(JSON.stringify([hash, plan, format, quality]));
    // Crops sit in a folder of their focal point, so moving the point drops exactly them.
    const folder = `derived/${id}/${hashPart(hash)}/${plan.extract ? `${focalTag(focal)}/` : ''}`;
    const stem = row.filename.replace(/\.[^.]*$/, '') || 'image';
    return {
      kind: 'derivative',
      derivative: {
        key: `${folder}${digest.slice(0, 20)}.${EXTENSION[format]}`,
        etag: `"${digest.slice(0, 32)}"`,
        headers: {
          contentType: CONTENT_TYPE[format],
          contentDisposition: contentDisposition('inline', `${stem}-${plan.width}x${plan.height}.${EXTENSION[format]}`),
          // The stored object is content-addressed: its own URL may be cached for ever.
          cacheControl: IMMUTABLE,
        },
        vary: spec.fm === 'auto',
        immutable,
        cacheControl: immutable ? IMMUTABLE : REVALIDATE,
        job: {
          source,
          plan,
          format,
          quality,
          maxInputPixels: ctx.config.maxImagePixels,
          itemId: id,
          sourceKey: row.storage_key,
          hash,
          focal,
        },
      },
    };
  }

  /** The derivative's bytes (file system) or where to fetch them (object storage), transforming on a miss. */
  async function deliver(d: Derivative): Promise<Delivery> {
    if (storage.localPath(d.key) !== null) {
      const hit = await storage.read(d.key);
      if (hit) return { kind: 'body', read: hit };
      await ensure(d);
      const made = await storage.read(d.key);
      if (!made) throw notTransformable('the derivative was removed while it was made');
      return { kind: 'body', read: made };
    }
    if (!(await storage.head(d.key))) await ensure(d);
    const location = await storage.readUrl(d.key, d.headers, PRESIGN_SECONDS);
    if (!location) throw new Error('object storage gave no URL for a derivative');
    const stable = storage.publicUrl(d.key) !== null;
    const cacheControl = !d.immutable ? REVALIDATE : stable ? IMMUTABLE : `private, max-age=${PRESIGN_SECONDS - 600}`;
    return { kind: 'redirect', location, cacheControl };
  }

  /** One transform per derivative at a time in this process: later requests wait for the first. */
  function ensure(d: Derivative): Promise<void> {
    let running = inflight.get(d.key);
    if (!running) {
      running = slots.run(() => make(d)).finally(() => inflight.delete(d.key));
      inflight.set(d.key, running);
    }
    return running;
  }

  async function make(d: Derivative): Promise<void> {
    await mkdir(workDir, { recursive: true });
    const local = storage.localPath(d.job.sourceKey);
    const input = local ?? join(workDir, `${newId()}.src`);
    const output = join(workDir, `${newId()}.${EXTENSION[d.job.format]}`);
    try {
      if (!local) {
        const original = await storage.read(d.job.sourceKey);
        if (!original) throw notFound('Image');
        await pipeline(original.body, createWriteStream(input));
      }
      await runTransform({ ...d.job, input, output });
      transforms++;
      await storage.putFile(d.key, output, d.headers);
    } finally {
      await rm(output, { force: true });
      if (!local) await rm(input, { force: true });
    }
    // Replaced, deleted or refocused while we worked: what we stored belongs to no version.
    const now = await ctx.db
      .selectFrom('_cms_media')
      .select(['content_hash', 'storage_key', 'focal_x', 'focal_y'])
      .where('id', '=', d.job.itemId)
      .executeTakeFirst();
    const focal = now && now.focal_x !== null && now.focal_y !== null ? { x: now.focal_x, y: now.focal_y } : CENTRE;
    const moved = d.job.plan.extract !== null && (focal.x !== d.job.focal.x || focal.y !== d.job.focal.y);
    if (!now || (now.content_hash ?? now.storage_key) !== d.job.hash || moved) await storage.delete(d.key);
  }

  /** Drop derivatives (derived data, rebuilt on demand); a failure is logged, never the caller's error. */
  async function drop(prefix: string): Promise<void> {
    try {
      await storage.deletePrefix(prefix);
    } catch (err) {
      ctx.log.warn({ err, prefix }, 'could not remove image derivatives');
    }
  }

  return {
    resolve,
    deliver,
    /** The canonical (and, where the size needs it, signed) URL of an image of this site. */
    url: (item: ImageUrlTarget, params: ImageParams) =>
      imageUrl({ publicUrl: ctx.config.publicUrl, ...images }, item, params),
    /** Every derivative of an item (it was deleted). */
    forgetItem: (id: string) => drop(`derived/${id}/`),
    /** The derivatives of one version of its file (it was replaced). */
    forgetVersion: (id: string, hash: string) => drop(`derived/${id}/${hashPart(hash)}/`),
    /** The crops made around a focal point it no longer has. */
    forgetFocal: (id: string, hash: string, focal: FocalPoint) =>
      drop(`derived/${id}/${hashPart(hash)}/${focalTag(focal)}/`),
    /** Transform slots (tests hold them to see the bound) and how many transforms ran in this process. */
    slots,
    stats: () => ({ transforms, ...slots.stats() }),
  };
}

export type ImageOps = ReturnType<typeof imageOps>;
export type { Plan };
