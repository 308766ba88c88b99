import { z } from 'zod';
import { issuesError } from '../../core/errors.js';
import { SLUG_PATTERN } from '../fields/types.js';

/**
 * Value rules of collections and block types that the request schemas are
 * built from; a site package's schema records are judged by the same ones.
 */
export const SCHEMA_LABEL = z.string().trim().min(1).max(200);
export const SCHEMA_DESCRIPTION = z.string().max(2000).nullable();
export const SCHEMA_ICON = z.string().max(100).nullable();

/** A block type version holds 1 to 100 fields. */
export const MAX_BLOCK_FIELDS = 100;

/** Where a stored block sits names its type by slug: an identifier of at most 63 characters. */
export function checkBlockTypeSlug(slug: string): void {
  if (!SLUG_PATTERN.test(slug) || slug.length > 63) {
    throw issuesError('Invalid block type slug', [
      { path: ['slug'], code: 'invalid_slug', message: 'must match ^[a-z][a-z0-9_]*$ (at most 63 characters)' },
    ]);
  }
}
