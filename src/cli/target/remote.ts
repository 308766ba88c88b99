import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import createClient from 'openapi-fetch';
import type { paths } from '../../../generated/api-schema.gen.js';
import { ApiError, CliError } from '../errors.js';
import { bearerFetch, remoteFetch, type TokenSource } from '../remote.js';
import { CONTENT_OPERATIONS } from './bindings/content.js';
import { SCHEMA_OPERATIONS } from './bindings/schema.js';
import { SITE_OPERATIONS } from './bindings/site.js';
import { STRUCTURE_OPERATIONS } from './bindings/structure.js';
import { TRANSFER_EXPORT_OPERATIONS, TRANSFER_IMPORT_OPERATIONS, TRANSFER_OPERATIONS } from './bindings/transfer.js';
import { USERS_OPERATIONS } from './bindings/users.js';
import { calledBy } from './operations.js';
import type { LifecycleOp, Target, TokenRecord } from './types.js';

/**
 * The remote target: a running site's REST API through the client generated
 * from its OpenAPI document (generated/api-schema.gen.ts, shared with the
 * admin), so permissions and validation are the server's. Token routes sit
 * outside the document and are called by hand with the same credentials.
 */
interface Envelope {
  success?: boolean;
  data?: unknown;
  error?: { code?: string; message?: string; details?: Record<string, unknown> };
}

type Fetched<T> = { data?: { success: true; data: T }; error?: unknown; response: Response };

function failure(status: number, body: unknown): ApiError {
  const error = (body as Envelope | undefined)?.error;
  if (error?.code) return new ApiError(error.code, error.message ?? error.code, error.details, status);
  return new ApiError(
    `HTTP_${status}`,
    `The site answered HTTP ${status} without an error envelope`,
    undefined,
    status,
  );
}

async function unwrap<T>(call: Promise<Fetched<T>>): Promise<T> {
  let result: Fetched<T>;
  try {
    result = await call;
  } catch (err) {
    // A 2xx answer that is not JSON: not this API (a proxy page, another application at that address).
    if (err instanceof SyntaxError)
      throw new CliError('The site did not answer with JSON: is --url the address of a CMS?');
    throw err;
  }
  if (result.error !== undefined || !result.response.ok) throw failure(result.response.status, result.error);
  if (!result.data) throw new CliError(`The site sent an empty answer (HTTP ${result.response.status})`);
  return result.data.data;
}

/** The spec's magic-link validity. */
const MAGIC_LINK_MINUTES = 15;

const LIFECYCLE_PATH = {
  publish: '/content/{collection}/{id}/publish',
  unpublish: '/content/{collection}/{id}/unpublish',
  restore: '/content/{collection}/{id}/restore',
  discardDraft: '/content/{collection}/{id}/discard-draft',
} as const satisfies Record<LifecycleOp, keyof paths>;

