/**
 * Typed client for the documented REST operations, generated from the
 * service's own OpenAPI document (`npm run gen:api` → generated/api-schema.gen.ts,
 * shared with the command line's remote target).
 * A route or field missing from the document is a type error here.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../../../generated/api-schema.gen';
import { ApiError, networkError, toApiError } from './errors';
import { API_BASE, withCsrfHeader } from './http';

const csrf: Middleware = {
  onRequest({ request }) {
    withCsrfHeader(request.method, request.headers);
    return request;
  },
};

export const api = createClient<paths>({ baseUrl: API_BASE, credentials: 'same-origin' });
api.use(csrf);

type Fetched<T> = { data?: { success: true; data: T }; error?: unknown; response: Response };

/**
 * Await an openapi-fetch call and return `data` of the success envelope, or
 * throw ApiError built from the error envelope.
 */
export async function unwrap<T>(call: Promise<Fetched<T>>): Promise<T> {
  let result: Fetched<T>;
  try {
    result = await call;
  } catch (err) {
    throw networkError(err);
  }
  if (result.error !== undefined || !result.response.ok) throw toApiError(result.response.status, result.error);
  if (!result.data) throw new ApiError(result.response.status, 'HTTP_ERROR', 'The server sent an empty response.');
  return result.data.data;
}

type Ok<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': { data: infer D } } } };
}
  ? D
  : never;

export type User = Ok<'/admin/users/{id}', 'get'>;
export type UserPage = Ok<'/admin/users', 'get'>;
export type AllowedDomain = Ok<'/admin/allowed-domains/{domain}', 'put'>;
export type Schemas = components['schemas'];
