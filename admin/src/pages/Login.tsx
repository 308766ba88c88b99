import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { authApi } from '../api/auth';
import { AuthLayout } from '../components/AuthLayout';
import { Button } from '../components/Button';
import { ErrorMessage, Notice } from '../components/Feedback';
import { TextField } from '../components/Field';
import { issueFor, otherIssues } from '../lib/forms';
import { methodsQuery, resetSession, safeNext } from '../lib/session';
import { useEmailRequest } from '../lib/useEmailRequest';
import { authenticateWithPasskey } from '../lib/webauthn';
import { GatewaySignIn } from './GatewaySignIn';

/** Sign in with a passkey (discoverable: no user name needed) or ask for an emailed link. */
export function LoginPage({ next }: { next?: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const [passkeyError, setPasskeyError] = useState<unknown>(null);
  const link = useEmailRequest(authApi.sendMagicLink, 'Enter the email address of your account.');
  const { email, setEmail, sentTo } = link;
  const linkBusy = link.busy;
  const linkError = link.error;

  const methods = useQuery(methodsQuery);

  useEffect(() => {
    document.title = 'Sign in · CMS admin';
  }, []);

  async function signInWithPasskey() {
    setPasskeyBusy(true);
    setPasskeyError(null);
    try {
      const { challengeId, options } = await authApi.passkeyOptions();
      const credential = await authenticateWithPasskey(options);
      await authApi.passkeyVerify({ challengeId, credential });
      await resetSession(queryClient);
      const target = safeNext(next);
      if (target) await navigate({ href: target });
      else await navigate({ to: '/' });
    } catch (err) {
      setPasskeyError(err);
      setPasskeyBusy(false);
    }
  }

  // Behind an edge access gateway the passkey and link forms do not apply.
  if (methods.data?.mode === 'edge-access') return <GatewaySignIn />;

  return (
    <AuthLayout>
      <div className="page page--narrow">
        <h1 className="page__title">Sign in</h1>
        <p className="page__lead">Use the passkey on this device or a security key.</p>
        <div className="stack">
          <Button
            variant="primary"
            className="button--block"
            onClick={signInWithPasskey}
            busy={passkeyBusy}
            busyLabel="Waiting for your passkey…"
          >
            Sign in with a passkey
          </Button>
          <ErrorMessage error={passkeyError} />
        </div>

        <div className="divider" aria-hidden="true">
          <span>or</span>
        </div>

        <form onSubmit={link.submit} noValidate className="stack" aria-labelledby="magic-title">
          <h2 id="magic-title" className="step-title">
            Email me a sign-in link
          </h2>
          <TextField
            label="Email"
            name="email"
            type="email"
            required
            autoComplete="email"
            value={email}
            onValue={setEmail}
            error={issueFor(linkError, 'email')}
          />
          <ErrorMessage error={linkError} extra={otherIssues(linkError, ['email'])} />
          {sentTo ? (
            <Notice tone="success">
              If an account exists for <strong>{sentTo}</strong>, we have sent it a sign-in link. The link works for 15
              minutes.
            </Notice>
          ) : null}
          <div className="actions">
            <Button type="submit" busy={linkBusy} busyLabel="Sending…">
              Email me a sign-in link
            </Button>
          </div>
        </form>
        <p className="muted small footnote">
          New here? <Link to="/signup">Request an account with your work email</Link>, or ask an administrator for an
          invitation.
        </p>
      </div>
    </AuthLayout>
  );
}
