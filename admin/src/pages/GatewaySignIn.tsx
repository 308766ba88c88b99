import { useEffect, useState } from 'react';
import { authApi } from '../api/auth';
import { AuthLayout } from '../components/AuthLayout';
import { ErrorMessage } from '../components/Feedback';

/**
 * The login page of a site behind an edge access gateway: there is nothing to sign in with here.
 * The gateway signs people in before a request reaches the site, so this page only shows why the
 * site did not accept what the gateway sent (no token, another application's, an unknown user).
 */
export function GatewaySignIn() {
  const [reason, setReason] = useState<unknown>(null);

  useEffect(() => {
    document.title = 'Sign in · CMS admin';
    authApi.me().then(
      // The gateway's token works now (signed in at the gateway meanwhile): into the admin.
      () => window.location.assign('/_cms/admin/'),
      setReason,
    );
  }, []);

  return (
    <AuthLayout>
      <div className="page page--narrow">
        <h1 className="page__title">Sign in</h1>
        <p className="page__lead">
          This site signs you in through your organisation's access gateway: it has no sign-in form of its own.
        </p>
        <ErrorMessage error={reason} />
        <p className="muted small">
          If this persists, ask the people who run the gateway to check that its application covers the whole{' '}
          <code>/_cms/</code> path and that its policy includes you.
        </p>
        <div className="actions">
          <a className="button button--primary" href="/_cms/admin/">
            Try again
          </a>
        </div>
      </div>
    </AuthLayout>
  );
}
