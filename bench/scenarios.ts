import type { SeedContext } from './seed.js';

/** A request to load, resolved after setup; the harness adds `Authorization: Bearer <admin PAT>` unless anonymous. */
export interface BenchRequest {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** Send no Authorization header (the anonymous published-read path). */
  anonymous?: boolean;
  /**
   * Keys whose values differ between the two servers by nature (new IDs, timestamps, revision
   * tokens of writes): masked before the same-answer check.
   */
  volatile?: string[];
}

export interface Scenario extends BenchRequest {
  /**
   * Runs once in the process that hosts the servers, after the base seed and before any load.
   * Create what the scenario needs through `ctx.cms.services`, copy the rows the baseline serves
   * with `ctx.mirror([...tables])`, and return overrides for the request (e.g. a path holding a
   * created id).
   */
  setup?: (ctx: SeedContext) => Promise<Partial<BenchRequest> | undefined>;
}

/**
 * Every scenario runs against the service and against the bare baseline (bench/baseline.ts must
 * answer the same method and path with the same JSON).
 */
const WRITE_VOLATILE = [
  'id',
  'authorId',
  'translationGroup',
  'createdAt',
  'updatedAt',
  'publishedAt',
  'liveRevisionId',
  'draftRevisionId',
  '_rev',
  'slug',
];

/** Published posts the content scenarios read and write (created through the service layer). */
async function seedPosts(ctx: SeedContext): Promise<string[]> {
  const existing = await ctx.cms.services.content.list(ctx.actor, 'posts', { limit: 1 });
  if (existing.items.length) {
    return (await ctx.cms.services.content.list(ctx.actor, 'posts', { limit: 100, orderBy: 'createdAt' })).items.map(
      (i) => i.id,
    );
  }
  const ids: string[] = [];
  for (let i = 0; i < 200; i++) {
    const { item } = await ctx.cms.services.content.create(ctx.actor, 'posts', {
      data: { title: `Post number ${i}`, body: `Body of post ${i}. `.repeat(20), views: i },
    });
    await ctx.cms.services.content.publish(ctx.actor, 'posts', item.id);
    ids.push(item.id);
  }
  await ctx.mirror(['ec_posts']);
  return ids;
}

export const scenarios: Scenario[] = [
  { name: 'listCollections', method: 'GET', path: '/_cms/api/schema/collections' },
  { name: 'getCollection', method: 'GET', path: '/_cms/api/schema/collections/posts' },
  {
    name: 'getContent',
    method: 'GET',
    path: '/_cms/api/content/posts/{id}',
    setup: async (ctx) => ({ path: `/_cms/api/content/posts/${(await seedPosts(ctx))[50]}`, headers: ctx.reader }),
  },
  {
    name: 'listContent',
    method: 'GET',
    path: '/_cms/api/content/posts?limit=50',
    setup: async (ctx) => {
      await seedPosts(ctx);
      return { headers: ctx.reader };
    },
  },
  {
    name: 'createContent',
    method: 'POST',
    path: '/_cms/api/content/posts',
    body: JSON.stringify({ data: { title: 'Benchmark entry', body: 'Created under load.', views: 1 } }),
    headers: { 'content-type': 'application/json' },
    volatile: WRITE_VOLATILE,
  },
  {
    name: 'updateContent',
    method: 'PUT',
    path: '/_cms/api/content/posts/{id}',
    body: JSON.stringify({ data: { views: 42 } }),
    headers: { 'content-type': 'application/json' },
    volatile: WRITE_VOLATILE,
    setup: async (ctx) => {
      // A draft entry: its updates are written in place (a published one would stage drafts).
      const { item } = await ctx.cms.services.content.create(ctx.actor, 'posts', {
        data: { title: 'Edited under load', views: 0 },
      });
      await ctx.mirror(['ec_posts']);
      return { path: `/_cms/api/content/posts/${item.id}` };
    },
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
