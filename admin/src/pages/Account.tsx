import { useQuery } from '@tanstack/react-query';
import type { Me } from '../api/auth';
import { Page } from '../components/Page';
import { methodsQuery } from '../lib/session';
import { ConnectionsSection } from './account/Connections';
import { PasskeysSection } from './account/Passkeys';
import { TokensSection } from './account/Tokens';

/** The signed-in person's own passkeys, personal access tokens and connected applications. */
export function AccountPage({ me }: { me: Me }) {
  // Behind an edge access gateway nobody signs in with a passkey here: the section would only refuse.
  const gateway = useQuery(methodsQuery).data?.mode === 'edge-access';
  return (
    <Page
      title="Account"
      description={`${me.user.name ? `${me.user.name} · ` : ''}${me.user.email} · ${me.user.roleName}`}
    >
      {gateway ? null : <PasskeysSection />}
      <TokensSection />
      <ConnectionsSection />
    </Page>
  );
}
