import type { ServiceContext } from '../../context.js';
import { fetchJson, siteRoot } from './fetch-json.js';

/**
 * The connect stage for a live site: is it WordPress, and how can it be
 * imported? The REST index (`/wp-json/`) names the site and its API
 * namespaces; the exporter plugin adds `cms/v1`. A plain REST match only
 * recommends an export-file upload: the public API does not expose drafts,
 * private content, comments' threads or menus, so it never imports directly.
 */

export interface ProbeMatch {
  source: 'blogplatform-plugin' | 'blogplatform-rest';
  /** Whether this source can import content (the REST match cannot). */
  canImport: boolean;
  confidence: 'high' | 'medium';
  message: string;
}

export interface ProbeResult {
  url: string;
  isBlogPlatform: boolean;
  site: { name: string; description: string } | null;
  bestMatch: ProbeMatch | null;
  allMatches: ProbeMatch[];
}

export const EXPORTER_NAMESPACE = 'cms/v1';

export async function probeSite(ctx: ServiceContext, rawUrl: string): Promise<ProbeResult> {
  const url = siteRoot(rawUrl);
  let index: unknown;
  try {
    index = await fetchJson(ctx, `${url}/wp-json/`, {}, 15_000);
  } catch {
    // Not reachable or not JSON: not a WordPress site we can talk to.
    return { url, isBlogPlatform: false, site: null, bestMatch: null, allMatches: [] };
  }
  const doc = (index ?? {}) as { name?: unknown; description?: unknown; namespaces?: unknown };
  const namespaces = Array.isArray(doc.namespaces) ? doc.namespaces.filter((n) => typeof n === 'string') : [];
  if (!namespaces.some((n) => n === 'wp/v2')) {
    return { url, isBlogPlatform: false, site: null, bestMatch: null, allMatches: [] };
  }
  const allMatches: ProbeMatch[] = [];
  if (namespaces.includes(EXPORTER_NAMESPACE)) {
    allMatches.push({
      source: 'blogplatform-plugin',
      canImport: true,
      confidence: 'high',
      message:
        'The exporter plugin is installed: connect with a migration key or a user and application password to import directly',
    });
  }
  allMatches.push({
    source: 'blogplatform-rest',
    canImport: false,
    confidence: 'medium',
    message:
      'Only the public REST API is available: it cannot import drafts, comments or menus. Upload an export file (Tools → Export) or install the exporter plugin',
  });
  return {
    url,
    isBlogPlatform: true,
    site: {
      name: typeof doc.name === 'string' ? doc.name : '',
      description: typeof doc.description === 'string' ? doc.description : '',
    },
    bestMatch: allMatches[0],
    allMatches,
  };
}
