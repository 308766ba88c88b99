import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { CmsError, validationError } from '../../core/errors.js';
import { CHALLENGE_TTL_MS } from './challenges.js';

/**
 * The relying party comes from the configured public URL, never from request
 * headers: behind a reverse proxy the browser sees the public origin, and a
 * passkey made for one domain never works on another.
 */
export interface RelyingParty {
  id: string;
  origin: string;
}

/** Loaded on the first passkey ceremony, not at start-up (its crypto dependencies are large). */
let library: Promise<typeof import('@simplewebauthn/server')> | null = null;
const webauthn = () => (library ??= import('@simplewebauthn/server'));

export function relyingParty(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname.replace(/^\[|\]$/g, ''), origin: url.origin };
}

/** The WebAuthn user handle of a user: the bytes of their ID. */
export function userHandle(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId, 'utf8'));
}

export interface NewCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  aaguid: string | null;
}

export interface StoredCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

export async function registrationOptions(
  rp: RelyingParty,
  input: {
    rpName: string;
    userId: string;
    email: string;
    name: string | null;
    exclude?: Array<{ credentialId: string; transports: string[] }>;
  },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { generateRegistrationOptions } = await webauthn();
  return generateRegistrationOptions({
    rpName: input.rpName,
    rpID: rp.id,
    userName: input.email,
    userID: userHandle(input.userId),
    userDisplayName: input.name ?? input.email,
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    excludeCredentials: (input.exclude ?? []).map((c) => ({ id: c.credentialId, transports: c.transports as never })),
    // Discoverable credentials: sign-in needs no user name.
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
  });
}

/** Check a registration against its challenge and our origin; throws VALIDATION_ERROR when it does not hold. */
export async function verifyRegistration(
  rp: RelyingParty,
  response: RegistrationResponseJSON,
  expectedChallenge: string,
): Promise<NewCredential> {
  const { verifyRegistrationResponse } = await webauthn();
  let result: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    result = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (err) {
    throw validationError(`The passkey could not be verified: ${(err as Error).message}`, { reason: 'webauthn' });
  }
  if (!result.verified) throw validationError('The passkey could not be verified', { reason: 'webauthn' });
  const info = result.registrationInfo;
  return {
    credentialId: info.credential.id,
    publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: info.credential.transports ?? response.response.transports ?? [],
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
    aaguid: info.aaguid ?? null,
  };
}

export async function authenticationOptions(rp: RelyingParty): Promise<PublicKeyCredentialRequestOptionsJSON> {
  // No allowCredentials: the authenticator offers the discoverable passkeys it holds for this RP.
  const { generateAuthenticationOptions } = await webauthn();
  return generateAuthenticationOptions({ rpID: rp.id, timeout: CHALLENGE_TTL_MS, userVerification: 'preferred' });
}

/**
 * Check an assertion with the stored public key. The signature counter must
 * grow (unless the authenticator keeps none: both zero); a replayed or cloned
 * counter is refused.
 */
export async function verifyAssertion(
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  expectedChallenge: string,
  stored: StoredCredential,
): Promise<{ newCounter: number; deviceType: string; backedUp: boolean }> {
  const { verifyAuthenticationResponse } = await webauthn();
  let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    result = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: stored.credentialId,
        publicKey: new Uint8Array(Buffer.from(stored.publicKey, 'base64url')),
        counter: stored.counter,
        transports: stored.transports as never,
      },
      requireUserVerification: false,
    });
  } catch (err) {
    throw new CmsError('UNAUTHORIZED', `Passkey sign-in failed: ${(err as Error).message}`);
  }
  if (!result.verified) throw new CmsError('UNAUTHORIZED', 'Passkey sign-in failed');
  const info = result.authenticationInfo;
  return { newCounter: info.newCounter, deviceType: info.credentialDeviceType, backedUp: info.credentialBackedUp };
}
