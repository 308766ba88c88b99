import type { Me } from '../api/auth';
import { Page } from '../components/Page';
import { ConnectionsSection } from './account/Connections';
import { PasskeysSection } from './account/Passkeys';
import { TokensSection } from './account/Tokens';

/** The signed-in person's own passkeys, personal access tokens and connected applications. */
export function AccountPage({ me }: { me: Me }) {
  return (
    <Page
      title="Account"
      description={`${me.user.name ? `${me.user.name} · ` : ''}${me.user.email} · ${me.user.roleName}`}
    >
      <PasskeysSection />
      <TokensSection />
      <ConnectionsSection />
    </Page>
  );
}
