import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { roleName } from '../../auth/actor.js';
import { CmsError, notFound, validationError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import { inTransaction } from '../context.js';
import { normalizeEmail } from '../users/index.js';
import type { AuthDeps } from './deps.js';
import type { DomainOps } from './domains.js';
import type { Enrolment } from './enrolment.js';
import { signupMessage } from './messages.js';
import { adminLink, HOUR_MS, hashSecret, isoAfter, newSecret } from './secrets.js';

/** A sign-up verification link is valid for 24 hours and works once. */
export const SIGNUP_TTL_MS = 24 * HOUR_MS;

const gone = () => notFound('Sign-up request', { reason: 'This link is invalid, already used or expired' });

/**
 * Sign-up with an allowed email domain: request → verification mail → the
 * link's page makes a passkey → the account is created with the domain's
 * default role. The request answer never reveals whether an address is known.
 */
export function signupOps(deps: AuthDeps, domains: DomainOps, enrol: Enrolment) {
  const { ctx } = deps;

  function requireEmail() {
    if (!deps.email) {
      throw new CmsError('EMAIL_NOT_CONFIGURED', 'Email is not configured on this site, so sign-up is not available');
    }
    return deps.email;
  }

  async function pending(token: string, db: Kdb = ctx.db) {
    const row = await db
      .selectFrom('_cms_signup_requests')
      .selectAll()
      .where('token_hash', '=', hashSecret(token))
      .executeTakeFirst();
    if (!row || Date.parse(row.expires_at) <= ctx.clock.now().getTime()) throw gone();
    const domain = await domains.forEmail(row.email, db);
    if (!domain) throw new CmsError('FORBIDDEN', `Sign-up is closed for ${row.domain}`);
    return { row, role: domain.default_role };
  }

  /**
   * Always `{ sent: true }`; a mail goes out only for an allowed domain and an
   * address without an account. The checks run after the answer, so its timing
   * tells known from unknown addresses no more than its body does.
   */
  async function request(rawEmail: string): Promise<{ sent: true }> {
    const mailer = requireEmail();
    const email = normalizeEmail(rawEmail);
    deps.later.run('sign-up request', async () => {
      const domain = await domains.forEmail(email);
      if (!domain || (await deps.users.findByEmail(email))) return;
      const now = ctx.clock.now();
      const { token, hash } = newSecret();
      await inTransaction(ctx.db, async (trx) => {
        await trx.deleteFrom('_cms_signup_requests').where('expires_at', '<=', now.toISOString()).execute();
        await trx.deleteFrom('_cms_signup_requests').where('email', '=', email).execute();
        await trx
          .insertInto('_cms_signup_requests')
          .values({
            token_hash: hash,
            email,
            domain: domain.domain,
            created_at: now.toISOString(),
            expires_at: isoAfter(now, SIGNUP_TTL_MS),
          })
          .execute();
      });
      const link = adminLink(ctx.config.publicUrl, 'signup', token);
      await mailer.send(signupMessage(email, await deps.site.siteName(), link, SIGNUP_TTL_MS / HOUR_MS));
    });
    return { sent: true };
  }

  async function lookup(token: string) {
    const { row, role } = await pending(token);
    return { email: row.email, role, roleName: roleName(role) };
  }

  async function options(token: string) {
    const { row } = await pending(token);
    return enrol.start('signup', { id: newId(), email: row.email, name: null }, { signupHash: row.token_hash });
  }

  async function complete(
    input: { token: string; challengeId: string; credential: RegistrationResponseJSON; name?: string | null },
    previousSession?: string | null,
  ) {
    const hash = hashSecret(input.token);
    await pending(input.token);
    const { userId, data, cred } = await enrol.finish<{ signupHash: string }>(
      'signup',
      input.challengeId,
      input.credential,
    );
    if (data.signupHash !== hash) throw validationError('This passkey request belongs to another sign-up');
    return inTransaction(ctx.db, async (trx) => {
      const req = await trx
        .deleteFrom('_cms_signup_requests')
        .where('token_hash', '=', hash)
        .where('expires_at', '>', ctx.clock.now().toISOString())
        .returningAll()
        .executeTakeFirst();
      if (!req) throw gone();
      const domain = await domains.forEmail(req.email, trx);
      if (!domain) throw new CmsError('FORBIDDEN', `Sign-up is closed for ${req.domain}`);
      return enrol.createAccount(
        trx,
        { id: userId, email: req.email, name: input.name?.trim() || null, role: domain.default_role },
        cred,
        null,
        'signup',
        previousSession,
      );
    });
  }

  return { request, lookup, options, complete };
}
