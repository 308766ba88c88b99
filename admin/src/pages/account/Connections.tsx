import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type Connection, connectionsApi } from '../../api/oauth';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { Section } from '../../components/Page';
import { formatDate, formatDateTime } from '../../lib/format';

const connectionsKey = ['oauth-connections'];

/** Applications signed in through OAuth (MCP clients, the command line), each with a Disconnect. */
export function ConnectionsSection() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: connectionsKey, queryFn: connectionsApi.list });
  const [notice, setNotice] = useState<string | null>(null);
  const disconnect = useMutation({
    mutationFn: (c: Connection) => connectionsApi.disconnect(c.id),
    onMutate: () => setNotice(null),
    onSuccess: (_d, c) => setNotice(`Disconnected “${c.client.name}”. It can no longer use your account.`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: connectionsKey }),
  });
  const items = list.data?.items ?? [];

  return (
    <Section
      id="connections"
      title="Connected applications"
      description="Applications you approved (AI tools, the command line). They can never do more than your role allows."
    >
      {list.isPending ? <Spinner /> : null}
      {list.isError ? <ErrorMessage error={list.error} /> : null}
      <ErrorMessage error={disconnect.error} />
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      {list.isSuccess && !items.length ? <p className="muted">No connected applications.</p> : null}
      {items.length ? (
        <ul className="rows" aria-label="Connected applications">
          {items.map((c) => (
            <li key={c.id} className="row">
              <div className="row__main">
                <p className="row__title">{c.client.name}</p>
                <p className="row__meta">
                  <span>Last renewed {formatDateTime(c.renewedAt)}</span>
                  <span>Ends {formatDate(c.expiresAt)} unless used</span>
                </p>
                <ul className="chips" aria-label="Scopes">
                  {c.scopes.map((s) => (
                    <li key={s} className="chip">
                      {s}
                    </li>
                  ))}
                </ul>
              </div>
              <div className="row__actions">
                <ConfirmButton
                  label="Disconnect"
                  question={`Disconnect “${c.client.name}”?`}
                  confirmLabel="Disconnect"
                  onConfirm={() => disconnect.mutate(c)}
                  busy={disconnect.isPending && disconnect.variables?.id === c.id}
                />
              </div>
            </li>
          ))}
        </ul>
      ) : null}
    </Section>
  );
}
