import { isRoleLevel, ROLES } from '../../../auth/roles.js';
import { isoNow } from '../../../core/clock.js';
import { CmsError } from '../../../core/errors.js';
import type { Kdb } from '../../../db/connect.js';
import { lockUserRows } from '../../../db/locks.js';
import { inTransaction } from '../../context.js';
import { normalizeEmail } from '../../users/index.js';
import type { AuthDeps } from '../deps.js';
import type { DomainOps } from '../domains.js';
import { noAddressFor } from '../no-address.js';
import { type SessionUser, sessionUser } from '../present.js';
import type { NewSession, SignInMethod } from '../sessions.js';
import { setupDone } from '../setup.js';
import type { Signin } from './signins.js';
import type { VerifiedIdentity } from './types.js';

/** What the setup and invite parts of the auth domain lend to provider sign-ins (one code path each). */
export interface AccountParts {
  setup: {
    needsSetup(): Promise<boolean>;
    finish<T>(site: { siteTitle: string; tagline: string | null }, create: (trx: Kdb) => Promise<T>): Promise<T>;
  };
  invites: { take(db: Kdb, hash: string): Promise<{ email: string; role: number } | undefined> };
  domains: Pick<DomainOps, 'forEmail'>;
}

export interface SignInOutcome {
  user: SessionUser;
  /** The session opened; null for `link`, which keeps the session that started it. */
  session: NewSession | null;
}

const disabled = () => new CmsError('FORBIDDEN', 'This account is disabled');

/**
 * What a verified provider identity may do (spec: "Login providers"). In order:
 *
 * 1. `link`: the identity joins the signed-in user who started the link (the session proves the
 *    person, so no verified address is needed), unless another user already has it.
 * 2. An identity already linked signs in its user; a disabled user is refused.
 * 3. Everything else needs an address the provider verified (PROVIDER_EMAIL_UNVERIFIED).
 * 4. `setup` while the site has no user: the first user, an Admin, through setup's own completion.
 * 5. A user with that address: the identity is linked to them (their role kept) and they sign in;
 *    a disabled user stays out. A new subject with the same address links the same way.
 * 6. `invite`: the invitation (single use) for that same address creates the user with its role.
 * 7. An enabled allowed domain of the address creates the user with the domain's default role.
 * 8. Otherwise PROVIDER_SIGNUP_NOT_ALLOWED.
 *
 * An identity with a DID and no address (AT Protocol) has no address for rules 3 to 7, so after
 * rule 2 it follows its own (`didAccount`):
 *
 * 4'. `setup`: the first user, an Admin, with the address typed in the setup wizard.
 * 5'. A user holding the DID's reserved address (`noAddressFor`: the account was made for this DID,
 *     the identity unlinked since) gets the identity back, as rule 5 does with an address.
 * 6'. `invite`: the invitation (single use) creates its user, with its address and role; the
 *     invite link, not an address, proves the person.
 * 7'. The provider's allowlist (`identity.allowlist`) names it: the user is created with the
 *     reserved address and the list's role (at most Editor); not named: PROVIDER_SIGNUP_NOT_ALLOWED.
 *     A provider without an allowlist admits nobody this way (PROVIDER_EMAIL_UNVERIFIED).
 *
 * Every session opened is the one a passkey sign-in opens (`sessions.create`), with the method
 * `provider:<id>`.
 */
