import { z } from 'zod';
import { ConfigError } from './config-error.js';

/**
 * The `providers` option: the login providers a site offers, as an ordered
 * list (file only; the order is the order the login page shows them in).
 *   file: { "providers": [{ "id": "github" }, { "id": "entra", "emailVerified": false },
 *           { "id": "atproto", "allowedHandles": ["alice.example.com"] }, { "id": "google" }] }
 *   env:  CMS_OAUTH_<ID>_CLIENT_ID, CMS_OAUTH_<ID>_CLIENT_SECRET (else <ID>_CLIENT_ID, <ID>_CLIENT_SECRET),
 *         CMS_OAUTH_ENTRA_TENANT_ID (else ENTRA_TENANT_ID),
 *         CMS_OAUTH_GOOGLE_ISSUER, CMS_OAUTH_ENTRA_AUTHORITY, CMS_OAUTH_GITHUB_URL, CMS_OAUTH_GITHUB_API_URL,
 *         CMS_OAUTH_ATPROTO_PLC_URL, CMS_OAUTH_ATPROTO_HANDLE_RESOLVER.
 * Secrets never live in the file: a listed provider whose variables are not set stops start-up
 * with one line naming the variable. The addresses a provider lives at are overridable for
 * self-hosted and sovereign identity services (and tests); plain http is accepted for loopback only.
 */

/** How one provider id is configured: its options beyond `id`, its credentials and its addresses. */
export interface ProviderConfigRule {
  /** The entry's options besides `id` (a strict object: unknown options are refused). */
  options: z.ZodObject;
  /** `client`: a client ID and secret; `none`: nothing secret (the AT Protocol provider). */
  credentials: 'client' | 'none';
  /** Needs a directory (tenant) ID as well (the enterprise directory provider). */
  tenant?: boolean;
  /** Addresses the provider lives at: the key the provider reads, its variable (prefixed only) and default ('' for none). */
  urls?: Record<string, { env: string; default: string }>;
}

/** A configured login provider, in list order, with what the environment supplied. */
export interface ProviderSettings {
  id: string;
  /** The entry's options (validated), without `id`. */
  options: Record<string, unknown>;
  clientId: string | null;
  clientSecret: string | null;
  /** Enterprise directory provider: a directory ID (lower-case GUID), `common`, `organizations` or `consumers`. */
  tenantId: string | null;
  /** Where the provider lives, without a trailing slash (keys as the rule's `urls`). */
  urls: Record<string, string>;
}

const DID = /^did:[a-z]+:[A-Za-z0-9._:%-]+$/;
const HANDLE = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;

const rules = new Map<string, ProviderConfigRule>([
  ['github', { options: z.object({}).strict(), credentials: 'client', urls: githubUrls() }],
  [
    'google',
    {
      options: z.object({}).strict(),
      credentials: 'client',
      urls: { issuer: { env: 'CMS_OAUTH_GOOGLE_ISSUER', default: 'https://accounts.google.com' } },
    },
  ],
  [
    'entra',
    {
      // true: every address counts as verified; false: none does (only linked users sign in).
      options: z.object({ emailVerified: z.boolean().optional() }).strict(),
      credentials: 'client',
      tenant: true,
      urls: { authority: { env: 'CMS_OAUTH_ENTRA_AUTHORITY', default: 'https://login.microsoftonline.com' } },
    },
  ],
  [
    'atproto',
    {
      options: z
        .object({
          allowedHandles: z
            .array(
              z
                .string()
                .trim()
                .toLowerCase()
                .transform((h) => h.replace(/^@/, ''))
                .pipe(z.string().regex(HANDLE, 'expected a handle such as "alice.example.com"')),
            )
            .optional(),
          allowedDIDs: z.array(z.string().regex(DID, 'expected a DID such as "did:plc:…"')).optional(),
          // The role of an account the allowlists admit (default Subscriber; at most Editor, as for allowed domains).
          defaultRole: z
            .number()
            .refine(
              (r) => [10, 20, 30, 40].includes(r),
              'must be 10, 20, 30 or 40 (allowlist sign-up never makes Admins)',
            )
            .optional(),
          // Reach handle hosts, PDSs and authorization servers on private addresses (one closed network).
          allowPrivateNetwork: z.boolean().optional(),
        })
        .strict(),
      credentials: 'none',
      // An empty handle resolver: handles are resolved through DNS and https://<handle>/.well-known/atproto-did.
      urls: {
        plcUrl: { env: 'CMS_OAUTH_ATPROTO_PLC_URL', default: 'https://plc.directory' },
        handleResolver: { env: 'CMS_OAUTH_ATPROTO_HANDLE_RESOLVER', default: '' },
      },
    },
  ],
]);

function githubUrls(): ProviderConfigRule['urls'] {
  return {
    url: { env: 'CMS_OAUTH_GITHUB_URL', default: 'https://github.com' },
    apiUrl: { env: 'CMS_OAUTH_GITHUB_API_URL', default: 'https://api.github.com' },
  };
}

/**
 * Make a provider id known to the configuration (a package registering its own provider does
 * this through `registerLoginProvider`). The included ids keep their rules.
 */