export function openRemoteTarget(source: TokenSource): Target {
  const fetcher = bearerFetch(source);
  const api = createClient<paths>({ baseUrl: `${source.url}/_cms/api`, fetch: fetcher });
  /** Package downloads: streamed, with a timeout on stalls rather than on the whole body. */
  const downloads = createClient<paths>({
    baseUrl: `${source.url}/_cms/api`,
    fetch: bearerFetch(source, { stream: true }),
  });
  /** Package uploads: the body streamed, with a timeout on stalls rather than on the whole body. */
  const uploads = createClient<paths>({
    baseUrl: `${source.url}/_cms/api`,
    fetch: bearerFetch(source, { upload: true }),
  });

  /** Routes outside the OpenAPI document (personal access tokens). */
  async function hidden<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await remoteFetch(source, path, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const parsed = (await res.json().catch(() => undefined)) as Envelope | undefined;
    if (!res.ok || !parsed?.success) {
      if (res.ok) throw new CliError('The site did not answer with JSON: is --url the address of a CMS?');
      throw failure(res.status, parsed);
    }
    return parsed.data as T;
  }

  const entry = (collection: string, id: string) => ({ path: { collection, id } });

  async function findUserByEmail(raw: string) {
    const email = raw.trim().toLowerCase();
    let cursor: string | undefined;
    do {
      const page = await unwrap(api.GET('/admin/users', { params: { query: { search: email, limit: 100, cursor } } }));
      const hit = page.items.find((u) => u.email === email);
      if (hit) return hit;
      cursor = page.nextCursor;
    } while (cursor);
    throw new ApiError('NOT_FOUND', `No user with the email address ${email}`, { email: raw }, 404);
  }

  return {
    kind: 'remote',
    label: `${source.url} (${source.via})`,
    async close() {},
    content: {
      ...calledBy<typeof CONTENT_OPERATIONS, Target['content']>(CONTENT_OPERATIONS, api, unwrap),
      list: (collection, { trash, ...query }) =>
        trash
          ? unwrap(api.GET('/content/{collection}/trash', { params: { path: { collection }, query } }))
          : unwrap(api.GET('/content/{collection}', { params: { path: { collection }, query } })),
      lifecycle: (op, collection, id, body) =>
        unwrap(api.POST(LIFECYCLE_PATH[op], { params: entry(collection, id), body })),
    },
    schema: {
      ...calledBy<typeof SCHEMA_OPERATIONS, Target['schema']>(SCHEMA_OPERATIONS, api, unwrap),
      listCollections: async () => (await unwrap(api.GET('/schema/collections'))).items,
      deleteCollection: async (slug) => {
        await unwrap(api.DELETE('/schema/collections/{slug}', { params: { path: { slug } } }));
      },
      reorderCollections: async (slugs) => {
        await unwrap(api.POST('/schema/collections/reorder', { body: { slugs } }));
      },
      deleteField: async (slug, fieldSlug) => {
        await unwrap(
          api.DELETE('/schema/collections/{slug}/fields/{fieldSlug}', { params: { path: { slug, fieldSlug } } }),
        );
      },
      reorderFields: async (slug, slugs) => {
        await unwrap(
          api.POST('/schema/collections/{slug}/fields/reorder', { params: { path: { slug } }, body: { slugs } }),
        );
      },
      listBlockTypes: async () => (await unwrap(api.GET('/schema/block-types'))).items,
      locales: async () => (await unwrap(api.GET('/admin/content/model', {}))).i18n.locales,
    },
    users: {
      ...calledBy<typeof USERS_OPERATIONS, Target['users']>(USERS_OPERATIONS, api, unwrap),
      loginLink: async (email) => {
        const user = await findUserByEmail(email);
        const sent = await hidden<{ emailed: boolean; link: string | null }>(
          'POST',
          `/admin/users/${encodeURIComponent(user.id)}/recovery-link`,
        );
        return { ...sent, expiresInMinutes: MAGIC_LINK_MINUTES };
      },
    },
    tokens: {
      list: async (userId) =>
        (
          await hidden<{ items: TokenRecord[] }>(
            'GET',
            `/auth/tokens${userId ? `?userId=${encodeURIComponent(userId)}` : ''}`,
          )
        ).items,
      create: (body) => hidden('POST', '/auth/tokens', body),
      revoke: async (id) => {
        await hidden('DELETE', `/auth/tokens/${encodeURIComponent(id)}`);
      },
      scopes: async () =>
        (await hidden<{ items: Array<{ scope: string; allowed: boolean }> }>('GET', '/auth/scopes')).items,
    },
    structure: {
      ...calledBy<typeof STRUCTURE_OPERATIONS, Target['structure']>(STRUCTURE_OPERATIONS, api, unwrap),
    },
    transfer: {
      ...calledBy<typeof TRANSFER_OPERATIONS, Target['transfer']>(TRANSFER_OPERATIONS, api, unwrap),
      exports: {
        ...calledBy<typeof TRANSFER_EXPORT_OPERATIONS, Target['transfer']['exports']>(
          TRANSFER_EXPORT_OPERATIONS,
          api,
          unwrap,
        ),
        archive: async (id) => {
          const { data, error, response } = await downloads.GET('/admin/transfer/exports/{id}/archive', {
            params: { path: { id } },
            parseAs: 'stream',
          });
          if (error !== undefined || !response.ok) throw failure(response.status, error);
          if (!data) throw new CliError(`The site sent an empty archive (HTTP ${response.status})`);
          const length = response.headers.get('content-length');
          return {
            body: Readable.fromWeb(data as unknown as WebReadableStream<Uint8Array>),
            size: length !== null && /^\d+$/.test(length) ? Number(length) : null,
          };
        },
      },
      imports: {
        ...calledBy<typeof TRANSFER_IMPORT_OPERATIONS, Target['transfer']['imports']>(
          TRANSFER_IMPORT_OPERATIONS,
          api,
          unwrap,
        ),
        upload: (id, path, body, size) =>
          unwrap(
            uploads.PUT('/admin/transfer/imports/{id}/files/{path}', {
              params: { path: { id, path } },
              // The bytes as they are read: the generated client passes the stream through unchanged.
              body: Readable.toWeb(body) as unknown as string,
              bodySerializer: (stream: string) => stream,
              headers: { 'content-type': 'application/octet-stream', 'content-length': String(size) },
              duplex: 'half',
            }),
          ),
      },
    },
    site: {
      ...calledBy<typeof SITE_OPERATIONS, Target['site']>(SITE_OPERATIONS, api, unwrap),
    },
  };
}
