import type { ServiceContext } from '../../context.js';
import { DAY_MS, hashSecret, isoAfter } from '../secrets.js';
import type { ProviderStorage } from './types.js';

/** The longest a provider's record may live: these records carry a sign-in, not an account. */
export const PROVIDER_STORAGE_MAX_TTL_MS = DAY_MS;
const MAX_VALUE_CHARS = 64 * 1024;
const COLLECTION = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * The records login providers keep in the database (`_cms_provider_storage`, migration 019):
 * what a provider's client library holds between the start of a sign-in and its callback, so
 * that any process behind one database serves the callback. Each key is stored as its SHA-256
 * (a key can be a secret, such as an OAuth state), each value as JSON; every record expires, and
 * expired ones are swept when a record is written.
 */
export function providerStorage(ctx: ServiceContext) {
  return (provider: string, collection: string): ProviderStorage => {
    if (!COLLECTION.test(collection)) {
      throw new Error(`Provider storage collection "${collection}" must match ${COLLECTION}`);
    }
    const row = (key: string) => ({ provider, collection, key_hash: hashSecret(key) });
    return {
      async get<T = unknown>(key: string): Promise<T | null> {
        const found = await ctx.db
          .selectFrom('_cms_provider_storage')
          .select(['value', 'expires_at'])
          .where('provider', '=', provider)
          .where('collection', '=', collection)
          .where('key_hash', '=', hashSecret(key))
          .executeTakeFirst();
        if (!found || Date.parse(found.expires_at) <= ctx.clock.now().getTime()) return null;
        return JSON.parse(found.value) as T;
      },

      async set(key: string, value: unknown, ttlMs: number): Promise<void> {
        if (!(ttlMs > 0 && ttlMs <= PROVIDER_STORAGE_MAX_TTL_MS)) {
          throw new Error(`Provider storage keeps records for at most ${PROVIDER_STORAGE_MAX_TTL_MS} ms`);
        }
        const json = JSON.stringify(value);
        if (json === undefined || json.length > MAX_VALUE_CHARS) {
          throw new Error(`Provider storage values are JSON of at most ${MAX_VALUE_CHARS} characters`);
        }
        const now = ctx.clock.now();
        const written = { value: json, created_at: now.toISOString(), expires_at: isoAfter(now, ttlMs) };
        await ctx.db.deleteFrom('_cms_provider_storage').where('expires_at', '<=', now.toISOString()).execute();
        await ctx.db
          .insertInto('_cms_provider_storage')
          .values({ ...row(key), ...written })
          .onConflict((oc) => oc.columns(['provider', 'collection', 'key_hash']).doUpdateSet(written))
          .execute();
      },

      async delete(key: string): Promise<void> {
        const { key_hash } = row(key);
        await ctx.db
          .deleteFrom('_cms_provider_storage')
          .where('provider', '=', provider)
          .where('collection', '=', collection)
          .where('key_hash', '=', key_hash)
          .execute();
      },
    };
  };
}

export type ProviderStorageFactory = ReturnType<typeof providerStorage>;
