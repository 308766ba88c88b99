import type { Scope } from './scopes.js';

/** What each token scope opens, in the words the admin app shows when a token is made. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'content:read': 'Read and search content, bylines, taxonomies, terms, menus, sections, widgets and revisions',
  'content:write':
    'Create and change content, bylines and revisions; also manage taxonomies, menus, sections, widgets and search indexes',
  'media:read': 'Read the media library: files, folders and where they are used',
  'media:write': 'Upload, register, update and delete media and folders',
  'schema:read': 'Read collections and fields',
  'schema:write': 'Create, update and delete collections and fields',
  'taxonomies:manage': 'Create, update and delete taxonomy definitions and terms',
  'menus:manage': 'Create, update and delete menus and items',
  'settings:read': 'Read site settings',
  'settings:manage': 'Update site settings',
  'transfer:export': 'Export the site and download the package',
  'transfer:analyze': 'Upload a site package and analyze it',
  'transfer:execute': 'Start, advance, cancel and abandon a site import',
  'mcp:tools': 'Call tools of any enabled plugin (plugins are not built yet)',
  admin: 'Every core operation, including site transfer (plugin tools still need mcp:tools)',
};
