import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Actor } from '../../auth/actor.js';
import { isoNow } from '../../core/clock.js';
import { CmsError, notFound, validationError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Kdb } from '../../db/connect.js';
import { isUniqueViolation } from '../../db/errors.js';
import { lockUserRows } from '../../db/locks.js';
import type { PasskeysTable } from '../../db/tables-identity.js';
import { inTransaction } from '../context.js';
import type { AuthDeps } from './deps.js';
import { type Passkey, requireSessionUser, requireUser, sessionUser, toPasskey } from './present.js';
import type { NewSession } from './sessions.js';
import {
  authenticationOptions,
  type NewCredential,
  registrationOptions,
  userHandle,
  verifyAssertion,
  verifyRegistration,
} from './webauthn.js';

export const MAX_PASSKEYS = 10;

function cleanName(name: string | null | undefined, fallback: string): string {
  const n = name?.trim();
  if (n && n.length > 100) throw validationError('Passkey name must be at most 100 characters');
  return n || fallback;
}

/** Passkeys of signed-in users: list, add (at most 10), rename, remove (never the last), and sign-in. */
export function passkeyOps(deps: AuthDeps) {
  const { ctx, rp, challenges, sessions } = deps;

  async function countFor(db: Kdb, userId: string): Promise<number> {
    const row = await db
      .selectFrom('_cms_passkeys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Store a verified credential for a user. Callers hold the user's row lock (or create the user) in `db`. */
  async function insert(db: Kdb, userId: string, cred: NewCredential, name?: string | null): Promise<Passkey> {
    const count = await countFor(db, userId);
    if (count >= MAX_PASSKEYS) {
      throw new CmsError('PASSKEY_LIMIT', `A user may have at most ${MAX_PASSKEYS} passkeys`, { max: MAX_PASSKEYS });
    }
    const row: PasskeysTable = {
      id: newId(),
      user_id: userId,
      credential_id: cred.credentialId,
      public_key: cred.publicKey,
      counter: cred.counter,
      transports: JSON.stringify(cred.transports),
      device_type: cred.deviceType,
      backed_up: cred.backedUp ? 1 : 0,
      aaguid: cred.aaguid,
      name: cleanName(name, `Passkey ${count + 1}`),
      created_at: isoNow(ctx.clock),
      last_used_at: null,
    };
    try {
      await db.insertInto('_cms_passkeys').values(row).execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw new CmsError('ALREADY_EXISTS', 'This passkey is already registered');
      throw err;
    }
    return toPasskey(row);
  }

  async function list(actor: Actor): Promise<Passkey[]> {
    const userId = requireUser(actor);
    const rows = await ctx.db
      .selectFrom('_cms_passkeys')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
    return rows.map(toPasskey);
  }

  /** Options to add a passkey to the signed-in user's account. */
  async function addOptions(actor: Actor) {
    const userId = requireSessionUser(actor);
    const user = await deps.users.get(userId);
    const existing = await ctx.db
      .selectFrom('_cms_passkeys')
      .select(['credential_id', 'transports'])
      .where('user_id', '=', userId)
      .execute();
    if (existing.length >= MAX_PASSKEYS) {
      throw new CmsError('PASSKEY_LIMIT', `A user may have at most ${MAX_PASSKEYS} passkeys`, { max: MAX_PASSKEYS });
    }
    const options = await registrationOptions(rp, {
      rpName: await deps.site.siteName(),
      userId,
      email: user.email,
      name: user.name,
      exclude: existing.map((e) => ({ credentialId: e.credential_id, transports: JSON.parse(e.transports) })),
    });
    const challengeId = await challenges.create('register', options.challenge, userId);
    return { challengeId, options };
  }

  async function add(
    actor: Actor,
    input: { challengeId: string; credential: RegistrationResponseJSON; name?: string | null },
  ): Promise<Passkey> {
    const userId = requireSessionUser(actor);
    const challenge = await challenges.consume(input.challengeId, 'register');
    if (challenge.userId !== userId) throw validationError('This passkey request belongs to another user');
    const cred = await verifyRegistration(rp, input.credential, challenge.challenge);
    return inTransaction(ctx.db, async (trx) => {
      await lockUserRows(trx, ctx.dialect, [userId]);
      return insert(trx, userId, cred, input.name);
    });
  }

  async function rename(actor: Actor, id: string, name: string): Promise<Passkey> {
    const userId = requireSessionUser(actor);
    const clean = cleanName(name, '');
    if (!clean) throw validationError('Passkey name must not be empty');
    const res = await ctx.db
      .updateTable('_cms_passkeys')
      .set({ name: clean })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw notFound('Passkey');
    const row = await ctx.db.selectFrom('_cms_passkeys').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return toPasskey(row);
  }

  async function remove(actor: Actor, id: string): Promise<void> {
    const userId = requireSessionUser(actor);
    await inTransaction(ctx.db, async (trx) => {
      await lockUserRows(trx, ctx.dialect, [userId]);
      const row = await trx
        .selectFrom('_cms_passkeys')
        .select('id')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) throw notFound('Passkey');
      if ((await countFor(trx, userId)) <= 1) {
        throw new CmsError('LAST_PASSKEY', 'The last passkey cannot be removed; add another one first');
      }
      await trx.deleteFrom('_cms_passkeys').where('id', '=', id).execute();
    });
  }

  /** Options for a discoverable-credential sign-in (no user name asked). */
  async function signInOptions() {
    const options = await authenticationOptions(rp);
    const challengeId = await challenges.create('authenticate', options.challenge, null);
    return { challengeId, options };
  }

  async function signIn(
    input: { challengeId: string; credential: AuthenticationResponseJSON },
    previousSession?: string | null,
  ): Promise<{ user: ReturnType<typeof sessionUser>; session: NewSession }> {
    const challenge = await challenges.consume(input.challengeId, 'authenticate');
    const row = await ctx.db
      .selectFrom('_cms_passkeys as p')
      .innerJoin('_cms_users as u', 'u.id', 'p.user_id')
      .select([
        'p.id as passkey_id',
        'p.credential_id',
        'p.public_key',
        'p.counter',
        'p.transports',
        'u.id',
        'u.email',
        'u.name',
        'u.role',
        'u.disabled',
      ])
      .where('p.credential_id', '=', input.credential.id)
      .executeTakeFirst();
    if (!row) throw new CmsError('UNAUTHORIZED', 'This passkey is not registered on this site');
    const handle = input.credential.response.userHandle;
    if (handle && handle !== Buffer.from(userHandle(row.id)).toString('base64url')) {
      throw new CmsError('UNAUTHORIZED', 'Passkey sign-in failed: the user handle does not match');
    }
    const verified = await verifyAssertion(rp, input.credential, challenge.challenge, {
      credentialId: row.credential_id,
      publicKey: row.public_key,
      counter: row.counter,
      transports: JSON.parse(row.transports),
    });
    if (row.disabled) throw new CmsError('FORBIDDEN', 'This account is disabled');
    return inTransaction(ctx.db, async (trx) => {
      // Compare-and-set: of two assertions carrying the same counter, only one wins.
      const res = await trx
        .updateTable('_cms_passkeys')
        .set({
          counter: verified.newCounter,
          last_used_at: isoNow(ctx.clock),
          backed_up: verified.backedUp ? 1 : 0,
          device_type: verified.deviceType,
        })
        .where('id', '=', row.passkey_id)
        .where('counter', '=', row.counter)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) {
        throw new CmsError('UNAUTHORIZED', 'Passkey sign-in failed: the signature counter was already used');
      }
      const session = await sessions.create(trx, row.id, 'passkey', previousSession);
      return { user: sessionUser(row), session };
    });
  }

  return { list, addOptions, add, rename, remove, signInOptions, signIn, insert, countFor };
}

export type PasskeyOps = ReturnType<typeof passkeyOps>;