export function providerAccounts(deps: AuthDeps, parts: AccountParts) {
  const { ctx, sessions, users } = deps;

  async function findIdentity(db: Kdb, identity: VerifiedIdentity) {
    return db
      .selectFrom('_cms_user_identities as i')
      .innerJoin('_cms_users as u', 'u.id', 'i.user_id')
      .select(['u.id', 'u.email', 'u.name', 'u.role', 'u.disabled'])
      .where('i.provider', '=', identity.provider)
      .where('i.subject', '=', identity.subject)
      .executeTakeFirst();
  }

  /** Record that the identity was used; the address and handle shown on the account page follow the provider. */
  async function touch(db: Kdb, identity: VerifiedIdentity): Promise<void> {
    await db
      .updateTable('_cms_user_identities')
      .set({ last_used_at: isoNow(ctx.clock), address: identity.address, handle: identity.handle ?? null })
      .where('provider', '=', identity.provider)
      .where('subject', '=', identity.subject)
      .execute();
  }

  async function attach(db: Kdb, identity: VerifiedIdentity, userId: string): Promise<void> {
    const now = isoNow(ctx.clock);
    await db
      .insertInto('_cms_user_identities')
      .values({
        provider: identity.provider,
        subject: identity.subject,
        user_id: userId,
        address: identity.address,
        handle: identity.handle ?? null,
        created_at: now,
        last_used_at: now,
      })
      .execute();
  }

  const unverified = (identity: VerifiedIdentity) =>
    new CmsError(
      'PROVIDER_EMAIL_UNVERIFIED',
      'The provider did not confirm an email address for this account, so it cannot be linked to an account here or make one',
      { provider: identity.provider },
    );

  /** The provider's address, if it verified one (normalised as accounts store addresses). */
  function verifiedAddress(identity: VerifiedIdentity): string {
    if (!identity.address || !identity.addressVerified) throw unverified(identity);
    try {
      return normalizeEmail(identity.address);
    } catch {
      throw unverified(identity);
    }
  }

  const cleanName = (name: string | null | undefined) => name?.trim().slice(0, 200) || null;

  /** A DID-based identity that brings no address: the address rules cannot apply to it. */
  const withoutAddress = (identity: VerifiedIdentity): identity is VerifiedIdentity & { did: string } =>
    Boolean(identity.did) && !identity.address;

  /** The address typed in the setup wizard, for a first user whose provider gives none. */
  function wizardAddress(identity: VerifiedIdentity, wizard: { email?: string | null }): string {
    if (!wizard.email) {
      throw new CmsError(
        'PROVIDER_EMAIL_UNVERIFIED',
        'This provider gives no email address: type the address of the first account in the setup wizard',
        { provider: identity.provider },
      );
    }
    return wizard.email;
  }

  async function createAccount(
    trx: Kdb,
    input: { email: string; name: string | null; role: number },
    identity: VerifiedIdentity,
    method: SignInMethod,
    previousSession: string | null,
  ): Promise<SignInOutcome> {
    const { user } = await users.create(null, input, trx);
    await attach(trx, identity, user.id);
    return { user: sessionUser(user), session: await sessions.create(trx, user.id, method, previousSession) };
  }

  async function link(identity: VerifiedIdentity, signin: Signin, currentUserId: string | null) {
    // The browser must still be signed in as the user who started the link.
    if (!signin.userId || signin.userId !== currentUserId) {
      throw new CmsError('PROVIDER_STATE_INVALID', 'Sign in again, then link the provider from your account page');
    }
    const userId = signin.userId;
    return inTransaction(ctx.db, async (trx) => {
      await lockUserRows(trx, ctx.dialect, [userId]);
      const user = await trx
        .selectFrom('_cms_users')
        .select(['id', 'email', 'name', 'role', 'disabled'])
        .where('id', '=', userId)
        .executeTakeFirst();
      if (!user || user.disabled) throw disabled();
      const known = await findIdentity(trx, identity);
      if (known && known.id !== userId) {
        throw new CmsError('PROVIDER_IDENTITY_IN_USE', 'This provider account is already linked to another user', {
          provider: identity.provider,
        });
      }
      if (known) await touch(trx, identity);
      else await attach(trx, identity, userId);
      return { user: sessionUser(user), session: null };
    });
  }

  /** Rules 5' to 7': a DID-based identity without an address that is not linked yet. */
  async function didAccount(
    trx: Kdb,
    identity: VerifiedIdentity & { did: string },
    signin: Signin,
    method: SignInMethod,
    previousSession: string | null,
  ): Promise<SignInOutcome> {
    if (!(await trx.selectFrom('_cms_users').select('id').limit(1).executeTakeFirst())) {
      throw new CmsError('PROVIDER_SIGNUP_NOT_ALLOWED', 'This site is not set up yet: finish the setup first');
    }
    const reserved = noAddressFor(identity.did);
    const existing = await trx
      .selectFrom('_cms_users')
      .select(['id', 'email', 'name', 'role', 'disabled'])
      .where('email', '=', reserved)
      .executeTakeFirst();
    if (existing) {
      if (existing.disabled) throw disabled();
      await attach(trx, identity, existing.id);
      return { user: sessionUser(existing), session: await sessions.create(trx, existing.id, method, previousSession) };
    }
    const name = cleanName(identity.name);
    if (signin.intent === 'invite' && signin.inviteHash) {
      const invite = await parts.invites.take(trx, signin.inviteHash);
      if (!invite) throw new CmsError('PROVIDER_INVITE_INVALID', 'This invitation is invalid, already used or expired');
      return createAccount(trx, { email: invite.email, name, role: invite.role }, identity, method, previousSession);
    }
    if (!identity.allowlist) throw unverified(identity);
    if (!identity.allowlist.listed) {
      throw new CmsError(
        'PROVIDER_SIGNUP_NOT_ALLOWED',
        'This account is not on the allowlist of this site and has no account here: ask an administrator for an invitation',
        { provider: identity.provider },
      );
    }
    const listed = identity.allowlist.role;
    const role = isRoleLevel(listed) ? Math.min(listed, ROLES.EDITOR) : ROLES.SUBSCRIBER;
    return createAccount(trx, { email: reserved, name, role }, identity, method, previousSession);
  }

  /** Apply the rules to a verified identity from a callback. */
  async function signIn(
    identity: VerifiedIdentity,
    signin: Signin,
    context: { previousSession: string | null; currentUserId: string | null },
  ): Promise<SignInOutcome> {
    if (signin.intent === 'link') return link(identity, signin, context.currentUserId);
    const method: SignInMethod = `provider:${identity.provider}`;
    const { previousSession } = context;

    if (signin.intent === 'setup') {
      if (!(await parts.setup.needsSetup())) throw setupDone();
      const wizard = signin.data.setup;
      if (!wizard) throw new CmsError('PROVIDER_STATE_INVALID', 'This sign-in has no setup details; start setup again');
      const email = withoutAddress(identity) ? wizardAddress(identity, wizard) : verifiedAddress(identity);
      return parts.setup.finish(wizard, (trx) =>
        createAccount(
          trx,
          { email, name: cleanName(wizard.name) ?? cleanName(identity.name), role: ROLES.ADMIN },
          identity,
          method,
          previousSession,
        ),
      );
    }

    return inTransaction(ctx.db, async (trx) => {
      const known = await findIdentity(trx, identity);
      if (known) {
        if (known.disabled) throw disabled();
        await touch(trx, identity);
        return { user: sessionUser(known), session: await sessions.create(trx, known.id, method, previousSession) };
      }
      if (withoutAddress(identity)) return didAccount(trx, identity, signin, method, previousSession);
      const email = verifiedAddress(identity);
      const existing = await trx
        .selectFrom('_cms_users')
        .select(['id', 'email', 'name', 'role', 'disabled'])
        .where('email', '=', email)
        .executeTakeFirst();
      if (existing) {
        if (existing.disabled) throw disabled();
        await attach(trx, identity, existing.id);
        return {
          user: sessionUser(existing),
          session: await sessions.create(trx, existing.id, method, previousSession),
        };
      }
      // Accounts other than the first come from setup only: an empty site is never joined by the side door.
      if (!(await trx.selectFrom('_cms_users').select('id').limit(1).executeTakeFirst())) {
        throw new CmsError('PROVIDER_SIGNUP_NOT_ALLOWED', 'This site is not set up yet: finish the setup first');
      }
      const name = cleanName(identity.name);
      if (signin.intent === 'invite' && signin.inviteHash) {
        const invite = await parts.invites.take(trx, signin.inviteHash);
        if (!invite) {
          throw new CmsError('PROVIDER_INVITE_INVALID', 'This invitation is invalid, already used or expired');
        }
        if (invite.email !== email) {
          throw new CmsError(
            'PROVIDER_INVITE_MISMATCH',
            `This invitation is for ${invite.email}; the provider signed you in as ${email}`,
          );
        }
        return createAccount(trx, { email, name, role: invite.role }, identity, method, previousSession);
      }
      const domain = await parts.domains.forEmail(email, trx);
      if (!domain) {
        throw new CmsError(
          'PROVIDER_SIGNUP_NOT_ALLOWED',
          'There is no account for this address, and it may not sign up here: ask an administrator for an invitation',
        );
      }
      return createAccount(trx, { email, name, role: domain.default_role }, identity, method, previousSession);
    });
  }

  return { signIn };
}

export type ProviderAccounts = ReturnType<typeof providerAccounts>;
