/**
 * The one error type services throw, and the one table that maps its code to
 * an HTTP status. Doors (REST, MCP, CLI) translate CmsError; nothing else.
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  UNSUPPORTED_MEDIA_TYPE: 415,
  NO_FILE: 400,
  INVALID_TYPE: 400,
  FILE_NOT_FOUND: 400,
  UPLOAD_SIZE_MISMATCH: 400,
  // Responsive images (docs/media.md#responsive-images): a size that is neither a configured width nor
  // a preset, without a valid signature; an output above imageMaxPixels; a file no transform applies
  // to (not an image, or one this server cannot decode).
  IMAGE_SIZE_NOT_ALLOWED: 400,
  IMAGE_TOO_LARGE: 400,
  IMAGE_NOT_TRANSFORMABLE: 400,
  // Login providers (docs/authentication.md#login-providers): a callback whose state is unknown, used,
  // expired or from another browser; the person declined at the provider.
  PROVIDER_STATE_INVALID: 400,
  // The AT Protocol handle or DID typed on the login page does not resolve to an account (or its
  // DID document does not name the handle back).
  PROVIDER_HANDLE_INVALID: 400,
  PROVIDER_DENIED: 401,
  UNAUTHORIZED: 401,
  // Edge access gateway mode (docs/authentication.md#edge-access-gateway-mode): no assertion on a
  // protected route; an assertion that is not a valid token of the team (signature, expiry, issuer).
  EDGE_ACCESS_TOKEN_MISSING: 401,
  EDGE_ACCESS_TOKEN_INVALID: 401,
  FORBIDDEN: 403,
  INSUFFICIENT_SCOPE: 403,
  INSUFFICIENT_PERMISSIONS: 403,
  // An image URL whose signature does not match its parameters (or no signing key is configured).
  IMAGE_SIGNATURE_INVALID: 403,
  CSRF_REJECTED: 403,
  TRANSFER_APPROVAL_REQUIRED: 403,
  TRANSFER_APPROVAL_INVALID: 403,
  // A read carrying a preview token that does not grant it (details.reason: expired, forged, revoked,
  // other_entry); see docs/frontends.md.
  PREVIEW_TOKEN_INVALID: 403,
  // The provider did not verify the address; no invite, link or allowed domain admits the address;
  // the address is not the one the invitation is for.
  PROVIDER_EMAIL_UNVERIFIED: 403,
  PROVIDER_SIGNUP_NOT_ALLOWED: 403,
  PROVIDER_INVITE_MISMATCH: 403,
  // The invitation a provider sign-in started from is used or expired.
  PROVIDER_INVITE_INVALID: 404,
  // A valid token of the team for another application; a user the site does not provision.
  EDGE_ACCESS_AUDIENCE_MISMATCH: 403,
  EDGE_ACCESS_USER_NOT_AUTHORIZED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  ALREADY_EXISTS: 409,
  REV_CONFLICT: 409,
  ENTRY_LOCKED: 409,
  INVALID_STATE: 409,
  WORK_LEASE_ACTIVE: 409,
  WORK_CHANGED: 409,
  SETUP_COMPLETE: 409,
  COMMENTS_CLOSED: 409,
  EMAIL_NOT_CONFIGURED: 409,
  PASSKEY_LIMIT: 409,
  LAST_PASSKEY: 409,
  // Unlinking the last way in (no passkey, no other identity); an identity linked to another user.
  LAST_SIGN_IN_METHOD: 409,
  PROVIDER_IDENTITY_IN_USE: 409,
  LAST_ADMIN: 409,
  // A sign-in feature the configured authentication mode does not offer (details: mode, feature).
  AUTH_MODE_UNAVAILABLE: 409,
  PAYLOAD_TOO_LARGE: 413,
  SAVE_REJECTED: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  // The identity service could not be reached or did not confirm the sign-in (discovery, token, profile).
  PROVIDER_FAILED: 502,
  // The database cannot be reached, dropped the connection, has no free connection within the
  // connect timeout, or did not answer within the statement timeout (docs/operations.md#when-the-parts-fail).
  DATABASE_UNAVAILABLE: 503,
  STORAGE_UNAVAILABLE: 503,
  // The database refused a write for lack of space (SQLite's disk or page limit, PostgreSQL's disk):
  // nothing of the write was kept; the same write succeeds once space returns.
  DATABASE_FULL: 507,
  TRANSFER_IMPORT_IN_PROGRESS: 503,
  MEDIA_USAGE_ACTIVATION_IN_PROGRESS: 503,
  // The gateway team's signing keys cannot be fetched: no token can be checked until they can.
  EDGE_ACCESS_KEYS_UNAVAILABLE: 503,
  // Every image transform slot is busy and the queue is full (details.retryAfter, also Retry-After).
  IMAGE_TRANSFORM_BUSY: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type ErrorDetails = Record<string, unknown>;

export class CmsError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetails;
  /** Some codes (INVALID_STATE) are 400 in one situation and 409 in another. */
  readonly statusOverride?: number;

  constructor(code: ErrorCode, message: string, details?: ErrorDetails, statusOverride?: number) {
    super(message);
    this.name = 'CmsError';
    this.code = code;
    this.details = details;
    this.statusOverride = statusOverride;
  }

  get status(): number {
    return this.statusOverride ?? ERROR_STATUS[this.code];
  }
}

