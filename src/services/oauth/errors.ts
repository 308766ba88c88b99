/**
 * Errors of the OAuth protocol endpoints (RFC 6749 §5.2, RFC 7591 §3.2.2,
 * RFC 8628 §3.5, RFC 7009 §2.2.1). They are answered as
 * `{ error, error_description }`, not in the REST envelope.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'unsupported_token_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'authorization_pending'
  | 'slow_down'
  | 'expired_token'
  | 'temporarily_unavailable'
  | 'server_error';

export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly status: number;

  constructor(error: OAuthErrorCode, description: string, status?: number) {
    super(description);
    this.name = 'OAuthError';
    this.error = error;
    this.status = status ?? (error === 'invalid_client' ? 401 : error === 'server_error' ? 500 : 400);
  }

  toJSON(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.message };
  }
}

export const isOAuthError = (err: unknown): err is OAuthError => err instanceof OAuthError;
