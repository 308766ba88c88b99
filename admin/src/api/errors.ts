/** A failed REST call, from the `{ success: false, error: { code, message, details } }` envelope. */
export interface ValidationIssue {
  path: (string | number)[];
  code: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details?: Record<string, unknown>;

  constructor(status: number, code: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }

  /** Field issues of a VALIDATION_ERROR (`details.issues`), empty otherwise. */
  get issues(): ValidationIssue[] {
    const raw = this.details?.issues;
    return Array.isArray(raw) ? (raw as ValidationIssue[]) : [];
  }
}

interface ErrorEnvelope {
  success: false;
  error: { code: string; message: string; details?: Record<string, unknown> };
}

function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  const error = (body as ErrorEnvelope | null)?.error;
  return typeof error === 'object' && error !== null && typeof error.code === 'string';
}

/** Turn an error body (parsed JSON, text or nothing) into an ApiError. */
export function toApiError(status: number, body: unknown): ApiError {
  if (isErrorEnvelope(body)) return new ApiError(status, body.error.code, body.error.message, body.error.details);
  if (status === 429) return new ApiError(status, 'RATE_LIMITED', 'Too many attempts. Wait a moment and try again.');
  return new ApiError(status, 'HTTP_ERROR', `The server answered with an unexpected error (HTTP ${status}).`);
}

export function networkError(cause: unknown): ApiError {
  const err = new ApiError(0, 'NETWORK_ERROR', 'Could not reach the server. Check your connection and try again.');
  (err as { cause?: unknown }).cause = cause;
  return err;
}

/**
 * What to do next, for the stable error codes where the service's message
 * says what happened but not what the person can do about it.
 */
const NEXT_STEP: Record<string, string> = {
  ENTRY_LOCKED: 'Wait until they finish, or take over editing from the banner.',
  REV_CONFLICT: 'Someone saved a newer version: reload to see it, or compare and choose.',
  SAVE_REJECTED: 'A plugin refused the save; change what it names and try again.',
  INSUFFICIENT_SCOPE: 'This sign-in does not allow it.',
  TRANSFER_IMPORT_IN_PROGRESS: 'A site import is running: changes are paused until it finishes.',
  MEDIA_USAGE_ACTIVATION_IN_PROGRESS: 'Media usage tracking is being switched on: try again in a moment.',
  PAYLOAD_TOO_LARGE: 'Make it smaller and try again.',
  ALREADY_EXISTS: 'Open the existing one instead.',
};

/** A human message for anything a mutation or query may throw. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) {
    const next = NEXT_STEP[err.code];
    return next ? `${err.message.replace(/\.?$/, '.')} ${next}` : err.message;
  }
  if (err instanceof Error && err.message) return err.message;
  return 'Something went wrong.';
}
