import type { Actor } from '../../auth/actor.js';
import { CmsError } from '../../core/errors.js';

/**
 * Consent is given by a person in a browser: only a session may approve or
 * deny an application (a token cannot mint itself new grants).
 */
export function requireSessionUser(actor: Actor): { userId: string; role: number } {
  if (actor.kind !== 'user' || !actor.userId) throw new CmsError('UNAUTHORIZED', 'Sign in to continue');
  if (actor.via !== 'session') {
    throw new CmsError('FORBIDDEN', 'Applications are approved by a signed-in person in the admin, not with a token');
  }
  return { userId: actor.userId, role: actor.role };
}
