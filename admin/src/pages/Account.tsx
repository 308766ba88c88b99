import type { Me } from '../api/auth';
import { Page } from '../components/Page';
import { PasskeysSection } from './account/Passkeys';
import { TokensSection } from './account/Tokens';

/** The signed-in person's own passkeys and personal access tokens. */
export function AccountPage({ me }: { me: Me }) {
  return (
    <Page
      title="Account"
      description={`${me.user.name ? `${me.user.name} · ` : ''}${me.user.email} · ${me.user.roleName}`}
    >
      <PasskeysSection />
      <TokensSection />
    </Page>
  );
}
