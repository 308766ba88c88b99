import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { authApi } from '../api/auth';
import { AuthLayout } from '../components/AuthLayout';
import { Button } from '../components/Button';
import { ErrorMessage, Notice } from '../components/Feedback';
import { TextField } from '../components/Field';
import { ProviderChoices, ProviderRefusal, providersQuery } from '../components/ProviderChoices';
import { issueFor, otherIssues } from '../lib/forms';
import { methodsQuery, resetSession, safeNext } from '../lib/session';
import { useEmailRequest } from '../lib/useEmailRequest';
import { authenticateWithPasskey } from '../lib/webauthn';
import { GatewaySignIn } from './GatewaySignIn';

/**
 * Sign in with a passkey (discoverable: no user name needed), with a configured login provider
 * (buttons first, then providers that ask for a handle), or ask for an emailed link. `error` is
 * the code a refused provider sign-in came back with.
 */
export function LoginPage({ next, error }: { next?: string; error?: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const [passkeyError, setPasskeyError] = useState<unknown>(null);
  const link = useEmailRequest(authApi.sendMagicLink, 'Enter the email address of your account.');
  const { email, setEmail, sentTo } = link;
  const linkBusy = link.busy;
  const linkError = link.error;

  const methods = useQuery(methodsQuery);
  const gateway = methods.data?.mode === 'edge-access';
  // Behind a gateway there are no providers to offer.
  const providers = useQuery({ ...providersQuery, enabled: !gateway });
  // The refusal stays until the person tries again.
  const [refusal, setRefusal] = useState(error);

  useEffect(() => {
    document.title = 'Sign in · CMS admin';
  }, []);

  async function signInWithPasskey() {
    setRefusal(undefined);
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
  if (gateway) return <GatewaySignIn />;

  const offered = providers.data ?? [];

  return (
    <AuthLayout>
      <div className="page page--narrow">
        <h1 className="page__title">Sign in</h1>
        <p className="page__lead">
          {offered.length
            ? 'Use the passkey on this device or a security key, or an account you already have.'
            : 'Use the passkey on this device or a security key.'}
        </p>
        {refusal ? <ProviderRefusal code={refusal} /> : null}
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

        {offered.length ? (
          <>
            <div className="divider" aria-hidden="true">
              <span>or</span>
            </div>
            <ProviderChoices
              providers={offered}
              start={{ intent: 'login' }}
              verb={(p) => `Sign in with ${p.label}`}
              onStart={() => {
                setRefusal(undefined);
                setPasskeyError(null);
              }}
            />
          </>
        ) : null}

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
