import type { NodeSavedSession } from '@atproto/oauth-client-node';
import { ROLES } from '../../../auth/roles.js';
import { CmsError, isCmsError, validationError } from '../../../core/errors.js';
import { atprotoClient, CLIENT_METADATA_DOCUMENT, clientMetadata } from './atproto-client.js';
import { atprotoFetch } from './atproto-fetch.js';
import { OAUTH_ROUTES, oauthDescriptor } from './descriptor.js';
import type { LoginProvider, LoginProviderDefinition, ProviderDescriptor, VerifiedIdentity } from './types.js';

const ID = 'atproto';
const LABEL = 'AT Protocol';
/** What the library writes into a resolved identity whose handle does not resolve back to its DID. */
const HANDLE_INVALID = 'handle.invalid';
const HANDLE = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
const DID = /^did:(plc:[a-z2-7]{24}|web:[a-zA-Z0-9.%-]+(:[A-Za-z0-9._%-]+)*)$/;

interface AtprotoOptions {
  allowedHandles?: string[];
  allowedDIDs?: string[];
  defaultRole?: number;
  allowPrivateNetwork?: boolean;
}

/** A handle (`alice.example.com`, `@Alice.Example.com`) or a DID (did:plc, did:web), as the library takes it. */
export function atprotoTarget(raw: string): string {
  const value = raw.trim();
  if (value.startsWith('did:')) {
    if (DID.test(value) && value.length <= 2048) return value;
  } else {
    const handle = value.replace(/^@/, '').toLowerCase();
    if (handle.length < 254 && HANDLE.test(handle)) return handle;
  }
  throw validationError('Type your handle, such as alice.bsky.social, or your DID (did:plc:… or did:web:…)');
}

/** Every error in a chain of causes (the library wraps what went wrong). */
function causes(err: unknown): Error[] {
  const out: Error[] = [];
  for (let e = err; e instanceof Error && out.length < 10; e = e.cause) out.push(e);
  return out;
}

/** Why a sign-in could not start: our own refusal, a handle or DID that does not resolve, or the servers. */
function beginFailure(err: unknown, target: string): CmsError {
  const chain = causes(err);
  const own = chain.find(isCmsError);
  if (own) return own;
  const identity = chain.some((e) => e.message.startsWith('Failed to resolve identity'));
  const outage = chain.some(
    (e) =>
      e.name === 'FetchRequestError' ||
      (e.name === 'FetchResponseError' && Number((e as { statusCode?: unknown }).statusCode) >= 500),
  );
  if (identity && !outage) {
    return new CmsError(
      'PROVIDER_HANDLE_INVALID',
      `${target} could not be found: check the handle (its DID document must name it back)`,
      { input: target },
    );
  }
  return new CmsError('PROVIDER_FAILED', `The AT Protocol sign-in for ${target} could not start`);
}

function descriptor(): ProviderDescriptor {
  const base = oauthDescriptor(ID, LABEL);
  return {
    ...base,
    adminEntry: 'builtin:atproto-form',
    routes: [
      ...base.routes,
      { pattern: `${OAUTH_ROUTES}/${ID}/${CLIENT_METADATA_DOCUMENT}`, entrypoint: 'builtin:oauth/document' },
    ],
    storage: ['oauth_states'],
  };
}

/**
 * The AT Protocol (Bluesky and every other PDS) login provider, on `@atproto/oauth-client-node`:
 * a form provider (the person types a handle or a DID), a public OAuth client (no secret), PAR,
 * PKCE and DPoP as the AT Protocol's OAuth profile requires, all done by the library. The library
 * keys its own `state`, so `callbackState` finds the framework's state in the library's stored
 * authorization state. The verified identity is the account's DID (the token's `sub`, which the
 * library checks is served by the authorization server that issued it) with its handle when the
 * handle resolves back to that DID, and no address.
 *
 * It is installed separately from the included providers: `cms serve` registers it; a program
 * embedding `createCms` calls `registerLoginProvider(atprotoProvider)` before creating the service.
 */
export const atprotoProvider: LoginProviderDefinition = {
  id: ID,
  create(settings, env): LoginProvider {
    const options = settings.options as AtprotoOptions;
    const allowedHandles = new Set(options.allowedHandles ?? []);
    const allowedDIDs = new Set(options.allowedDIDs ?? []);
    const role = options.defaultRole ?? ROLES.SUBSCRIBER;
    const { loopback, metadata } = clientMetadata(env.publicUrl, env.callbackUrl);
    const plcUrl = settings.urls.plcUrl;
    const handleResolver = settings.urls.handleResolver || null;
    const configured = [plcUrl, ...(handleResolver ? [handleResolver] : [])];
    // Plain http only when the site itself points at loopback services (checkProviderUrl allows no other http).
    const allowHttp = configured.some((u) => u.startsWith('http:'));
    const client = (sessions?: Map<string, NodeSavedSession>) =>
      atprotoClient(
        {
          metadata,
          states: env.storage('oauth_states'),
          fetch: atprotoFetch(env.fetch, {
            configured,
            allowHttp,
            privateNetwork: options.allowPrivateNetwork === true,
          }),
          plcUrl,
          handleResolver,
          allowHttp,
        },
        sessions,
      );

    return {
      id: ID,
      label: LABEL,
      kind: 'form',
      descriptor: descriptor(),

      async begin(input) {
        const target = atprotoTarget(input.input ?? '');
        try {
          const url = await (await client()).authorize(target, { state: input.state, scope: 'atproto' });
          return { url: url.toString() };
        } catch (err) {
          const failure = beginFailure(err, target);
          if (failure.code === 'PROVIDER_FAILED')
            env.log.warn({ err, input: target }, 'AT Protocol sign-in could not start');
          throw failure;
        }
      },

      /** The library's state names its stored authorization state, which holds the framework's. */
      async callbackState(query) {
        const key = query.get('state');
        if (!key || key.length > 200) return null;
        const saved = await env.storage('oauth_states').get<{ appState?: unknown }>(key);
        return typeof saved?.appState === 'string' ? saved.appState : null;
      },

      async complete(input): Promise<VerifiedIdentity> {
        const sessions = new Map<string, NodeSavedSession>();
        const oauth = await client(sessions);
        const { session } = await oauth.callback(input.callbackUrl.searchParams);
        const did = session.did;
        try {
          // The handle counts only when it resolves back to this DID (the library checks both ways).
          const resolved = await oauth.identityResolver.resolve(did, { noCache: true });
          const handle = resolved.handle && resolved.handle !== HANDLE_INVALID ? resolved.handle : null;
          const listed = allowedDIDs.has(did) || (handle !== null && allowedHandles.has(handle));
          return {
            provider: ID,
            subject: did,
            address: null,
            addressVerified: false,
            name: handle,
            did,
            handle,
            allowlist: { listed, role },
          };
        } finally {
          // The tokens proved the DID; the service never calls the PDS, so they end with the sign-in.
          await oauth.revoke(did).catch(() => sessions.clear());
        }
      },

      document(name) {
        return name === CLIENT_METADATA_DOCUMENT && !loopback ? { ...metadata } : null;
      },
    };
  },
};
