import { ConfigError } from '../../../core/config-error.js';
import { defineProviderConfig, knownProviderIds, type ProviderSettings } from '../../../core/config-providers.js';
import type { Logger } from '../../../core/log.js';
import { callbackUrlOf } from './descriptor.js';
import { entraProvider } from './entra.js';
import { githubProvider } from './github.js';
import { googleProvider } from './google.js';
import { outboundFetch } from './outbound.js';
import type { ProviderStorageFactory } from './storage.js';
import type { LoginProvider, LoginProviderDefinition } from './types.js';

const definitions = new Map<string, LoginProviderDefinition>();

/**
 * Make a provider type available to the `providers` list. The included
 * providers register here too; a package calls it when it is imported, before
 * the configuration is loaded (so its id and options are known to it):
 *
 *   import { registerLoginProvider } from 'cms';
 *   registerLoginProvider({
 *     id: 'acme',
 *     config: { options: z.object({}).strict(), credentials: 'client' },   // CMS_OAUTH_ACME_CLIENT_ID …
 *     create: (settings, env) => ({ id: 'acme', label: 'Acme', kind: 'button', descriptor, begin, complete }),
 *   });
 *
 * and the site lists `{ "id": "acme" }` in `providers`.
 */
export function registerLoginProvider(definition: LoginProviderDefinition): void {
  const existing = definitions.get(definition.id);
  if (existing && existing !== definition) throw new Error(`Login provider "${definition.id}" is already registered`);
  if (definition.config) defineProviderConfig(definition.id, definition.config);
  else if (!knownProviderIds().includes(definition.id)) {
    throw new Error(`Login provider "${definition.id}" needs a config rule (its options and credentials)`);
  }
  definitions.set(definition.id, definition);
}

registerLoginProvider(githubProvider);
registerLoginProvider(googleProvider);
registerLoginProvider(entraProvider);

export interface ProviderRegistry {
  /** In the configuration's order. */
  readonly list: readonly LoginProvider[];
  /** The login page's order: button-only providers first, then providers with a form, each group in list order. */
  readonly rendering: readonly LoginProvider[];
  get(id: string): LoginProvider | undefined;
  callbackUrl(id: string): string;
}

/** Make the configured providers, in list order. A listed id no package registered stops start-up. */
export function createProviderRegistry(
  settings: readonly ProviderSettings[],
  publicUrl: string,
  log: Logger,
  storage: ProviderStorageFactory,
): ProviderRegistry {
  const list = settings.map((entry, i) => {
    const definition = definitions.get(entry.id);
    if (!definition) {
      throw new ConfigError(
        `providers[${i}].id`,
        `the "${entry.id}" login provider is listed, but no installed package registers it`,
      );
    }
    const provider = definition.create(entry, {
      callbackUrl: callbackUrlOf(publicUrl, entry.id),
      publicUrl,
      log,
      fetch: outboundFetch(entry.id),
      storage: (collection) => storage(entry.id, collection),
    });
    if (provider.id !== entry.id)
      throw new Error(`Login provider "${entry.id}" made a provider with id "${provider.id}"`);
    return provider;
  });
  const byId = new Map(list.map((p) => [p.id, p]));
  const rendering = [...list.filter((p) => p.kind === 'button'), ...list.filter((p) => p.kind === 'form')];
  return {
    list,
    rendering,
    get: (id) => byId.get(id),
    callbackUrl: (id) => callbackUrlOf(publicUrl, id),
  };
}
