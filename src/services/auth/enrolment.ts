import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Kdb } from '../../db/connect.js';
import type { ChallengePurpose } from './challenges.js';
import type { AuthDeps } from './deps.js';
import type { PasskeyOps } from './passkeys.js';
import { type SessionUser, sessionUser } from './present.js';
import type { NewSession, SignInMethod } from './sessions.js';
import { type NewCredential, registrationOptions, verifyRegistration } from './webauthn.js';

type EnrolPurpose = Extract<ChallengePurpose, 'setup' | 'invite' | 'signup'>;

/**
 * A new account made with a passkey (setup, invite, sign-up): the user ID is
 * chosen when the options are made (it is the WebAuthn user handle), the
 * credential is verified, then user, passkey and session are written in the
 * caller's transaction.
 */
export function enrolment(deps: AuthDeps, passkeys: PasskeyOps) {
  const { rp, challenges, users, sessions } = deps;

  async function start(
    purpose: EnrolPurpose,
    user: { id: string; email: string; name: string | null },
    data: unknown,
    rpName?: string,
  ) {
    const options = await registrationOptions(rp, {
      rpName: rpName ?? (await deps.site.siteName()),
      userId: user.id,
      email: user.email,
      name: user.name,
    });
    const challengeId = await challenges.create(purpose, options.challenge, user.id, data);
    return { challengeId, options };
  }

  /** Consume the challenge and verify the credential (no writes besides the challenge). */
  async function finish<D>(
    purpose: EnrolPurpose,
    challengeId: string,
    credential: RegistrationResponseJSON,
  ): Promise<{ userId: string; data: D; cred: NewCredential }> {
    const challenge = await challenges.consume<D>(challengeId, purpose);
    const cred = await verifyRegistration(rp, credential, challenge.challenge);
    return { userId: challenge.userId!, data: challenge.data, cred };
  }

  async function createAccount(
    trx: Kdb,
    input: { id: string; email: string; name: string | null; role: number },
    cred: NewCredential,
    passkeyName: string | null | undefined,
    method: SignInMethod,
    previousSession?: string | null,
  ): Promise<{ user: SessionUser; session: NewSession }> {
    const { user } = await users.create(null, input, trx);
    await passkeys.insert(trx, user.id, cred, passkeyName);
    const session = await sessions.create(trx, user.id, method, previousSession);
    return { user: sessionUser(user), session };
  }

  return { start, finish, createAccount };
}

export type Enrolment = ReturnType<typeof enrolment>;
