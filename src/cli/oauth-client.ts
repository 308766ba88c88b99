import { CliError } from './errors.js';

/**
 * The small OAuth client the CLI needs against its own server: discovery
 * (RFC 8414), registration (RFC 7591), the device grant (RFC 8628), refresh
 * and revocation (RFC 7009). Plain fetch; errors become one-line CliErrors.
 */
export interface ServerMetadata {
  issuer: string;
  token_endpoint: string;
  registration_endpoint: string;
  device_authorization_endpoint: string;
  revocation_endpoint: string;
  scopes_supported: string[];
}

export interface DeviceStart {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete?: string;
  expires_in: number;
  interval?: number;
}

export interface TokenSet {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  scope: string;
}

export class OAuthReply extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    description: string,
    readonly retryAfter: number | null,
  ) {
    super(description || error);
  }
}

/** `https://cms.example.com/` → `https://cms.example.com`; refuses what is not an http(s) URL. */
export function siteUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new CliError(`"${input}" is not a URL (expected e.g. https://cms.example.com)`, 2);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CliError('--url must be an http(s) URL', 2);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

async function send(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
  } catch (err) {
    throw new CliError(`Cannot reach ${new URL(url).origin}: ${(err as Error).message}`);
  }
}

async function oauthPost(url: string, params: Record<string, string>): Promise<unknown> {
  const res = await send(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(params).toString(),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    // Not JSON: reported below by status.
  }
  if (!res.ok) {
    const retry = Number(res.headers.get('retry-after'));
    throw new OAuthReply(
      res.status,
      typeof body.error === 'string' ? body.error : `http_${res.status}`,
      typeof body.error_description === 'string' ? body.error_description : '',
      Number.isFinite(retry) && retry > 0 ? retry : null,
    );
  }
  return body;
}

export async function discover(site: string): Promise<ServerMetadata> {
  const res = await send(`${site}/.well-known/oauth-authorization-server/_cms`, {
    headers: { accept: 'application/json' },
  });
  if (!res.ok) throw new CliError(`${site} does not look like a CMS (discovery answered HTTP ${res.status})`);
  const meta = (await res.json()) as ServerMetadata;
  const expected = `${site}/_cms`;
  if (meta.issuer !== expected) {
    const canonical = meta.issuer?.replace(/\/_cms$/, '');
    throw new CliError(`The server's public address is ${canonical}, not ${site}; run: cms login --url ${canonical}`);
  }
  return meta;
}

export async function registerCli(meta: ServerMetadata, name: string): Promise<string> {
  const res = await send(meta.registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      client_name: name,
      grant_types: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
      scope: meta.scopes_supported.join(' '),
    }),
  });
  const body = (await res.json().catch(() => ({}))) as { client_id?: string; error_description?: string };
  if (res.status !== 201 || !body.client_id) {
    throw new CliError(
      `Registering the command line failed (HTTP ${res.status}${body.error_description ? `: ${body.error_description}` : ''})`,
    );
  }
  return body.client_id;
}

export const startDevice = (meta: ServerMetadata, clientId: string, scope: string) =>
  oauthPost(meta.device_authorization_endpoint, { client_id: clientId, scope }) as Promise<DeviceStart>;

/** The dedicated device polling endpoint (the token endpoint takes the grant too). */
export const devicePollUrl = (site: string) => `${site}/_cms/api/oauth/device/token`;

export const pollDevice = (site: string, clientId: string, deviceCode: string) =>
  oauthPost(devicePollUrl(site), {
    grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
    client_id: clientId,
    device_code: deviceCode,
  }) as Promise<TokenSet>;

export const tokenUrl = (site: string) => `${site}/_cms/api/oauth/token`;
export const revocationUrl = (site: string) => `${site}/_cms/api/oauth/revoke`;

export const refreshTokens = (site: string, clientId: string, refreshToken: string) =>
  oauthPost(tokenUrl(site), {
    grant_type: 'refresh_token',
    client_id: clientId,
    refresh_token: refreshToken,
  }) as Promise<TokenSet>;

export async function revokeToken(site: string, clientId: string, token: string): Promise<void> {
  await oauthPost(revocationUrl(site), { client_id: clientId, token, token_type_hint: 'refresh_token' });
}
