import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import type { Clock } from '../../../core/clock.js';
import type { EdgeAccessConfig } from '../../../core/config-auth.js';
import { CmsError } from '../../../core/errors.js';
import type { Logger } from '../../../core/log.js';

/** Who the gateway says is calling. */
export interface EdgeAccessIdentity {
  /** The `email` claim as sent; users are matched by it (normalised). */
  email: string;
  /** The `sub` claim (the gateway's user ID), for the log. */
  subject: string | null;
  /** The `name` claim, when the gateway sends one: the display name of a provisioned user. */
  name: string | null;
  /** The `groups` claim: the strings of a list (anything else in it is ignored). */
  groups: string[];
  /** `iat` in milliseconds: when the person signed in at the gateway. */
  issuedAt: number | null;
}

/** Only signatures with a public key: a JWK set never holds an HMAC secret, and `none` is never accepted. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** The gateway's clock and ours may differ a little. */
const CLOCK_TOLERANCE_SECONDS = 30;
/** A header longer than this is not a gateway token (they are about 1 KB). */
const MAX_TOKEN_LENGTH = 16 * 1024;

export type InvalidReason =
  | 'malformed'
  | 'algorithm'
  | 'unknown_key'
  | 'signature'
  | 'expired'
  | 'not_yet_valid'
  | 'issuer'
  | 'claims'
  | 'no_email';

const invalid = (reason: InvalidReason, message: string) =>
  new CmsError('EDGE_ACCESS_TOKEN_INVALID', message, { reason });

/** What a jose failure means for the caller: a bad token (401), another application (403), or no keys (503). */
function refusal(err: unknown, log: Logger): CmsError {
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'aud') {
      return new CmsError(
        'EDGE_ACCESS_AUDIENCE_MISMATCH',
        "The gateway token was issued for another application: its audience is not this site's audience tag",
        { tokenAudience: err.payload.aud ?? null },
      );
    }
    if (err.claim === 'iss') return invalid('issuer', 'The gateway token was issued by another team (issuer differs)');
    if (err.claim === 'nbf') return invalid('not_yet_valid', 'The gateway token is not valid yet');
    return invalid('claims', `The gateway token's "${err.claim}" claim is missing or invalid`);
  }
  if (err instanceof errors.JWTExpired) return invalid('expired', 'The gateway token has expired');
  if (err instanceof errors.JWSSignatureVerificationFailed) {
    return invalid('signature', "The gateway token's signature does not verify with the team's keys");
  }
  if (err instanceof errors.JWKSNoMatchingKey) {
    return invalid('unknown_key', 'The gateway token is signed with a key the team does not publish');
  }
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) {
    return invalid('algorithm', 'The gateway token uses a signature algorithm this site does not accept');
  }
  if (
    err instanceof errors.JWSInvalid ||
    err instanceof errors.JWTInvalid ||
    err instanceof errors.JWKSMultipleMatchingKeys
  ) {
    return invalid('malformed', 'The gateway token is not a well-formed signed JWT');
  }
  // Everything else happened while fetching the key set (network, status, not a JWK set, timeout).
  log.warn({ err }, 'edge access: the signing keys could not be fetched');
  return new CmsError(
    'EDGE_ACCESS_KEYS_UNAVAILABLE',
    "The gateway team's signing keys could not be fetched; try again shortly",
  );
}

function identityOf(payload: JWTPayload): EdgeAccessIdentity {
  const email = typeof payload.email === 'string' ? payload.email.trim() : '';
  if (!email) {
    throw invalid('no_email', 'The gateway token names no user by email (a service token cannot act as a user)');
  }
  const name = typeof payload.name === 'string' ? payload.name.trim().slice(0, 200) || null : null;
  const groups = Array.isArray(payload.groups) ? payload.groups.filter((g): g is string => typeof g === 'string') : [];
  return {
    email,
    subject: typeof payload.sub === 'string' && payload.sub ? payload.sub : null,
    name,
    groups,
    issuedAt: typeof payload.iat === 'number' ? payload.iat * 1000 : null,
  };
}

/**
 * Checks gateway tokens: the signature against the team's published keys (fetched once and kept;
 * fetched again when a token names a key not in the set, at most every 30 seconds, so a rotation
 * is picked up without a restart), the issuer, the audience and the expiry.
 */
export function edgeAccessVerifier(config: EdgeAccessConfig, clock: Clock, log: Logger) {
  const keys = createRemoteJWKSet(new URL(config.certsUrl), {
    timeoutDuration: 5_000,
    cooldownDuration: 30_000,
    cacheMaxAge: 10 * 60_000,
  });

  async function verify(token: string): Promise<EdgeAccessIdentity> {
    if (token.length > MAX_TOKEN_LENGTH) throw invalid('malformed', 'The gateway token is too long');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: config.issuer,
        audience: config.audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: clock.now(),
        requiredClaims: ['exp'],
      }));
    } catch (err) {
      throw refusal(err, log);
    }
    return identityOf(payload);
  }

  return { verify };
}

export type EdgeAccessVerifier = ReturnType<typeof edgeAccessVerifier>;
