/**
 * Byline routes are served but left out of the OpenAPI document (byline
 * administration is outside the REST contract; MCP is its supported door),
 * so the bylines panel reaches them through this small typed module, the
 * way ./auth.ts does for the sign-in routes.
 */

import type { components } from '../../../generated/api-schema.gen';
import { del, get, post, put, seg } from './http';

export type Byline = NonNullable<components['schemas']['Byline']>;

export interface BylinePage {
  items: Byline[];
  nextCursor?: string;
}

export interface BylineInput {
  displayName: string;
  slug?: string;
  bio?: string | null;
  websiteUrl?: string | null;
  userId?: string | null;
  locale?: string;
}

export const bylinesApi = {
  list: (q: { locale?: string; search?: string; cursor?: string; limit?: number } = {}) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') params.set(k, String(v));
    const qs = params.toString();
    return get<BylinePage>(`/bylines${qs ? `?${qs}` : ''}`);
  },
  create: (body: BylineInput) => post<Byline>('/bylines', body),
  update: (id: string, body: Partial<BylineInput>) => put<Byline>(`/bylines/${seg(id)}`, body),
  remove: (id: string) => del<{ deleted: true }>(`/bylines/${seg(id)}`),
};
