import type { Actor } from '../src/auth/actor.js';
import type { Cms } from '../src/index.js';
import type { AddFieldInput } from '../src/services/schema/index.js';

/** What a scenario's setup gets (see bench/scenarios.ts). */
export interface SeedContext {
  cms: Cms;
  /** The Admin behind the admin token. */
  actor: Actor;
  /** The Author behind the author token (writes its own drafts and publishes them). */
  author: Actor;
  /** IDs of the published posts, oldest first. */
  publishedIds: string[];
}

export interface Seeded {
  /** Bearer tokens by caller: an Admin, an Author, a Subscriber (published entries only). */
  tokens: { admin: string; author: string; reader: string };
  actor: Actor;
  author: Actor;
  publishedIds: string[];
}

/** Published posts every run starts with, and the size of their body text. */
export const PUBLISHED_POSTS = Number(process.env.BENCH_POSTS ?? 2000);
const BODY = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(14).slice(0, 800);

const EXTRA_COLLECTIONS = [
  'pages',
  'authors',
  'products',
  'events',
  'recipes',
  'jobs',
  'faqs',
  'testimonials',
  'team',
  'locations',
  'projects',
  'courses',
  'podcasts',
  'videos',
  'releases',
  'partners',
  'press',
  'guides',
  'changelog',
  'glossary',
];

const FIELD_POOL: AddFieldInput[] = [
  { slug: 'title', label: 'Title', type: 'string', required: true, indexed: true, searchable: true },
  { slug: 'summary', label: 'Summary', type: 'text', searchable: true },
  { slug: 'rank', label: 'Rank', type: 'integer', indexed: true },
  { slug: 'featured', label: 'Featured', type: 'boolean' },
  { slug: 'price', label: 'Price', type: 'number' },
  { slug: 'starts_at', label: 'Starts at', type: 'datetime', indexed: true },
  { slug: 'website', label: 'Website', type: 'url' },
  { slug: 'extra', label: 'Extra', type: 'json' },
];

/**
 * The base data, created through the service layer as a client would: the first user (an Admin), an
 * Author and a Subscriber with tokens, `posts` (the collection the scenarios read and write: default
 * supports, so drafts, revisions and edit locks are on) with 2,000 published posts of about 800
 * characters, and 20 more collections with 3 to 8 fields each so the schema is not trivial.
 */
export async function seedService(cms: Cms): Promise<Seeded> {
  const { services } = cms;
  const token = async (email: string, role?: number) => {
    const { user } = await services.users.create(null, { email, name: email.split('@')[0], role });
    const { token } = await services.tokens.create(null, { userId: user.id, name: 'bench' });
    const actor = await services.tokens.authenticate(token);
    if (!actor) throw new Error('seed: a new token does not authenticate');
    return { token, actor };
  };
  const admin = await token('bench@example.com');
  const author = await token('author@example.com', 30);
  const reader = await token('reader@example.com', 10);

  await services.schema.collections.create(admin.actor, {
    slug: 'posts',
    label: 'Posts',
    labelSingular: 'Post',
    description: 'Blog posts',
    fields: [
      { slug: 'title', label: 'Title', type: 'string', required: true, indexed: true, searchable: true },
      { slug: 'body', label: 'Body', type: 'text', searchable: true },
      { slug: 'views', label: 'Views', type: 'integer', defaultValue: 0 },
    ],
  });
  for (const [i, slug] of EXTRA_COLLECTIONS.entries()) {
    await services.schema.collections.create(admin.actor, {
      slug,
      label: slug[0].toUpperCase() + slug.slice(1),
      icon: 'file',
      fields: FIELD_POOL.slice(0, 3 + (i % 6)),
    });
  }
  const publishedIds: string[] = [];
  for (let i = 0; i < PUBLISHED_POSTS; i++) {
    const { item } = await services.content.create(author.actor, 'posts', {
      data: { title: `Post number ${i}`, body: BODY, views: i },
    });
    await services.content.publish(author.actor, 'posts', item.id);
    publishedIds.push(item.id);
  }
  return {
    tokens: { admin: admin.token, author: author.token, reader: reader.token },
    actor: admin.actor,
    author: author.actor,
    publishedIds,
  };
}
