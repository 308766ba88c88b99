import { useQuery } from '@tanstack/react-query';
import type { LoginProvider } from '../../api/auth';
import { CopyField } from '../../components/CopyField';
import { ErrorMessage, Spinner } from '../../components/Feedback';
import { Section } from '../../components/Page';
import { providersQuery, renderingOrder } from '../../components/ProviderChoices';

/**
 * Admin: the login providers this site offers, in the order the sign-in pages show them, each with
 * the callback URL to register at the provider and whether its credentials are set. The list
 * itself lives in the configuration file (`providers`) and the secrets in the environment, so
 * there is nothing to edit here.
 */
/** A public client (AT Protocol) is known by the metadata document it serves: nothing to register. */
const publishesClientMetadata = (p: LoginProvider) =>
  p.descriptor?.routes.some((r) => r.pattern.endsWith('/client-metadata.json')) ?? false;

export function ProvidersSection() {
  const providers = useQuery(providersQuery);
  const items = renderingOrder(providers.data ?? []);
  return (
    <Section
      id="sign-in-providers"
      title="Sign-in providers"
      description={
        <>
          Besides passkeys, people can sign in with these, shown in this order. They are listed in{' '}
          <code>providers</code> in the configuration file, their client IDs and secrets come from the environment.
          Register each callback URL with its provider as the redirect URL, except where it says there is nothing to
          register.
        </>
      }
    >
      {providers.isPending ? <Spinner /> : null}
      {providers.isError ? <ErrorMessage error={providers.error} /> : null}
      {providers.isSuccess && !items.length ? (
        <p className="muted">
          No login providers are configured: people sign in with passkeys (and emailed links when email is set up).
        </p>
      ) : null}
      {items.length ? (
        <ul className="rows" aria-label="Configured sign-in providers">
          {items.map((p) => (
            <li key={p.id} className="row row--stack provider-row">
              <div className="row__main">
                <p className="row__title">
                  {p.label} <span className="muted small mono">{p.id}</span>
                </p>
                <p className="row__meta">
                  <span>{p.kind === 'form' ? 'Asks for a handle' : 'Button'}</span>
                  {publishesClientMetadata(p) ? (
                    <span className="status status--on">No client secret needed</span>
                  ) : p.credentialsSet === undefined ? null : (
                    <span className={p.credentialsSet ? 'status status--on' : 'status status--off'}>
                      {p.credentialsSet ? 'Credentials set' : 'Credentials missing'}
                    </span>
                  )}
                </p>
              </div>
              {p.callbackUrl ? (
                <CopyField
                  label={`Callback URL for ${p.label}`}
                  value={p.callbackUrl}
                  hint={
                    publishesClientMetadata(p)
                      ? 'Nothing to register: the provider reads this site’s client metadata when someone signs in.'
                      : undefined
                  }
                />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}
