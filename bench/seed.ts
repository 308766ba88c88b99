import type { Actor } from '../src/auth/actor.js';
import type { Cms } from '../src/index.js';
import type { AddFieldInput } from '../src/services/schema/index.js';

/** What a scenario's setup gets (see bench/scenarios.ts). */
export interface SeedContext {
  cms: Cms;
  /** The admin behind the bench token. */
  actor: Actor;
  /** Authorization header of a Subscriber (published entries only). */
  reader: Record<string, string>;
  /** Copy the current rows of these service tables into the baseline database (tables it already has). */
  mirror(tables: string[]): Promise<void>;
}

export interface Seeded {
  token: string;
  actor: Actor;
  /** A Subscriber's token: the published-read path. */
  readerToken: string;
}

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
 * The base data, created through the service layer as a client would: the first user (an Admin),
 * a PAT for it, `posts` (the collection the scenarios read) and 20 more collections with 3 to 8
 * fields each so the schema is not trivial.
 */
export async function seedService(cms: Cms): Promise<Seeded> {
  const { services } = cms;
  const { user } = await services.users.create(null, { email: 'bench@example.com', name: 'Bench' });
  const { token } = await services.tokens.create(null, { userId: user.id, name: 'bench' });
  const actor = await services.tokens.authenticate(token);
  if (!actor) throw new Error('seed: the new token does not authenticate');

  await services.schema.collections.create(actor, {
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
    await services.schema.collections.create(actor, {
      slug,
      label: slug[0].toUpperCase() + slug.slice(1),
      icon: 'file',
      fields: FIELD_POOL.slice(0, 3 + (i % 6)),
    });
  }
  const reader = await services.users.create(null, { email: 'reader@example.com', name: 'Reader', role: 10 });
  const { token: readerToken } = await services.tokens.create(null, { userId: reader.user.id, name: 'reader' });
  return { token, actor, readerToken };
}
