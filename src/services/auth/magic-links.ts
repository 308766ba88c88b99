import { type Actor, requirePermission } from '../../auth/actor.js';
import { CmsError, notFound } from '../../core/errors.js';
import { inTransaction } from '../context.js';
import { normalizeEmail } from '../users/index.js';
import type { AuthDeps } from './deps.js';
import { magicLinkMessage, recoveryMessage } from './messages.js';
import { isUndeliverable } from './no-address.js';
import { sessionUser } from './present.js';
import { adminLink, hashSecret, isoAfter, MINUTE_MS, newSecret } from './secrets.js';

export const MAGIC_LINK_TTL_MS = 15 * MINUTE_MS;
const MINUTES = MAGIC_LINK_TTL_MS / MINUTE_MS;

/**
 * Magic links: 32 random bytes in the link, SHA-256 in the database, valid
 * 15 minutes. The mailed link opens a confirmation page in the admin app; only
 * its Continue button (POST /auth/magic-link/consume) uses the token, so a
 * link scanner's GET consumes nothing. The row is deleted when used.
 */
export function magicLinkOps(deps: AuthDeps) {
  const { ctx } = deps;

  function requireEmail() {
    if (!deps.email) {
      throw new CmsError('EMAIL_NOT_CONFIGURED', 'Email is not configured on this site, so links cannot be mailed');
    }
    return deps.email;
  }

  async function issue(userId: string, purpose: 'signin' | 'recovery', createdBy: string | null): Promise<string> {
    const now = ctx.clock.now();
    const { token, hash } = newSecret();
    await inTransaction(ctx.db, async (trx) => {
      await trx.deleteFrom('_cms_magic_links').where('expires_at', '<=', now.toISOString()).execute();
      // Only the newest link of a user works.
      await trx.deleteFrom('_cms_magic_links').where('user_id', '=', userId).execute();
      await trx
        .insertInto('_cms_magic_links')
        .values({
          token_hash: hash,
          user_id: userId,
          purpose,
          created_by: createdBy,
          created_at: now.toISOString(),
          expires_at: isoAfter(now, MAGIC_LINK_TTL_MS),
        })
        .execute();
    });
    return adminLink(ctx.config.publicUrl, 'magic-link', token);
  }

  /**
   * Always `{ sent: true }`; a link is mailed only to an existing, enabled user.
   * Everything that depends on whether the account exists (the lookup, the
   * link row, the mail) runs after the answer, so both answers do the same
   * work and take the same time.
   */
  async function send(rawEmail: string): Promise<{ sent: true }> {
    const mailer = requireEmail();
    const email = normalizeEmail(rawEmail);
    deps.later.run('magic-link send', async () => {
      const user = await deps.users.findByEmail(email);
      // An account without a real address (made from a DID) never gets mail.
      if (!user || user.disabled || isUndeliverable(user.email)) return;
      const link = await issue(user.id, 'signin', null);
      await mailer.send(magicLinkMessage(user.email, await deps.site.siteName(), link, MINUTES));
    });
    return { sent: true };
  }

  /** An Admin sends (or, without email, hands over) a recovery link to a user who lost their passkeys. */
  async function recovery(actor: Actor, userId: string): Promise<{ emailed: boolean; link: string | null }> {
    requirePermission(actor, 'users:manage');
    const user = await deps.users.get(userId);
    if (user.disabled) throw new CmsError('INVALID_STATE', 'The user is disabled; enable them first');
    const link = await issue(user.id, 'recovery', actor.userId);
    if (!deps.email || isUndeliverable(user.email)) return { emailed: false, link };
    try {
      await deps.email.send(recoveryMessage(user.email, await deps.site.siteName(), link, MINUTES));
      return { emailed: true, link: null };
    } catch (err) {
      ctx.log.error({ err, to: user.email }, 'sending the recovery mail failed; the link is shown instead');
      return { emailed: false, link };
    }
  }

  /**
   * A sign-in link for the command line (`cms users login-link`): for the operator of the server,
   * e.g. a first Admin made with `cms users create`, who has no passkey yet and perhaps no email.
   * Same rule as a recovery link: 15 minutes, single use, used only by the page's Continue.
   */
  async function commandLineLink(rawEmail: string): Promise<{ link: string; expiresInMinutes: number }> {
    const user = await deps.users.findByEmail(normalizeEmail(rawEmail));
    if (!user) throw notFound('User', { email: rawEmail });
    if (user.disabled) throw new CmsError('INVALID_STATE', 'The user is disabled; enable them first');
    return { link: await issue(user.id, 'recovery', null), expiresInMinutes: MINUTES };
  }

  async function consume(token: string, previousSession?: string | null) {
    const row = await ctx.db
      .deleteFrom('_cms_magic_links')
      .where('token_hash', '=', hashSecret(token))
      .returningAll()
      .executeTakeFirst();
    if (!row || Date.parse(row.expires_at) <= ctx.clock.now().getTime()) {
      throw notFound('Link', { reason: 'This link is invalid, already used or expired' });
    }
    const user = await deps.users.get(row.user_id);
    if (user.disabled) throw new CmsError('FORBIDDEN', 'This account is disabled');
    const session = await deps.sessions.create(
      ctx.db,
      user.id,
      row.purpose === 'recovery' ? 'recovery' : 'magic_link',
      previousSession,
    );
    return { user: sessionUser(user), session };
  }

  return { send, recovery, commandLineLink, consume };
}
