import type {
  NodeOAuthClient,
  NodeSavedSession,
  NodeSavedSessionStore,
  NodeSavedState,
  NodeSavedStateStore,
  OAuthClientMetadataInput,
} from '@atproto/oauth-client-node';
import { ConfigError } from '../../../core/config-error.js';
import type { atprotoFetch } from './atproto-fetch.js';
import { OAUTH_ROUTES } from './descriptor.js';
import { SIGNIN_TTL_MS } from './signins.js';
import type { ProviderStorage } from './types.js';

/** The public document the authorization server reads as the client's identity (its `client_id`). */
export const CLIENT_METADATA_DOCUMENT = 'client-metadata.json';

/**
 * How the service presents itself to AT Protocol authorization servers. There is nothing to
 * register: with an https `publicUrl` the `client_id` is the URL of the client metadata document
 * the service serves; with a loopback `publicUrl` it is the loopback client form the AT Protocol
 * allows for development (`http://localhost?redirect_uri=…`, redirect URI on 127.0.0.1, since
 * RFC 8252 keeps redirect URIs off `localhost`). Public client: no secret, no key of its own,
 * DPoP-bound tokens, the `atproto` scope only (the sign-in needs the account's DID, nothing else).
 */
export function clientMetadata(
  publicUrl: string,
  callbackUrl: string,
): { loopback: boolean; metadata: OAuthClientMetadataInput } {
  const site = new URL(publicUrl);
  if (site.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(site.hostname)) {
    const redirect = new URL(callbackUrl);
    if (redirect.hostname === 'localhost') redirect.hostname = '127.0.0.1';
    const redirectUri = redirect.href as `http://127.0.0.1/${string}`;
    return {
      loopback: true,
      metadata: {
        client_id: `http://localhost?${new URLSearchParams({ redirect_uri: redirectUri, scope: 'atproto' })}`,
        redirect_uris: [redirectUri],
        scope: 'atproto',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        application_type: 'native',
        dpop_bound_access_tokens: true,
      },
    };
  }
  if (site.protocol !== 'https:') {
    throw new ConfigError(
      'publicUrl',
      'the "atproto" login provider needs an https publicUrl (or, for development, one on localhost, 127.0.0.1 or ::1)',
    );
  }
  return {
    loopback: false,
    metadata: {
      client_id: `${publicUrl}${OAUTH_ROUTES}/atproto/${CLIENT_METADATA_DOCUMENT}`,
      client_uri: publicUrl,
      redirect_uris: [callbackUrl as `https://${string}`],
      scope: 'atproto',
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'web',
      dpop_bound_access_tokens: true,
    },
  };
}

type Library = typeof import('@atproto/oauth-client-node');
let library: Promise<Library> | null = null;
/** The AT Protocol client library, loaded with the first sign-in (it is large; most sites never need it). */
const load = () => (library ??= import('@atproto/oauth-client-node'));

export interface AtprotoClientOptions {
  metadata: OAuthClientMetadataInput;
  /** The library's authorization states: in the database, for as long as a sign-in may take. */
  states: ProviderStorage;
  fetch: ReturnType<typeof atprotoFetch>;
  plcUrl: string;
  /** An XRPC service answering com.atproto.identity.resolveHandle; null: DNS and the handle's web address. */
  handleResolver: string | null;
  allowHttp: boolean;
}

/**
 * A client for one step of one sign-in. The state store is the database (the callback may reach
 * another process than the start); the session store is this sign-in's own map: the tokens are
 * used for nothing but learning the account's DID, live only while the callback runs and are
 * revoked at its end, so they are never written anywhere.
 */
export async function atprotoClient(
  options: AtprotoClientOptions,
  sessions: Map<string, NodeSavedSession> = new Map(),
): Promise<NodeOAuthClient> {
  const lib = await load();
  const stateStore: NodeSavedStateStore = {
    get: async (key) => (await options.states.get<NodeSavedState>(key)) ?? undefined,
    set: (key, value) => options.states.set(key, value, SIGNIN_TTL_MS),
    del: (key) => options.states.delete(key),
  };
  const sessionStore: NodeSavedSessionStore = {
    get: (did) => sessions.get(did),
    set: (did, value) => {
      sessions.set(did, value);
    },
    del: (did) => {
      sessions.delete(did);
    },
  };
  return new lib.NodeOAuthClient({
    clientMetadata: options.metadata,
    stateStore,
    sessionStore,
    // Tokens are never refreshed, so no lock across processes is needed.
    requestLock: lib.requestLocalLock,
    fetch: options.fetch,
    plcDirectoryUrl: options.plcUrl,
    handleResolver: options.handleResolver ?? undefined,
    allowHttp: options.allowHttp,
    responseMode: 'query',
  });
}
