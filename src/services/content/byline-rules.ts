import { z } from 'zod';
import { issuesError, type ValidationIssue } from '../../core/errors.js';
import { checkUrl } from '../fields/url.js';
import { slugify } from './slugs.js';

/**
 * Value rules of bylines and credits: the request bodies are built from
 * them, the byline service applies the link rule, and a site package's
 * bylines and credits are judged by the same ones.
 */
export const BYLINE_RULES = {
  displayName: z.string().trim().min(1).max(200),
  bio: z.string().max(5000).nullable(),
  /** avatarUrl and websiteUrl; the url rules apply too (bylineUrlIssues). */
  url: z.string().max(2000).nullable(),
  /** What a credit says the byline did ("Photography"). */
  roleLabel: z.string().max(100).nullable(),
};

/**
 * A byline's links are shown on pages as links and images: they follow the
 * url rules (absolute http(s), mailto:, tel:, a site path or a #fragment;
 * never `javascript:`, `data:` or a protocol-relative address).
 */
export function bylineUrlIssues(links: { avatarUrl?: string | null; websiteUrl?: string | null }): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const key of ['avatarUrl', 'websiteUrl'] as const) {
    const url = links[key];
    if (url === null || url === undefined) continue;
    const problem = checkUrl(url);
    if (problem) issues.push({ path: [key], code: 'unsafe_url', message: problem });
  }
  return issues;
}

/** bylineUrlIssues as a write applies it: throws VALIDATION_ERROR. */
export function checkBylineUrls(links: { avatarUrl?: string | null; websiteUrl?: string | null }): void {
  const issues = bylineUrlIssues(links);
  if (issues.length) throw issuesError('Invalid byline links', issues);
}

/** A slug a byline write makes: slugify's form, with the `-2`, `-3` … that keeps it unique in its locale. */
export function isBylineSlug(slug: string): boolean {
  const base = slug.replace(/-\d+$/, '');
  return slug !== '' && (slugify(slug) === slug || (base !== '' && slugify(base) === base));
}
