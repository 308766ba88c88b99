import type { Context } from 'hono';
import type { Actor } from '../../auth/actor.js';
import { bearerFrom } from '../../auth/tokens.js';
import { CmsError } from '../../core/errors.js';
import type { AppEnv } from '../env.js';

/** The actor of an `Authorization` header: a token that does not resolve is a 401 at once, never anonymous. */
export async function bearerActor(c: Context<AppEnv>, header: string): Promise<Actor> {
  const token = bearerFrom(header);
  if (!token) throw new CmsError('UNAUTHORIZED', 'Authorization header must be "Bearer <token>"');
  const actor = await c.get('services').tokens.authenticate(token);
  if (!actor) throw new CmsError('UNAUTHORIZED', 'Invalid, expired or revoked token');
  return actor;
}
