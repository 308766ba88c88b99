import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { authApi } from '../api/auth';
import { AuthLayout } from '../components/AuthLayout';
import { ProviderChoices, providersQuery } from '../components/ProviderChoices';
import { JoinWithPasskey } from './JoinWithPasskey';
import { MissingToken } from './MissingToken';

/** `/invite?token=…`: accept an invitation by creating a passkey, or with one of the site's login providers. */
export function InvitePage({ token }: { token?: string }) {
  useEffect(() => {
    document.title = 'Accept your invitation · CMS admin';
  }, []);
  const providers = useQuery({ ...providersQuery, enabled: Boolean(token) }).data ?? [];
  return (
    <AuthLayout>
      <div className="page page--narrow">
        {token ? (
          <JoinWithPasskey
            token={token}
            kind="invite"
            lookup={authApi.getInvite}
            options={authApi.inviteOptions}
            complete={authApi.acceptInvite}
            title={(site) => (site ? `Join ${site}` : 'Accept your invitation')}
            expiredText="The invitation was already used or has expired (invitations last 7 days). Ask an administrator for a new one."
            alternatives={({ email }) =>
              providers.length ? (
                <div className="stack">
                  <div className="divider" aria-hidden="true">
                    <span>or</span>
                  </div>
                  <p className="muted small">
                    Join with an account you already have instead. It must confirm the address <strong>{email}</strong>
                    {providers.some((p) => p.kind === 'form') ? ' (a provider that asks for a handle needs none)' : ''}.
                  </p>
                  <ProviderChoices
                    providers={providers}
                    label="Providers you can join with"
                    start={{ intent: 'invite', token }}
                    verb={(p) => `Join with ${p.label}`}
                  />
                </div>
              ) : null
            }
          />
        ) : (
          <MissingToken what="invitation" />
        )}
      </div>
    </AuthLayout>
  );
}