export function defineProviderConfig(id: string, rule: ProviderConfigRule): void {
  if (!/^[a-z][a-z0-9-]{0,31}$/.test(id))
    throw new Error(`Login provider id "${id}" must match ^[a-z][a-z0-9-]{0,31}$`);
  if (!rules.has(id)) rules.set(id, rule);
}

/** The ids the configuration accepts. */
export function knownProviderIds(): string[] {
  return [...rules.keys()];
}

const envName = (id: string) => id.toUpperCase().replace(/-/g, '_');

/** The variables a provider reads for a credential, prefixed first. */
export function credentialVariables(id: string, name: 'CLIENT_ID' | 'CLIENT_SECRET' | 'TENANT_ID'): [string, string] {
  return [`CMS_OAUTH_${envName(id)}_${name}`, `${envName(id)}_${name}`];
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MULTI_TENANT = new Set(['common', 'organizations', 'consumers']);

/** A directory ID or one of the multi-tenant values; a domain name is refused (its directory can change hands). */
export function checkTenant(raw: string, variable: string): string {
  const value = raw.trim();
  if (GUID.test(value)) return value.toLowerCase();
  if (MULTI_TENANT.has(value.toLowerCase())) return value.toLowerCase();
  if (value.includes('.')) {
    throw new ConfigError(
      variable,
      `"${value}" is a domain name; use the directory (tenant) ID, the GUID on the directory's overview page, or common, organizations or consumers`,
    );
  }
  throw new ConfigError(variable, 'must be a directory (tenant) ID (a GUID), common, organizations or consumers');
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** An address a provider lives at: https, or http on a loopback host; no credentials, query or fragment. */
export function checkProviderUrl(raw: string, variable: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(variable, `"${raw}" is not a URL`);
  }
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) {
    throw new ConfigError(variable, 'must use https (plain http is accepted only for 127.0.0.1, ::1 and localhost)');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(variable, 'must be an https URL');
  if (url.username || url.password || url.search || url.hash) {
    throw new ConfigError(variable, 'must be a plain address without credentials, query or fragment');
  }
  return url.href.replace(/\/+$/, '');
}

function read(env: NodeJS.ProcessEnv, names: string[]): string | null {
  for (const name of names) {
    const v = env[name];
    if (v !== undefined && v.trim() !== '') return v.trim();
  }
  return null;
}

function need(env: NodeJS.ProcessEnv, id: string, name: 'CLIENT_ID' | 'CLIENT_SECRET' | 'TENANT_ID'): [string, string] {
  const [prefixed, plain] = credentialVariables(id, name);
  const value = read(env, [prefixed, plain]);
  if (value === null) {
    throw new ConfigError(prefixed, `is not set (nor ${plain}); the "${id}" login provider in providers needs it`);
  }
  return [value, prefixed];
}

/**
 * Validate the file's list and complete each entry from the environment. Throws ConfigError
 * naming the key or variable: unknown id, duplicate id, unknown or invalid option, missing
 * credential, a domain name as tenant, an insecure address.
 */
export function resolveProviders(input: unknown, env: NodeJS.ProcessEnv): ProviderSettings[] {
  if (input === undefined) return [];
  if (!Array.isArray(input)) throw new ConfigError('providers', 'must be a list such as [{ "id": "github" }]');
  const seen = new Set<string>();
  return input.map((entry, i) => {
    const at = `providers[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new ConfigError(at, 'must be an object such as { "id": "github" }');
    }
    const { id, ...rest } = entry as Record<string, unknown>;
    if (typeof id !== 'string') throw new ConfigError(`${at}.id`, 'is required (a provider id such as "github")');
    const rule = rules.get(id);
    if (!rule)
      throw new ConfigError(`${at}.id`, `unknown login provider "${id}" (known: ${knownProviderIds().join(', ')})`);
    if (seen.has(id)) throw new ConfigError(`${at}.id`, `"${id}" is listed twice`);
    seen.add(id);
    const parsed = rule.options.safeParse(rest);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      if (issue.code === 'unrecognized_keys') throw new ConfigError(`${at}.${issue.keys.join(', ')}`, 'unknown option');
      throw new ConfigError(`${at}.${issue.path.join('.')}`, issue.message);
    }
    const settings: ProviderSettings = {
      id,
      options: parsed.data as Record<string, unknown>,
      clientId: null,
      clientSecret: null,
      tenantId: null,
      urls: {},
    };
    if (rule.credentials === 'client') {
      [settings.clientId] = need(env, id, 'CLIENT_ID');
      [settings.clientSecret] = need(env, id, 'CLIENT_SECRET');
    }
    if (rule.tenant) {
      const [tenant, variable] = need(env, id, 'TENANT_ID');
      settings.tenantId = checkTenant(tenant, variable);
    }
    for (const [key, where] of Object.entries(rule.urls ?? {})) {
      const raw = read(env, [where.env]);
      settings.urls[key] = raw === null ? where.default : checkProviderUrl(raw, where.env);
    }
    return settings;
  });
}
