import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { Me } from '../api/auth';
import { Page } from '../components/Page';
import { shownAddress } from '../lib/address';
import { methodsQuery } from '../lib/session';
import { ConnectionsSection } from './account/Connections';
import { PasskeysSection } from './account/Passkeys';
import { SignInMethodsSection } from './account/SignInMethods';
import { TokensSection } from './account/Tokens';

/**
 * The signed-in person's own ways in (passkeys, accounts at login providers), personal access
 * tokens and connected applications. `search` is what linking a provider came back with.
 */
export function AccountPage({ me, search = {} }: { me: Me; search?: { linked?: string; error?: string } }) {
  const navigate = useNavigate();
  // Behind an edge access gateway nobody signs in with a passkey or a provider here: the sections would only refuse.
  const gateway = useQuery(methodsQuery).data?.mode === 'edge-access';
  // What linking came back with is shown once; the address loses it, so a reload does not repeat it.
  const [returned] = useState(search);
  useEffect(() => {
    if (returned.linked || returned.error) navigate({ to: '/account', search: {}, replace: true });
  }, [returned, navigate]);
  return (
    <Page
      title="Account"
      description={`${me.user.name ? `${me.user.name} · ` : ''}${shownAddress(me.user.email)} · ${me.user.roleName}`}
    >
      {gateway ? null : <PasskeysSection />}
      {gateway ? null : <SignInMethodsSection linked={returned.linked} refusal={returned.error} />}
      <TokensSection />
      <ConnectionsSection />
    </Page>
  );
}
