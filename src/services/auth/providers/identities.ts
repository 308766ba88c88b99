import type { Actor } from '../../../auth/actor.js';
import { CmsError, notFound } from '../../../core/errors.js';
import { lockUserRows } from '../../../db/locks.js';
import type { UserIdentitiesTable } from '../../../db/tables-identity.js';
import { inTransaction, type ServiceContext } from '../../context.js';
import { requireUser } from '../present.js';
import type { ProviderRegistry } from './registry.js';

export interface LinkedIdentity {
  provider: string;
  /** The provider's label, or its id when it is no longer configured. */
  label: string;
  subject: string;
  address: string | null;
  handle: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

/**
 * The signed-in user's linked identities (the account page): listed, and
 * unlinked while another way in remains (a passkey or another identity).
 * Unlinking is a change to how one gets in, so it needs a browser session,
 * never an API token.
 */
export function identityOps(ctx: ServiceContext, registry: ProviderRegistry) {
  const present = (row: UserIdentitiesTable): LinkedIdentity => ({
    provider: row.provider,
    label: registry.get(row.provider)?.label ?? row.provider,
    subject: row.subject,
    address: row.address,
    handle: row.handle,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  });

  async function list(actor: Actor): Promise<LinkedIdentity[]> {
    const userId = requireUser(actor);
    const rows = await ctx.db
      .selectFrom('_cms_user_identities')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('provider')
      .orderBy('subject')
      .execute();
    return rows.map(present);
  }

  async function unlink(actor: Actor, provider: string, subject: string): Promise<void> {
    const userId = requireUser(actor);
    if (actor.via !== 'session') {
      throw new CmsError(
        'FORBIDDEN',
        'Sign-in methods are managed from a signed-in admin session, not with an API token',
      );
    }
    await inTransaction(ctx.db, async (trx) => {
      // Serialises two unlinks (and a passkey removal) of one user on PostgreSQL; SQLite has one writer.
      await lockUserRows(trx, ctx.dialect, [userId]);
      const row = await trx
        .selectFrom('_cms_user_identities')
        .select('subject')
        .where('user_id', '=', userId)
        .where('provider', '=', provider)
        .where('subject', '=', subject)
        .executeTakeFirst();
      if (!row) throw notFound('Linked identity');
      const passkeys = await trx
        .selectFrom('_cms_passkeys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      const identities = await trx
        .selectFrom('_cms_user_identities')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow();
      if (Number(passkeys.n) === 0 && Number(identities.n) <= 1) {
        throw new CmsError(
          'LAST_SIGN_IN_METHOD',
          'This is your only way to sign in: add a passkey or link another provider before unlinking it',
        );
      }
      await trx
        .deleteFrom('_cms_user_identities')
        .where('user_id', '=', userId)
        .where('provider', '=', provider)
        .where('subject', '=', subject)
        .execute();
    });
  }

  return { list, unlink };
}