export function isCmsError(err: unknown): err is CmsError {
  return err instanceof CmsError;
}

export const notFound = (what: string, details?: ErrorDetails) =>
  new CmsError('NOT_FOUND', `${what} not found`, details);

export const validationError = (message: string, details?: ErrorDetails) =>
  new CmsError('VALIDATION_ERROR', message, details);

export const conflict = (message: string, details?: ErrorDetails) => new CmsError('CONFLICT', message, details);

/** zod issues in a stable, transport-neutral shape for `details.issues`. */
export interface ValidationIssue {
  path: (string | number)[];
  code: string;
  message: string;
}

export function issuesError(message: string, issues: ValidationIssue[]): CmsError {
  return new CmsError('VALIDATION_ERROR', message, { issues });
}

/** What a zod issue carries that `details.issues` shows (zod itself stays out of core). */
interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly code: string;
  readonly message: string;
}

/** zod's issues in the shape of `details.issues`, their paths under `prefix` (a field, a part). */
export function schemaIssues(issues: readonly SchemaIssue[], prefix: ValidationIssue['path'] = []): ValidationIssue[] {
  return issues.map((i) => ({
    path: [...prefix, ...i.path.map((p) => (typeof p === 'number' ? p : String(p)))],
    code: i.code,
    message: i.message,
  }));
}

/** The 400 VALIDATION_ERROR of a value a schema refused: the one place zod issues become a CmsError. */
export function schemaError(
  message: string,
  issues: readonly SchemaIssue[],
  prefix?: ValidationIssue['path'],
): CmsError {
  return issuesError(message, schemaIssues(issues, prefix));
}

const codeOf = (err: unknown): unknown =>
  typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;

/** A unique or primary-key violation, by its SQLite or PostgreSQL code. */
export function isUniqueViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** A foreign-key violation, by its SQLite or PostgreSQL code. */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = codeOf(err);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** Socket errors of a peer that is not there (a database, a bucket): refused, reset, timed out, unresolvable. */
export const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * The database is not there to answer, by the driver's own errors: a socket error, pg's messages for
 * a dropped connection and its pool's or client's timeouts, PostgreSQL's connection exceptions (class
 * 08), shutting down or starting (57P01-57P03), too many connections (53300) and a cancelled
 * statement (57014, the statement timeout); SQLite's busy database past its busy timeout.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const code = codeOf(err);
  if (typeof code === 'string') {
    if (UNREACHABLE_CODES.has(code) || code.startsWith('08')) return true;
    if (['57P01', '57P02', '57P03', '53300', '57014', 'SQLITE_BUSY'].includes(code)) return true;
  }
  const message = err instanceof Error ? err.message : '';
  return /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error)/.test(
    message,
  );
}

/** Out of space: SQLite's SQLITE_FULL (disk or max_page_count), PostgreSQL's disk full (53100). */
export function isDatabaseFull(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'SQLITE_FULL' || code === '53100';
}

/** A database failure that is the database's state, not the request's: an answer with a code, not a 500. */
export function databaseFailure(err: unknown): CmsError | null {
  if (isDatabaseFull(err)) return new CmsError('DATABASE_FULL', 'The database has no space left for this write');
  if (isDatabaseUnavailable(err)) {
    return new CmsError('DATABASE_UNAVAILABLE', 'The database is unavailable; try again shortly', {
      retryAfter: 5,
    });
  }
  return null;
}

/**
 * Constraint violations that reach a door (a race past a service check) are
 * conflicts, not internal errors.
 */
export function constraintConflict(err: unknown): CmsError | null {
  if (isUniqueViolation(err)) return new CmsError('CONFLICT', 'A value that must be unique is already in use');
  if (isForeignKeyViolation(err)) return new CmsError('CONFLICT', 'A related record is missing or still in use');
  return null;
}

/**
 * What a door answers for anything a service threw: the CmsError itself, or a constraint race as a
 * conflict, or the database's state (unavailable, full); null for a failure that stays internal.
 * REST, MCP, the CLI and the site import all translate through this one rule.
 */
export function knownFailure(err: unknown): CmsError | null {
  if (isCmsError(err)) return err;
  return constraintConflict(err) ?? databaseFailure(err);
}
