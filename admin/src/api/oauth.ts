/**
 * The consent and device-verification routes of the OAuth authorization
 * server (hidden from the OpenAPI document; see docs/oauth.md). Session only.
 */
import { del, get, post, seg } from './http';

export interface ScopeChoice {
  scope: string;
  description: string;
  /** false when the signed-in user's role cannot use it. */
  allowed: boolean;
}

export interface ClientSummary {
  id: string;
  name: string;
  uri: string | null;
}

export interface ConsentRequest {
  id: string;
  client: ClientSummary;
  redirectUri: string;
  redirectHost: string;
  scopes: ScopeChoice[];
  expiresAt: string;
}

export interface DeviceRequest {
  userCode: string;
  client: ClientSummary;
  scopes: ScopeChoice[];
  expiresAt: string;
}

export const oauthApi = {
  consent: (id: string) => get<ConsentRequest>(`/oauth/requests/${seg(id)}`),
  approve: (id: string, scopes: string[]) =>
    post<{ redirectTo: string; scopes: string[] }>(`/oauth/requests/${seg(id)}/approve`, { scopes }),
  deny: (id: string) => post<{ redirectTo: string }>(`/oauth/requests/${seg(id)}/deny`),
  device: (userCode: string) => get<DeviceRequest>(`/oauth/device/verify/${seg(userCode)}`),
  approveDevice: (userCode: string, scopes: string[]) =>
    post<{ approved: true; scopes: string[] }>(`/oauth/device/verify/${seg(userCode)}/approve`, { scopes }),
  denyDevice: (userCode: string) => post<{ denied: true }>(`/oauth/device/verify/${seg(userCode)}/deny`),
};

export interface Connection {
  id: string;
  client: ClientSummary;
  scopes: string[];
  renewedAt: string;
  expiresAt: string;
}

export const connectionsApi = {
  list: () => get<{ items: Connection[] }>('/oauth/connections'),
  disconnect: (id: string) => del<{ disconnected: true }>(`/oauth/connections/${seg(id)}`),
};
