import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import type { Me } from '../../api/auth';
import { ApiError } from '../../api/errors';
import { oauthApi } from '../../api/oauth';
import { AuthLayout } from '../../components/AuthLayout';
import { Button } from '../../components/Button';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { initiallyChosen, ScopeChecklist } from '../../components/ScopeChecklist';

/**
 * `/oauth/consent?request=…`: an application asks to act on the signed-in
 * user's behalf. The page names the application, where the answer goes and
 * what it may do; the user can untick permissions, then approve or deny. The
 * browser then goes back to the application with a code or an error.
 */
export function ConsentPage({ requestId, me }: { requestId?: string; me: Me }) {
  const request = useQuery({
    queryKey: ['oauth-consent', requestId],
    queryFn: () => oauthApi.consent(requestId as string),
    enabled: Boolean(requestId),
    retry: false,
    staleTime: Infinity,
  });
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [busy, setBusy] = useState<'approve' | 'deny' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [leaving, setLeaving] = useState<string | null>(null);
  const [localError, setLocalError] = useState<string | undefined>();

  useEffect(() => {
    document.title = 'Authorize an application · CMS admin';
  }, []);

  const data = request.data;
  const scopes = chosen ?? (data ? initiallyChosen(data.scopes) : []);
  const grantable = data?.scopes.some((s) => s.allowed) ?? false;

  async function answer(kind: 'approve' | 'deny') {
    if (!data) return;
    if (kind === 'approve' && scopes.length === 0) {
      setLocalError('Choose at least one permission, or deny the request.');
      return;
    }
    setLocalError(undefined);
    setBusy(kind);
    setError(null);
    try {
      const result = kind === 'approve' ? await oauthApi.approve(data.id, scopes) : await oauthApi.deny(data.id);
      setLeaving(data.redirectHost);
      window.location.assign(result.redirectTo);
    } catch (err) {
      setError(err);
      setBusy(null);
    }
  }

  let body: ReactNode;
  if (!requestId) {
    body = (
      <p role="alert" className="alert alert--error">
        This address names no authorization request. Start again from the application.
      </p>
    );
  } else if (request.isPending) {
    body = <Spinner label="Loading the request…" />;
  } else if (request.isError) {
    const gone = request.error instanceof ApiError && request.error.status === 404;
    body = gone ? (
      <p role="alert" className="alert alert--error">
        This request was already answered or has expired (requests last 10 minutes). Start again from the application.
      </p>
    ) : (
      <ErrorMessage error={request.error} />
    );
  } else if (data) {
    body = (
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
          <strong>{me.user.name || me.user.email}</strong>.
        </p>
        <dl className="summary">
          <div>
            <dt>Application</dt>
            <dd>{data.client.name}</dd>
          </div>
          {data.client.uri ? (
            <div>
              <dt>Website</dt>
              <dd>{data.client.uri}</dd>
            </div>
          ) : null}
          <div>
            <dt>Returns to</dt>
            <dd data-testid="redirect-host">{data.redirectHost}</dd>
          </div>
        </dl>
        {grantable ? (
          <ScopeChecklist scopes={data.scopes} chosen={scopes} onChange={setChosen} error={localError} />
        ) : (
          <p role="alert" className="alert alert--error">
            Your role allows none of the permissions this application asks for. You can only deny the request.
          </p>
        )}
        <p className="muted small">
          The application can never do more than your role allows. Its access ends after 30 days without use, and you
          can disconnect it at any time on your account page.
        </p>
        <ErrorMessage error={error} />
        {leaving ? <Notice>Returning to {leaving}…</Notice> : null}
        <div className="actions">
          {grantable ? (
            <Button
              type="submit"
              variant="primary"
              busy={busy === 'approve'}
              busyLabel="Approving…"
              disabled={!!busy || !!leaving}
            >
              Approve
            </Button>
          ) : null}
          <Button
            onClick={() => answer('deny')}
            busy={busy === 'deny'}
            busyLabel="Denying…"
            disabled={!!busy || !!leaving}
          >
            Deny
          </Button>
        </div>
      </form>
    );
  }

  return (
    <AuthLayout wide>
      <div className="page page--narrow">
        <h1 className="page__title">Authorize an application</h1>
        {body}
      </div>
    </AuthLayout>
  );
}
