import { ApiError, messageOf } from '../api/errors';

/**
 * The admin's own words for the codes a login provider sign-in can end with. The callback
 * redirects with `?error=<CODE>` only (docs/authentication.md, "Errors on the login page"), so the
 * text always comes from here: an address cannot make these pages say anything else. The same
 * words serve the start route's JSON errors (an unknown handle, a provider that cannot be reached).
 */
const PROVIDER_MESSAGES: Record<string, string> = {
  PROVIDER_STATE_INVALID:
    'That sign-in could not be finished: it was already used, took longer than 10 minutes, or was started in another browser. Start again from this page.',
  PROVIDER_DENIED:
    'The sign-in was cancelled or refused at the provider. If you did not cancel it, your account there may be disabled.',
  PROVIDER_FAILED:
    'The sign-in provider could not be reached or did not confirm the sign-in. Try again in a moment, or use another way to sign in.',
  PROVIDER_EMAIL_UNVERIFIED:
    'The provider did not confirm an email address for that account, so it cannot be matched to an account here or create one. Confirm your address with the provider, or sign in another way and link the provider from your account page.',
  PROVIDER_SIGNUP_NOT_ALLOWED:
    'There is no account here for that sign-in, and it cannot create one by itself. Ask an administrator for an invitation.',
  PROVIDER_INVITE_MISMATCH:
    'The invitation is for a different email address than the one the provider signed you in with. Open the invitation link again and use a passkey, or a provider account with the invited address.',
  PROVIDER_INVITE_INVALID:
    'The invitation was used or expired while you were signing in. Ask an administrator for a new one.',
  PROVIDER_IDENTITY_IN_USE:
    'That provider account is already linked to another user of this site, so it was not linked to yours. Link a different account at the provider.',
  PROVIDER_HANDLE_INVALID:
    'That handle could not be found. Check its spelling (such as alice.bsky.social), or type your DID instead.',
  FORBIDDEN: 'This account is disabled. Ask an administrator to enable it.',
  SETUP_COMPLETE: 'Someone finished setting up this site first. Sign in, or ask its administrator for an invitation.',
  NOT_FOUND: 'That sign-in provider is not offered on this site (any more). Choose another way to sign in.',
  LAST_SIGN_IN_METHOD: 'This is your only way to sign in: add a passkey or link another provider before unlinking it.',
  RATE_LIMITED: 'Too many sign-in attempts from here. Wait a minute and try again.',
};

const FALLBACK = 'The sign-in did not complete. Try again, or use another way to sign in.';

/** The message for a refusal code from the address (`?error=`); unknown codes get a general message, never their text. */
export function providerRefusal(code: string): string {
  return Object.hasOwn(PROVIDER_MESSAGES, code) ? PROVIDER_MESSAGES[code] : FALLBACK;
}

/**
 * A start or unlink error in the same words; anything else as the server put it. Starting from an
 * invitation, a 404 is the invitation that no longer works rather than the provider.
 */
export function providerError(err: unknown, intent?: string): string {
  if (err instanceof ApiError && Object.hasOwn(PROVIDER_MESSAGES, err.code)) {
    if (err.code === 'NOT_FOUND' && intent === 'invite') return PROVIDER_MESSAGES.PROVIDER_INVITE_INVALID;
    return PROVIDER_MESSAGES[err.code];
  }
  return messageOf(err);
}
