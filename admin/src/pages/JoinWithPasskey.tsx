import type { PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/browser';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, type ReactNode, useState } from 'react';
import { ApiError } from '../api/errors';
import { Button } from '../components/Button';
import { ErrorMessage, Spinner } from '../components/Feedback';
import { TextField } from '../components/Field';
import { issueFor, optional, otherIssues } from '../lib/forms';
import { roleName } from '../lib/roles';
import { resetSession } from '../lib/session';
import { createPasskey } from '../lib/webauthn';

interface Props {
  token: string;
  /** Query key prefix of the token lookup. */
  kind: 'invite' | 'signup';
  lookup: (token: string) => Promise<{ email: string; role: number; siteTitle?: string }>;
  options: (token: string) => Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }>;
  complete: (body: {
    token: string;
    challengeId: string;
    credential: RegistrationResponseJSON;
    name?: string;
  }) => Promise<unknown>;
  title: (siteTitle: string | undefined) => string;
  expiredText: string;
  /** Other ways to join, under the passkey form once the link is known to work (the invitation's providers). */
  alternatives?: (details: { email: string }) => ReactNode;
}

/** Finish an invitation or a verified sign-up: show who joins as what, take a name, create the passkey. */
export function JoinWithPasskey({ token, kind, lookup, options, complete, title, expiredText, alternatives }: Props) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const details = useQuery({
    queryKey: [kind, token],
    queryFn: () => lookup(token),
    retry: false,
    staleTime: Infinity,
  });

  async function join(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const challenge = await options(token);
      const credential = await createPasskey(challenge.options);
      await complete({ token, challengeId: challenge.challengeId, credential, name: optional(name) });
      await resetSession(queryClient);
      await navigate({ to: '/' });
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }

  if (details.isPending) return <Spinner label="Checking your link…" />;
  if (details.isError) {
    const gone = details.error instanceof ApiError && details.error.status === 404;
    return (
      <div className="stack">
        <h1 className="page__title">{gone ? 'This link no longer works' : 'Could not open this link'}</h1>
        {gone ? <p className="alert alert--error">{expiredText}</p> : <ErrorMessage error={details.error} />}
        <p>
          <Link to="/login">Go to the sign-in page</Link>
        </p>
      </div>
    );
  }

  const data = details.data;
  return (
    <>
      <form className="stack" onSubmit={join} noValidate>
        <h1 className="page__title">{title(data.siteTitle)}</h1>
        <dl className="summary">
          <div>
            <dt>Email</dt>
            <dd data-testid="join-email">{data.email}</dd>
          </div>
          <div>
            <dt>Role</dt>
            <dd>{roleName(data.role)}</dd>
          </div>
        </dl>
        <TextField
          label="Your name"
          name="name"
          optional
          autoComplete="name"
          value={name}
          onValue={setName}
          error={issueFor(error, 'name')}
          maxLength={200}
        />
        <p className="muted small">
          Next, your browser asks to create a passkey: your device’s screen lock, a fingerprint or a security key signs
          you in from now on.
        </p>
        <ErrorMessage error={error} extra={otherIssues(error, ['name'])} />
        <div className="actions">
          <Button type="submit" variant="primary" busy={busy} busyLabel="Waiting for your passkey…">
            Create passkey and join
          </Button>
        </div>
      </form>
      {alternatives?.({ email: data.email })}
    </>
  );
}
