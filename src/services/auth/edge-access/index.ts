import { type Actor, personActor, systemActor } from '../../../auth/actor.js';
import type { EdgeAccessConfig } from '../../../core/config-auth.js';
import { CmsError, isCmsError, isUniqueViolation } from '../../../core/errors.js';
import { lockKey } from '../../../db/locks.js';
import { inTransaction } from '../../context.js';
import { normalizeEmail, toUser, type User } from '../../users/index.js';
import type { AuthDeps } from '../deps.js';
import type { NewSession } from '../sessions.js';
import { roleForGroups } from './roles.js';
import { type EdgeAccessIdentity, edgeAccessVerifier } from './verify.js';

export type { EdgeAccessIdentity } from './verify.js';

/** The gateway's clock and ours may differ: a token counts as a new sign-in only this much after the session. */
const NEW_SIGN_IN_MARGIN_MS = 30_000;

// A person in a browser, as with a session of the default mode: the same CSRF rule and the same rights.
const userActor = (user: User): Actor => personActor(user, 'session');

/**
 * The edge access gateway mode: every protected request carries the gateway's signed token.
 * It is checked on every request; the local user is found by address (or provisioned), gets
 * its role from the groups, and is recorded in a session. The session only spares the user
 * lookup and marks where one gateway sign-in ends: without a valid token it counts for nothing.
 */
export function edgeAccessOps(deps: AuthDeps, config: EdgeAccessConfig) {
  const { ctx } = deps;
  const verifier = edgeAccessVerifier(config, ctx.clock, ctx.log);

  async function identify(assertion: string): Promise<{ identity: EdgeAccessIdentity; email: string }> {
    const identity = await verifier.verify(assertion);
    let email: string;
    try {
      email = normalizeEmail(identity.email);
    } catch {
      throw new CmsError('EDGE_ACCESS_TOKEN_INVALID', 'The gateway token names an address that is not valid', {
        reason: 'claims',
      });
    }
    return { identity, email };
  }

  /** First request of a new user: created with the role the groups give; the very first user is an Admin. */
  async function provision(identity: EdgeAccessIdentity, email: string): Promise<User> {
    const create = () =>
      inTransaction(ctx.db, async (trx) => {
        // Concurrent first requests (the admin loads several resources at once) create one user, and
        // two people arriving on an empty site cannot both become the first Admin.
        await lockKey(trx, ctx.dialect, 'edge-access:provision');
        const existing = await trx.selectFrom('_cms_users').selectAll().where('email', '=', email).executeTakeFirst();
        if (existing) return { user: toUser(existing), first: false, created: false };
        const role = roleForGroups(config, identity.groups);
        const made = await deps.users.create(null, { email, name: identity.name, role }, trx);
        return { ...made, created: true };
      });
    let result: Awaited<ReturnType<typeof create>>;
    try {
      result = await create();
    } catch (err) {
      // Another process created the same address between our read and our insert (SQLite has no advisory lock).
      if (!isUniqueViolation(err) && !(isCmsError(err) && err.code === 'ALREADY_EXISTS')) throw err;
      const again = await deps.users.findByEmail(email);
      if (!again) throw err;
      return again;
    }
    if (result.created) {
      ctx.log.info(
        { userId: result.user.id, subject: identity.subject, role: result.user.role, first: result.first },
        'edge access: user provisioned',
      );
    }
    return result.user;
  }

  /** With `syncRoles`, the groups replace the role at each gateway sign-in (never demoting the last Admin). */
  async function syncRole(user: User, identity: EdgeAccessIdentity): Promise<User> {
    const role = roleForGroups(config, identity.groups);
    if (role === user.role) return user;
    try {
      await deps.users.admin.update(systemActor, user.id, { role });
      return { ...user, role };
    } catch (err) {
      if (isCmsError(err) && err.code === 'LAST_ADMIN') {
        ctx.log.warn({ userId: user.id, role }, 'edge access: the groups would demote the last Admin; role kept');
        return user;
      }
      throw err;
    }
  }

  /** A gateway sign-in: the user for the identity, provisioned and role-synced as configured. */
  async function userFor(identity: EdgeAccessIdentity, email: string): Promise<User> {
    const found = await deps.users.findByEmail(email);
    if (!found && !config.autoProvision) {
      throw new CmsError(
        'EDGE_ACCESS_USER_NOT_AUTHORIZED',
        'The gateway let this person through, but this site has no user with their address and does not create users (autoProvision is off)',
      );
    }
    const user = found ?? (await provision(identity, email));
    if (user.disabled) throw new CmsError('FORBIDDEN', 'This account is disabled');
    return found && config.syncRoles ? syncRole(user, identity) : user;
  }

  /**
   * A request carrying the gateway token (and perhaps the session cookie of an earlier one). The
   * session is reused while it belongs to the token's user and is not older than the gateway
   * sign-in the token comes from; otherwise this is a sign-in: a new session, and the role rules.
   */
  async function authenticate(
    assertion: string,
    sessionId: string | null,
  ): Promise<{ actor: Actor; session: NewSession | null }> {
    const { identity, email } = await identify(assertion);
    if (sessionId) {
      const current = await deps.sessions.resolveSession(sessionId);
      const signedInSince =
        identity.issuedAt === null ||
        (current !== null && identity.issuedAt <= Date.parse(current.createdAt) + NEW_SIGN_IN_MARGIN_MS);
      if (current && current.actor.email === email && signedInSince) return { actor: current.actor, session: null };
    }
    const user = await userFor(identity, email);
    const session = await deps.sessions.create(ctx.db, user.id, 'edge_access', sessionId);
    return { actor: userActor(user), session };
  }

  /**
   * A Bearer token (personal or OAuth) behind the gateway: accepted only with a valid gateway
   * token of the same person, so the gateway stays the authority for every protected route.
   */
  async function confirmBearer(assertion: string, actor: Actor): Promise<void> {
    const { email } = await identify(assertion);
    if (actor.email?.toLowerCase() !== email) {
      throw new CmsError('FORBIDDEN', 'The Bearer token belongs to another user than the one the gateway signed in');
    }
  }

  return {
    authenticate,
    confirmBearer,
    /** Where the gateway ends its own sign-in (the admin's Sign out goes there). */
    signOutUrl: `https://${config.teamDomain}/cdn-cgi/access/logout`,
  };
}

export type EdgeAccessOps = ReturnType<typeof edgeAccessOps>;
