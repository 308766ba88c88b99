import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { type Actor, requirePermission, roleName } from '../../auth/actor.js';
import { isRoleLevel } from '../../auth/roles.js';
import { CmsError, notFound, validationError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import type { InvitesTable } from '../../db/tables-identity.js';
import { inTransaction } from '../context.js';
import { normalizeEmail } from '../users/index.js';
import type { AuthDeps } from './deps.js';
import type { Enrolment } from './enrolment.js';
import { inviteMessage } from './messages.js';
import { isUndeliverable } from './no-address.js';
import { adminLink, DAY_MS, hashSecret, isoAfter, newSecret } from './secrets.js';

export const INVITE_TTL_MS = 7 * DAY_MS;

export interface Invite {
  id: string;
  email: string;
  role: number;
  roleName: string;
  createdAt: string;
  expiresAt: string;
  invitedBy: { id: string; email: string; name: string | null } | null;
}

const gone = () => notFound('Invite', { reason: 'This invitation is invalid, already used or expired' });

/**
 * Invites: an Admin names an email and a role; the link (32 random bytes,
 * stored as SHA-256) is mailed when email is configured, else shown to copy.
 * Single use, 7 days. The invitee creates the account with a passkey.
 */
export function inviteOps(deps: AuthDeps, enrol: Enrolment) {
  const { ctx } = deps;

  async function pendingByToken(db: Kdb, token: string): Promise<InvitesTable> {
    const row = await db
      .selectFrom('_cms_invites')
      .selectAll()
      .where('token_hash', '=', hashSecret(token))
      .executeTakeFirst();
    if (!row || Date.parse(row.expires_at) <= ctx.clock.now().getTime()) throw gone();
    return row;
  }

  async function list(actor: Actor): Promise<Invite[]> {
    requirePermission(actor, 'users:manage');
    const rows = await ctx.db
      .selectFrom('_cms_invites as i')
      .leftJoin('_cms_users as u', 'u.id', 'i.invited_by')
      .select(['i.id', 'i.email', 'i.role', 'i.created_at', 'i.expires_at', 'u.id as by_id', 'u.email as by_email'])
      .select('u.name as by_name')
      .where('i.expires_at', '>', ctx.clock.now().toISOString())
      .orderBy('i.created_at', 'desc')
      .orderBy('i.id', 'desc')
      .limit(500)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      email: r.email,
      role: r.role,
      roleName: roleName(r.role),
      createdAt: r.created_at,
      expiresAt: r.expires_at,
      invitedBy: r.by_id ? { id: r.by_id, email: r.by_email!, name: r.by_name } : null,
    }));
  }

  async function create(
    actor: Actor,
    input: { email: string; role: number },
  ): Promise<{ invite: Invite; link: string | null; emailed: boolean }> {
    requirePermission(actor, 'users:manage');
    const email = normalizeEmail(input.email);
    if (!isRoleLevel(input.role)) throw validationError('role must be one of 10, 20, 30, 40, 50');
    if (input.role > actor.role) {
      throw new CmsError('INSUFFICIENT_PERMISSIONS', 'You cannot invite someone with a role above your own');
    }
    if (await deps.users.findByEmail(email)) throw new CmsError('ALREADY_EXISTS', `${email} already has an account`);
    const now = ctx.clock.now();
    const { token, hash } = newSecret();
    const row: InvitesTable = {
      id: newId(),
      token_hash: hash,
      email,
      role: input.role,
      invited_by: actor.userId,
      created_at: now.toISOString(),
      expires_at: isoAfter(now, INVITE_TTL_MS),
    };
    await inTransaction(ctx.db, async (trx) => {
      // A new invite for the same address replaces the old one (its link stops working).
      await trx.deleteFrom('_cms_invites').where('email', '=', email).execute();
      await trx.insertInto('_cms_invites').values(row).execute();
    });
    const invite: Invite = {
      id: row.id,
      email,
      role: row.role,
      roleName: roleName(row.role),
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      invitedBy: actor.userId ? { id: actor.userId, email: actor.email ?? '', name: actor.name } : null,
    };
    const link = adminLink(ctx.config.publicUrl, 'invite', token);
    if (!deps.email || isUndeliverable(email)) return { invite, link, emailed: false };
    try {
      const site = await deps.site.siteName();
      await deps.email.send(inviteMessage(email, site, link, roleName(row.role), INVITE_TTL_MS / DAY_MS));
      return { invite, link: null, emailed: true };
    } catch (err) {
      ctx.log.error({ err, to: email }, 'sending the invitation failed; the link is shown instead');
      return { invite, link, emailed: false };
    }
  }

  async function revoke(actor: Actor, id: string): Promise<void> {
    requirePermission(actor, 'users:manage');
    const res = await ctx.db.deleteFrom('_cms_invites').where('id', '=', id).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) throw notFound('Invite');
  }

  /** What the invite page shows before the passkey is made. */
  async function lookup(token: string) {
    const row = await pendingByToken(ctx.db, token);
    return { email: row.email, role: row.role, roleName: roleName(row.role), siteTitle: await deps.site.siteName() };
  }

  async function acceptOptions(token: string) {
    const row = await pendingByToken(ctx.db, token);
    return enrol.start('invite', { id: newId(), email: row.email, name: null }, { inviteHash: row.token_hash });
  }

  /**
   * Take a pending invite for an account being created (single use: the row is deleted in the
   * statement that checks it; the caller's transaction undoes that if the account is not made).
   */
  async function take(db: Kdb, hash: string): Promise<InvitesTable | undefined> {
    return db
      .deleteFrom('_cms_invites')
      .where('token_hash', '=', hash)
      .where('expires_at', '>', ctx.clock.now().toISOString())
      .returningAll()
      .executeTakeFirst();
  }

  /** The pending invite a token names (404 when used or expired): what a login provider's start binds to. */
  async function pending(token: string): Promise<InvitesTable> {
    return pendingByToken(ctx.db, token);
  }

  async function accept(
    input: { token: string; challengeId: string; credential: RegistrationResponseJSON; name?: string | null },
    previousSession?: string | null,
  ) {
    const hash = hashSecret(input.token);
    await pendingByToken(ctx.db, input.token);
    const { userId, data, cred } = await enrol.finish<{ inviteHash: string }>(
      'invite',
      input.challengeId,
      input.credential,
    );
    if (data.inviteHash !== hash) throw validationError('This passkey request belongs to another invitation');
    return inTransaction(ctx.db, async (trx) => {
      const invite = await take(trx, hash);
      if (!invite) throw gone();
      return enrol.createAccount(
        trx,
        { id: userId, email: invite.email, name: input.name?.trim() || null, role: invite.role },
        cred,
        null,
        'invite',
        previousSession,
      );
    });
  }

  return { list, create, revoke, lookup, acceptOptions, accept, take, pending };
}
