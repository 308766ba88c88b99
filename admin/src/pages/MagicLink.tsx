import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { authApi } from '../api/auth';
import { ApiError } from '../api/errors';
import { AuthLayout } from '../components/AuthLayout';
import { Button } from '../components/Button';
import { ErrorMessage } from '../components/Feedback';
import { resetSession } from '../lib/session';

/**
 * The page an emailed sign-in link opens. Opening it consumes nothing (mail
 * scanners fetch links too); only the Continue button spends the token.
 */
export function MagicLinkPage({ token }: { token?: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  // The server refused the token (used, expired, unknown): a retry cannot help, a new link can.
  const refused = error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;

  useEffect(() => {
    document.title = 'Sign in with your link · CMS admin';
  }, []);

  async function proceed() {
    if (!token) return;
    setBusy(true);
    setError(null);
    try {
      await authApi.consumeMagicLink(token);
      await resetSession(queryClient);
      await navigate({ to: '/' });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  return (
    <AuthLayout>
      <div className="page page--narrow">
        <h1 className="page__title">Sign in with your link</h1>
        {token ? (
          <div className="stack">
            <p className="page__lead">
              Select Continue to sign in on this device. The link works once, for 15 minutes.
            </p>
            <ErrorMessage error={error} />
            {refused ? null : (
              <div className="actions">
                <Button variant="primary" onClick={proceed} busy={busy} busyLabel="Signing in…" autoFocus>
                  Continue
                </Button>
              </div>
            )}
            {refused ? (
              <p>
                Sign-in links work once and expire after 15 minutes. <Link to="/login">Ask for a new sign-in link</Link>
              </p>
            ) : null}
          </div>
        ) : (
          <div className="stack">
            <p role="alert" className="alert alert--error">
              This address has no sign-in token. Open the link from your email again, or ask for a new one.
            </p>
            <p>
              <Link to="/login">Go to the sign-in page</Link>
            </p>
          </div>
        )}
      </div>
    </AuthLayout>
  );
}
