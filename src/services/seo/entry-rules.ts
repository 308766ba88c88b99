import { z } from 'zod';
import { isStorableText } from '../../core/text.js';

/**
 * The value rules of an entry's SEO object: the update body is built from
 * them, and a site package's SEO records are judged by them too.
 */
const storable = () =>
  z.string().refine(isStorableText, { message: 'must not contain NUL characters or unpaired surrogates' });

/** An absolute http(s) URL: a canonical link points at a page, never at a script. */
const absoluteUrl = storable()
  .max(2048)
  .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v), { message: 'must be an absolute http(s) URL' });

export const ENTRY_SEO_RULES = {
  title: storable().max(200).nullable(),
  description: storable().max(500).nullable(),
  canonical: absoluteUrl.nullable(),
};

/** The stored form of a text value: trimmed, null when blank. */
export const seoText = (value: string | null): string | null => value?.trim() || null;
