import type { SeedContext } from './seed.js';
import { UPLOAD_CONTENT_TYPE } from './upload-body.js';

// Loaded on first use: a statically imported sharp would be resident in every bench process,
// including servers that never touch an image, and inflate the memory the bench reports.
const loadSharp = async () => (await import('sharp')).default;

/** Whose token a request carries (see bench/seed.ts). */
export type Caller = 'admin' | 'author' | 'reader';

/**
 * Per-request variation, applied by the load generator to both servers alike:
 * - `uniqueTitle`: `data.title` of the JSON body gets a number no other request of the run used;
 * - `revChain`: each connection updates its own entry of `ids` and sends back the `_rev` its previous
 *   response carried (the first request of a connection sends none);
 * - `pool`: each request takes the next path of `paths` (drafts to publish: each can be published once);
 * - `upload`: the body is a multipart upload of a new ~`bytes` JPEG every time (bench/upload-body.ts).
 */
export type Vary =
  | { kind: 'uniqueTitle' }
  | { kind: 'revChain'; ids: string[]; pathTemplate: string }
  | { kind: 'pool'; paths: string[] }
  | { kind: 'upload'; bytes: number };

/** A request to load, resolved after setup. */
export interface BenchRequest {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: string;
  headers?: Record<string, string>;
  as: Caller;
  vary?: Vary;
  /** Measure a fixed number of requests per run instead of a duration (scenarios that consume a pool). */
  amount?: number;
  /**
   * Keys whose values differ between the two servers by nature (new IDs, timestamps, revision
   * tokens of writes): masked before the same-answer check.
   */
  volatile?: string[];
}

export interface Scenario extends BenchRequest {
  /**
   * Runs once in the service's process after the base seed and before any load (and before the
   * baseline copies the service's tables). Create what the scenario needs through `ctx.cms.services`
   * and return overrides for the request (e.g. a path holding a created id, a pool of paths).
   */
  setup?: (ctx: SeedContext, settings: { rounds: number }) => Promise<Partial<BenchRequest> | undefined>;
}

const WRITE_VOLATILE = [
  'id',
  'translationGroup',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'liveRevisionId',
  'draftRevisionId',
  '_rev',
  'slug',
  'title',
  'views',
];

/** Publishes measured per run, and per warm-up (each consumes one draft). */
export const PUBLISH_AMOUNT = 1500;
export const PUBLISH_WARMUP_AMOUNT = 300;

const json = { 'content-type': 'application/json' };

/** What differs by nature between the two servers' media answers (new IDs, keys, hashes, their own addresses). */
const MEDIA_VOLATILE = [
  'id',
  'storageKey',
  'contentHash',
  'url',
  'immutableUrl',
  'srcset',
  'createdAt',
  'updatedAt',
  'placeholder',
];

/** 200 small, distinct images in the library (the list scenario reads the newest 50). */
async function seedMedia(ctx: SeedContext): Promise<void> {
  if ((await ctx.cms.services.media.list(ctx.actor, { limit: 1 })).items.length) return;
  for (let i = 0; i < 200; i++) {
    const background = { r: i, g: 255 - i, b: 90 };
    const png = await (await loadSharp())({ create: { width: 32 + (i % 50), height: 24, channels: 3, background } })
      .png()
      .toBuffer();
    await ctx.cms.services.media.uploadBase64(ctx.actor, {
      data: png.toString('base64'),
      filename: `image-${i}.png`,
      alt: `Image ${i}`,
    });
  }
}

export const scenarios: Scenario[] = [
  { name: 'listCollections', method: 'GET', path: '/_cms/api/schema/collections', as: 'admin' },
  { name: 'getCollection', method: 'GET', path: '/_cms/api/schema/collections/posts', as: 'admin' },
  {
    name: 'getContent',
    method: 'GET',
    path: '/_cms/api/content/posts/{id}',
    as: 'reader',
    setup: async (ctx) => ({ path: `/_cms/api/content/posts/${ctx.publishedIds[ctx.publishedIds.length >> 1]}` }),
  },
  { name: 'listContent', method: 'GET', path: '/_cms/api/content/posts?limit=50', as: 'reader' },
  {
    name: 'createContent',
    method: 'POST',
    path: '/_cms/api/content/posts',
    as: 'author',
    body: JSON.stringify({ data: { title: 'Benchmark entry', body: 'Created under load. '.repeat(40), views: 1 } }),
    headers: json,
    vary: { kind: 'uniqueTitle' },
    volatile: WRITE_VOLATILE,
  },
  {
    name: 'updateContent',
    method: 'PUT',
    path: '/_cms/api/content/posts/{id}',
    as: 'author',
    body: JSON.stringify({ data: { views: 42 } }),
    headers: json,
    volatile: WRITE_VOLATILE,
    setup: async (ctx) => {
      // One draft per connection: updates of a draft are written in place, each checked against its `_rev`.
      const ids: string[] = [];
      for (let i = 0; i < 64; i++) {
        const { item } = await ctx.cms.services.content.create(ctx.author, 'posts', {
          data: { title: `Edited under load ${i}`, body: 'Draft text. '.repeat(60), views: 0 },
        });
        ids.push(item.id);
      }
      const pathTemplate = '/_cms/api/content/posts/{id}';
      return { path: pathTemplate.replace('{id}', ids[ids.length - 1]), vary: { kind: 'revChain', ids, pathTemplate } };
    },
  },
  {
    name: 'publishContent',
    method: 'POST',
    path: '/_cms/api/content/posts/{id}/publish',
    as: 'author',
    body: '{}',
    headers: json,
    volatile: WRITE_VOLATILE,
    amount: PUBLISH_AMOUNT,
    setup: async (ctx, { rounds }) => {
      // Every publish consumes a draft: enough for the probe, the warm-ups and every measured run.
      const paths: string[] = [];
      const needed = rounds * (PUBLISH_AMOUNT + PUBLISH_WARMUP_AMOUNT) + 1;
      for (let i = 0; i < needed; i++) {
        const { item } = await ctx.cms.services.content.create(ctx.author, 'posts', {
          data: { title: `To publish ${i}`, body: 'Ready to go. '.repeat(60), views: i },
        });
        paths.push(`/_cms/api/content/posts/${item.id}/publish`);
      }
      return { path: paths[0], vary: { kind: 'pool', paths } };
    },
  },
  {
    name: 'listMedia',
    method: 'GET',
    path: '/_cms/api/media?limit=50',
    as: 'reader',
    volatile: ['url', 'immutableUrl', 'srcset'],
    setup: async (ctx) => {
      await seedMedia(ctx);
      return undefined;
    },
  },
  {
    name: 'uploadMedia1MB',
    method: 'POST',
    path: '/_cms/api/media',
    as: 'author',
    headers: { 'content-type': UPLOAD_CONTENT_TYPE },
    vary: { kind: 'upload', bytes: 1_000_000 },
    // A count, not a duration: a second of warm-up may not finish a single 1 MB upload on a busy machine.
    amount: 150,
    volatile: [...MEDIA_VOLATILE, 'uploadedBy'],
  },
];

/** Scenarios picked by BENCH_FILTER (a substring of the name; comma-separated for several). */
export function selectScenarios(filter = process.env.BENCH_FILTER): Scenario[] {
  const wanted = (filter ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const picked = wanted.length
    ? scenarios.filter((s) => wanted.some((w) => s.name.toLowerCase().includes(w)))
    : scenarios;
  if (!picked.length) throw new Error(`BENCH_FILTER="${filter}" matches no scenario`);
  return picked;
}
