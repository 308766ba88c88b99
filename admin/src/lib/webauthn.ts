import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
  WebAuthnError,
} from '@simplewebauthn/browser';

/** An error of the passkey ceremony itself, worded for people. */
export class PasskeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PasskeyError';
  }
}

function explain(err: unknown, creating: boolean): PasskeyError {
  if (err instanceof WebAuthnError) {
    switch (err.code) {
      case 'ERROR_CEREMONY_ABORTED':
        return new PasskeyError('The passkey request was cancelled.');
      case 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED':
        return new PasskeyError('This device already holds a passkey for this account.');
      case 'ERROR_INVALID_DOMAIN':
      case 'ERROR_INVALID_RP_ID':
        return new PasskeyError(
          'Passkeys do not work at this address. Open the admin at the site’s configured public URL (https, or localhost).',
        );
      default:
        break;
    }
  }
  const name = (err as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') {
    return new PasskeyError(
      creating
        ? 'No passkey was created: the request was cancelled or timed out.'
        : 'Sign-in was cancelled or timed out, or this device has no passkey for this site.',
    );
  }
  return new PasskeyError((err as Error | null)?.message || 'The passkey request failed.');
}

function ensureSupport() {
  if (!browserSupportsWebAuthn()) {
    throw new PasskeyError('This browser does not support passkeys. Use a current browser, or ask for a sign-in link.');
  }
}

export async function createPasskey(optionsJSON: PublicKeyCredentialCreationOptionsJSON) {
  ensureSupport();
  try {
    return await startRegistration({ optionsJSON });
  } catch (err) {
    throw explain(err, true);
  }
}

export async function authenticateWithPasskey(optionsJSON: PublicKeyCredentialRequestOptionsJSON) {
  ensureSupport();
  try {
    return await startAuthentication({ optionsJSON });
  } catch (err) {
    throw explain(err, false);
  }
}
