import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { authApi, type LinkedIdentity } from '../../api/auth';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { Section } from '../../components/Page';
import { ProviderChoices, ProviderRefusal, providersQuery } from '../../components/ProviderChoices';
import { formatDateTime } from '../../lib/format';
import { providerError } from '../../lib/providerErrors';

const identitiesKey = ['identities'];

/** Who the identity is at its provider: the handle, else the address, else the provider's account ID. */
function whoAt(identity: LinkedIdentity): string {
  if (identity.handle) return `@${identity.handle}`;
  if (identity.address) return identity.address;
  return `Account ID ${identity.subject}`;
}

/**
 * The accounts at login providers linked to this one: each signs in here as well as the passkeys.
 * Link another (the browser goes to the provider and comes back with `linked` or `error`), or
 * unlink one while another way in remains (the service refuses the last one).
 */
export function SignInMethodsSection({ linked, refusal }: { linked?: string; refusal?: string }) {
  const queryClient = useQueryClient();
  const identities = useQuery({ queryKey: identitiesKey, queryFn: authApi.listIdentities });
  const providers = useQuery(providersQuery);
  const [actionError, setActionError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [showReturn, setShowReturn] = useState(true);

  const unlink = useMutation({
    mutationFn: (i: LinkedIdentity) => authApi.unlinkIdentity(i.provider, i.subject),
    onMutate: () => {
      setShowReturn(false);
      setActionError(null);
      setNotice(null);
    },
    onSuccess: (_d, i) => setNotice(`Unlinked ${i.label} (${whoAt(i)}).`),
    onError: (err) => setActionError(new Error(providerError(err))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: identitiesKey }),
  });

  const items = identities.data?.items ?? [];
  const offered = providers.data ?? [];
  // A site without providers and an account without identities: nothing to show or do here.
  if (identities.isSuccess && providers.isSuccess && !items.length && !offered.length) return null;

  const linkedLabel = linked ? (offered.find((p) => p.id === linked)?.label ?? linked) : null;
  const linkedCount = (id: string) => items.filter((i) => i.provider === id).length;

  return (
    <Section
      id="sign-in-methods"
      title="Sign-in methods"
      description="Accounts at other services you can sign in with, besides your passkeys. One way in always remains: the last one cannot be unlinked."
    >
      {showReturn && refusal ? <ProviderRefusal code={refusal} /> : null}
      {showReturn && linkedLabel && !refusal ? (
        <Notice tone="success">Linked your {linkedLabel} account.</Notice>
      ) : null}
      {identities.isPending ? <Spinner /> : null}
      {identities.isError ? <ErrorMessage error={identities.error} /> : null}
      <ErrorMessage error={actionError} />
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      {items.length ? (
        <ul className="rows" aria-label="Your linked accounts">
          {items.map((i) => (
            <li key={`${i.provider}/${i.subject}`} className="row">
              <div className="row__main">
                <p className="row__title">
                  {i.label} <span className="row__who">{whoAt(i)}</span>
                </p>
                <p className="row__meta">
                  <span>Linked {formatDateTime(i.createdAt)}</span>
                  <span>Last used {formatDateTime(i.lastUsedAt)}</span>
                </p>
              </div>
              <div className="row__actions">
                <ConfirmButton
                  label={`Unlink ${i.label}`}
                  question={`Unlink ${i.label} (${whoAt(i)})? It will no longer sign you in.`}
                  confirmLabel="Unlink"
                  onConfirm={() => unlink.mutate(i)}
                  busy={unlink.isPending && unlink.variables?.subject === i.subject}
                />
              </div>
            </li>
          ))}
        </ul>
      ) : identities.isSuccess ? (
        <p className="muted">No accounts at other services are linked yet.</p>
      ) : null}
      {offered.length ? (
        <div className="subform">
          <h3 className="subform__title">Link an account</h3>
          <p className="small muted">
            You go to the service to sign in there, then come back here. Its account then signs you in to this site.
          </p>
          <ProviderChoices
            providers={offered}
            label="Services you can link"
            start={{ intent: 'link' }}
            inline
            verb={(p) => (linkedCount(p.id) ? `Link another ${p.label} account` : `Link ${p.label}`)}
            onStart={() => {
              setShowReturn(false);
              setActionError(null);
              setNotice(null);
            }}
          />
        </div>
      ) : null}
    </Section>
  );
}
