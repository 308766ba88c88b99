import { z } from 'zod';
import { isRoleLevel, ROLES, type RoleLevel } from '../auth/roles.js';
import { ConfigError } from './config-error.js';
import { CmsError } from './errors.js';

/**
 * The `auth` option: which authentication mode the site runs in. Absent means the default mode
 * (passkeys, plus the login providers of the `providers` list). `"type": "edge-access"` puts the
 * site behind an edge access gateway that signs every request it lets through with a JWT:
 *   file: { "auth": { "type": "edge-access", "teamDomain": "myteam.cloudflareaccess.com",
 *           "audience": "<application audience tag>", "roleMapping": { "cms-admins": 50 } } }
 *   env:  the audience tag may come from the variable `audienceEnvVar` names (EDGE_ACCESS_AUDIENCE).
 * The mode is exclusive: it cannot be combined with login providers.
 */

export type AuthMode = 'default' | 'edge-access';

export const DEFAULT_AUDIENCE_ENV_VAR = 'EDGE_ACCESS_AUDIENCE';

export interface EdgeAccessConfig {
  type: 'edge-access';
  /** The gateway team's host name, e.g. `myteam.cloudflareaccess.com`. */
  teamDomain: string;
  /** The application audience tag tokens must carry in `aud`. */
  audience: string;
  /** Create users on their first request (false: only users that already exist get in). */
  autoProvision: boolean;
  /** Role of a new user whose groups match no `roleMapping` entry. */
  defaultRole: RoleLevel;
  /** Replace the role from the groups at every gateway sign-in (false: set at the first one only). */
  syncRoles: boolean;
  /** Group name → role level, in the order given: the first group the user is in wins. */
  roleMapping: ReadonlyArray<readonly [group: string, role: RoleLevel]>;
  /** Where the team's signing keys (a JWK set) are published. */
  certsUrl: string;
  /** The `iss` tokens must carry. */
  issuer: string;
}

export type AuthConfig = { type: 'default' } | EdgeAccessConfig;

/** The features the default mode has and the gateway mode takes away. */
export type GatedFeature =
  | 'login-page'
  | 'passkey-registration'
  | 'login-providers'
  | 'magic-link'
  | 'signup'
  | 'invites'
  | 'setup';

const FEATURE_NAMES: Record<GatedFeature, string> = {
  'login-page': 'Signing in on the login page',
  'passkey-registration': 'Registering passkeys',
  'login-providers': 'Signing in with login providers',
  'magic-link': 'Signing in with emailed links',
  signup: 'Self-service sign-up',
  invites: 'Inviting users',
  setup: 'The setup wizard',
};

/** The one rule for which authentication mode is on: every door and service asks this. */
export function authMode(config: { auth: AuthConfig }): AuthMode {
  return config.auth.type === 'edge-access' ? 'edge-access' : 'default';
}

/**
 * Refuse a feature the current mode does not offer: 409 AUTH_MODE_UNAVAILABLE, naming the mode
 * and the feature, so a client can tell "switched off by configuration" from a missing route.
 */
export function requireAuthFeature(config: { auth: AuthConfig }, feature: GatedFeature): void {
  const mode = authMode(config);
  if (mode === 'default') return;
  throw new CmsError(
    'AUTH_MODE_UNAVAILABLE',
    `${FEATURE_NAMES[feature]} is unavailable: this site signs people in through its edge access gateway`,
    { mode, feature },
  );
}

// A host name of two or more labels (no scheme, port or path): the issuer and keys are derived from it.
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
const ENV_VAR = /^[A-Za-z_][A-Za-z0-9_]*$/;
// JSON objects keep insertion order except for keys that look like array indexes, which come first:
// such a group name would silently change which group wins.
const INDEX_LIKE = /^(0|[1-9]\d*)$/;

const roleLevel = z.number().refine(isRoleLevel, 'must be a role level: 10, 20, 30, 40 or 50');

export const authSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('edge-access'),
      teamDomain: z
        .string()
        .trim()
        .toLowerCase()
        .regex(HOST_NAME, 'must be the team domain as a host name, e.g. "myteam.cloudflareaccess.com"'),
      audience: z.string().trim().min(1).max(1000).optional(),
      audienceEnvVar: z.string().regex(ENV_VAR, 'must be an environment variable name').optional(),
      autoProvision: z.boolean().default(true),
      defaultRole: roleLevel.default(ROLES.AUTHOR),
      syncRoles: z.boolean().default(false),
      roleMapping: z
        .record(z.string().min(1).max(256), roleLevel)
        .superRefine((mapping, ctx) => {
          for (const group of Object.keys(mapping)) {
            if (INDEX_LIKE.test(group)) {
              ctx.addIssue({
                code: 'custom',
                path: [group],
                message:
                  'a group name made only of digits cannot keep its place in a JSON object (it would be tried first); rename the group or map it by another name',
              });
            }
          }
        })
        .optional(),
      certsUrl: z.string().optional(),
      issuer: z.string().optional(),
    })
    .strict(),
]);

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const isLoopback = (host: string) => LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);

/** An address of the gateway: https, or plain http on a loopback host only (tests, private set-ups). */
function checkGatewayUrl(raw: string, key: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(key, 'must be an absolute https URL');
  }
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new ConfigError(key, 'must use https (plain http is accepted for a loopback address only)');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(key, 'must be an https URL');
  if (url.username || url.password || url.hash) throw new ConfigError(key, 'must not hold credentials or a fragment');
  return url;
}

/** The issuer is compared as a string with `iss`: kept as written (URL parsing would add a trailing slash). */
function issuerOf(raw: string): string {
  checkGatewayUrl(raw, 'auth.issuer');
  return raw.trim();
}

/**
 * Complete a parsed `auth` option. The audience comes from `audience`, else from the variable
 * `audienceEnvVar` names; with neither, start-up stops naming both. Login providers and the
 * gateway mode together are refused: the contract makes the gateway mode exclusive.
 */
export function resolveAuth(
  input: z.output<typeof authSchema> | undefined,
  context: { providers: unknown; env: NodeJS.ProcessEnv },
): AuthConfig {
  if (!input) return { type: 'default' };
  const providers = context.providers;
  if (providers !== undefined && providers !== null && !(Array.isArray(providers) && providers.length === 0)) {
    throw new ConfigError(
      'auth',
      'the edge access gateway mode ("auth": { "type": "edge-access" }) replaces login providers; remove "providers" or "auth"',
    );
  }
  const variable = input.audienceEnvVar ?? DEFAULT_AUDIENCE_ENV_VAR;
  const audience = input.audience ?? context.env[variable]?.trim();
  if (!audience) {
    throw new ConfigError(
      'auth.audience',
      `the edge access gateway mode needs the application audience tag: set "auth.audience" or the environment variable ${variable} (named by "auth.audienceEnvVar")`,
    );
  }
  return {
    type: 'edge-access',
    teamDomain: input.teamDomain,
    audience,
    autoProvision: input.autoProvision,
    defaultRole: input.defaultRole as RoleLevel,
    syncRoles: input.syncRoles,
    roleMapping: Object.entries(input.roleMapping ?? {}).map(([group, role]) => [group, role as RoleLevel] as const),
    certsUrl: input.certsUrl
      ? checkGatewayUrl(input.certsUrl, 'auth.certsUrl').href
      : `https://${input.teamDomain}/cdn-cgi/access/certs`,
    issuer: input.issuer ? issuerOf(input.issuer) : `https://${input.teamDomain}`,
  };
}
