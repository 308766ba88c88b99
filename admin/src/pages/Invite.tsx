import { useEffect } from 'react';
import { authApi } from '../api/auth';
import { AuthLayout } from '../components/AuthLayout';
import { JoinWithPasskey } from './JoinWithPasskey';
import { MissingToken } from './MissingToken';

/** `/invite?token=…`: accept an invitation by creating a passkey. */
export function InvitePage({ token }: { token?: string }) {
  useEffect(() => {
    document.title = 'Accept your invitation · CMS admin';
  }, []);
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
          />
        ) : (
          <MissingToken what="invitation" />
        )}
      </div>
    </AuthLayout>
  );
}
