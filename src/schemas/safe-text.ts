import { z } from '@hono/zod-openapi';
import { isStorableText } from '../core/text.js';

/**
 * A string both databases store alike (no NUL, no unpaired surrogate; see
 * core/text.ts). Bodies are checked at the door already; query parameters
 * and MCP arguments reach the schema first, so the schema says it too.
 */
export function safeString() {
  return z.string().refine(isStorableText, { message: 'must not contain NUL characters or unpaired surrogates' });
}
