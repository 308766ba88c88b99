import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { authApi } from '../api/auth';
import { AuthLayout } from '../components/AuthLayout';
import { Button } from '../components/Button';
import { ErrorMessage, Notice } from '../components/Feedback';
import { TextField } from '../components/Field';
import { issueFor, otherIssues } from '../lib/forms';
import { useEmailRequest } from '../lib/useEmailRequest';
import { JoinWithPasskey } from './JoinWithPasskey';

/**
 * `/signup`: people with an email address in an allowed domain request an
 * account; `/signup?token=…` (the emailed verification link) completes it.
 */
export function SignupPage({ token }: { token?: string }) {
  useEffect(() => {
    document.title = 'Create your account · CMS admin';
  }, []);
  return (
    <AuthLayout>
      <div className="page page--narrow">
        {token ? (
          <JoinWithPasskey
            token={token}
            kind="signup"
            lookup={authApi.getSignup}
            options={authApi.signupOptions}
            complete={authApi.signupComplete}
            title={() => 'Create your account'}
            expiredText="The verification link was already used or has expired. Request a new one below."
          />
        ) : (
          <SignupRequest />
        )}
      </div>
    </AuthLayout>
  );
}

function SignupRequest() {
  const { email, setEmail, busy, error, sentTo, submit } = useEmailRequest(
    authApi.signupRequest,
    'Enter your email address.',
  );

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <h1 className="page__title">Create your account</h1>
      <p className="page__lead">
        If your organisation allows sign-up for your email domain, we send you a link to verify the address and create
        your passkey.
      </p>
      <TextField
        label="Work email"
        name="email"
        type="email"
        required
        autoComplete="email"
        value={email}
        onValue={setEmail}
        error={issueFor(error, 'email')}
      />
      <ErrorMessage error={error} extra={otherIssues(error, ['email'])} />
      {sentTo ? (
        <Notice tone="success">
          If <strong>{sentTo}</strong> may sign up, a verification link is on its way. Check your inbox.
        </Notice>
      ) : null}
      <div className="actions">
        <Button type="submit" variant="primary" busy={busy} busyLabel="Sending…">
          Send verification link
        </Button>
      </div>
      <p className="muted small footnote">
        Already have an account? <Link to="/login">Sign in</Link>
      </p>
    </form>
  );
}
