import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import type { Me } from '../../api/auth';
import { ApiError } from '../../api/errors';
import { oauthApi } from '../../api/oauth';
import { AuthLayout } from '../../components/AuthLayout';
import { Button } from '../../components/Button';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { initiallyChosen, ScopeChecklist } from '../../components/ScopeChecklist';

/**
 * `/oauth/device?user_code=…`: sign in a command-line tool or another device
 * that shows a code. Without a code the page asks for it; with one it shows
 * the application and its permissions to approve or deny.
 */
export function DevicePage({ userCode, me }: { userCode?: string; me: Me }) {
  useEffect(() => {
    document.title = 'Connect a device · CMS admin';
  }, []);
  return (
    <AuthLayout wide>
      <div className="page page--narrow">
        <h1 className="page__title">Connect a device</h1>
        {userCode ? <DeviceRequestView key={userCode} userCode={userCode} me={me} /> : <EnterCode />}
      </div>
    </AuthLayout>
  );
}

function EnterCode({ problem }: { problem?: string }) {
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>(problem);

  function submit(e: FormEvent) {
    e.preventDefault();
    const clean = code.trim().toUpperCase();
    if (!clean) {
      setError('Enter the code your device shows.');
      return;
    }
    void navigate({ to: '/oauth/device', search: { user_code: clean } });
  }

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <p className="page__lead">Enter the code shown by the command line or the device you are signing in.</p>
      <TextField
        label="Code"
        name="user_code"
        required
        autoComplete="one-time-code"
        autoCapitalize="characters"
        spellCheck={false}
        placeholder="XXXX-XXXX"
        value={code}
        onValue={setCode}
        error={error}
        maxLength={20}
        autoFocus
      />
      <div className="actions">
        <Button type="submit" variant="primary">
          Continue
        </Button>
      </div>
    </form>
  );
}

function DeviceRequestView({ userCode, me }: { userCode: string; me: Me }) {
  const request = useQuery({
    queryKey: ['oauth-device', userCode],
    queryFn: () => oauthApi.device(userCode),
    retry: false,
    staleTime: Infinity,
  });
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [busy, setBusy] = useState<'approve' | 'deny' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<'approved' | 'denied' | null>(null);
  const [localError, setLocalError] = useState<string | undefined>();

  if (request.isPending) return <Spinner label="Looking up the code…" />;
  if (request.isError) {
    const gone = request.error instanceof ApiError && request.error.status === 404;
    return gone ? (
      <EnterCode problem="This code is unknown, already used or expired. Check it, or start again on your device." />
    ) : (
      <ErrorMessage error={request.error} />
    );
  }
  const data = request.data;
  const scopes = chosen ?? initiallyChosen(data.scopes);
  const grantable = data.scopes.some((s) => s.allowed);

  if (done) {
    return done === 'approved' ? (
      <Notice tone="success">
        <strong>{data.client.name}</strong> is connected. Return to your device: it signs in within a few seconds.
      </Notice>
    ) : (
      <Notice>Request denied. The device was not signed in.</Notice>
    );
  }

  async function answer(kind: 'approve' | 'deny') {
    if (kind === 'approve' && scopes.length === 0) {
      setLocalError('Choose at least one permission, or deny the request.');
      return;
    }
    setLocalError(undefined);
    setBusy(kind);
    setError(null);
    try {
      if (kind === 'approve') await oauthApi.approveDevice(data.userCode, scopes);
      else await oauthApi.denyDevice(data.userCode);
      setDone(kind === 'approve' ? 'approved' : 'denied');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  }

  return (
    <form
      className="stack"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void answer('approve');
      }}
    >
      <p className="page__lead">
        <strong data-testid="client-name">{data.client.name}</strong> wants to use this site as{' '}
        <strong>{me.user.name || me.user.email}</strong>. Approve only if you started this on your own device.
      </p>
      <dl className="summary">
        <div>
          <dt>Code</dt>
          <dd>
            <code className="code user-code" data-testid="user-code">
              {data.userCode}
            </code>
          </dd>
        </div>
        <div>
          <dt>Application</dt>
          <dd>{data.client.name}</dd>
        </div>
      </dl>
      <p className="muted small">Check that the device shows the same code.</p>
      {grantable ? (
        <ScopeChecklist scopes={data.scopes} chosen={scopes} onChange={setChosen} error={localError} />
      ) : (
        <p role="alert" className="alert alert--error">
          Your role allows none of the permissions this application asks for. You can only deny the request.
        </p>
      )}
      <ErrorMessage error={error} />
      <div className="actions">
        {grantable ? (
          <Button type="submit" variant="primary" busy={busy === 'approve'} busyLabel="Approving…" disabled={!!busy}>
            Approve
          </Button>
        ) : null}
        <Button onClick={() => answer('deny')} busy={busy === 'deny'} busyLabel="Denying…" disabled={!!busy}>
          Deny
        </Button>
      </div>
    </form>
  );
}
