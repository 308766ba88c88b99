import type { ProviderDescriptor } from './types.js';

/** Where the provider routes live, relative to the site root. */
export const OAUTH_ROUTES = '/_cms/api/auth/oauth';

/** The registered callback of a provider: `{publicUrl}/_cms/api/auth/oauth/<id>/callback`. */
export function callbackUrlOf(publicUrl: string, id: string): string {
  return `${publicUrl}${OAUTH_ROUTES}/${id}/callback`;
}

/**
 * The descriptor of a provider served by the framework's start and callback routes
 * (the included OAuth providers): the admin's shared button, no storage of its own.
 */
export function oauthDescriptor(id: string, label: string): ProviderDescriptor {
  return {
    id,
    label,
    adminEntry: 'builtin:oauth-button',
    routes: [
      { pattern: `${OAUTH_ROUTES}/${id}/start`, entrypoint: 'builtin:oauth/start' },
      { pattern: `${OAUTH_ROUTES}/${id}/callback`, entrypoint: 'builtin:oauth/callback' },
    ],
    publicRoutes: [`${OAUTH_ROUTES}/${id}/`],
    storage: [],
  };
}
