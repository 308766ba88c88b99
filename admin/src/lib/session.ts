import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { authApi, type Me } from '../api/auth';
import { ApiError } from '../api/errors';
import { ADMIN, EDITOR } from './roles';
import { setSiteTimeZone } from './timezone';

/**
 * The signed-in user and site, or null when signed out (401) — or, behind an edge access
 * gateway, when the gateway's token or its user is refused (403, or its keys are unreachable):
 * the login page then says why.
 */
export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: async (): Promise<Me | null> => {
    try {
      const me = await authApi.me();
      // Every date-time picker and schedule time uses the site's zone from here on.
      setSiteTimeZone(me?.site?.timezone);
      return me;
    } catch (err) {
      if (
        err instanceof ApiError &&
        (err.status === 401 || err.status === 403 || err.code.startsWith('EDGE_ACCESS_'))
      ) {
        return null;
      }
      throw err;
    }
  },
  staleTime: 60_000,
});

export const methodsQuery = queryOptions({
  queryKey: ['auth-methods'],
  queryFn: () => authApi.methods(),
  staleTime: 5 * 60_000,
});

export const setupStatusQuery = queryOptions({
  queryKey: ['setup-status'],
  queryFn: () => authApi.setupStatus(),
  staleTime: 30_000,
});

export const isAdmin = (me: Me | null | undefined) => (me?.user.role ?? 0) >= ADMIN;
export const isEditor = (me: Me | null | undefined) => (me?.user.role ?? 0) >= EDITOR;

/**
 * After sign-in or sign-out every cached answer belongs to someone else:
 * drop them all, then load the new session before routing on.
 */
export async function resetSession(queryClient: QueryClient): Promise<Me | null> {
  queryClient.clear();
  return queryClient.fetchQuery(meQuery);
}

/** Only same-app paths are accepted as a place to return to after sign-in. */
export function safeNext(next: unknown): string | undefined {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) {
    return undefined;
  }
  return next;
}
