import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { authApi, type TokenRecord } from '../../api/auth';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyField } from '../../components/CopyField';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { SelectField, TextField } from '../../components/Field';
import { Section } from '../../components/Page';
import { ScopeChecklist } from '../../components/ScopeChecklist';
import { formatDate, formatDateTime } from '../../lib/format';
import { issueFor, otherIssues } from '../../lib/forms';

const tokensKey = ['tokens'];
const EXPIRY = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never' },
];

export function TokensSection() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: tokensKey, queryFn: authApi.listTokens });
  const [created, setCreated] = useState<{ token: string; record: TokenRecord } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const revoke = useMutation({
    mutationFn: (t: TokenRecord) => authApi.revokeToken(t.id),
    onMutate: () => setNotice(null),
    onSuccess: (_d, t) => setNotice(`Revoked “${t.name}”. Programs using it can no longer sign in.`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokensKey }),
  });
  const items = list.data?.items ?? [];

  return (
    <Section
      id="tokens"
      title="Personal access tokens"
      description="For scripts, the command line and AI tools. A token can never do more than your role allows."
    >
      {created ? (
        <div className="secret" data-testid="new-token">
          <Notice tone="success">Token “{created.record.name}” created. Copy it now — it is shown only once.</Notice>
          <CopyField label="Your new token" value={created.token} />
          <Button size="small" onClick={() => setCreated(null)}>
            I have copied it
          </Button>
        </div>
      ) : null}
      {list.isPending ? <Spinner /> : null}
      {list.isError ? <ErrorMessage error={list.error} /> : null}
      <ErrorMessage error={revoke.error} />
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      {list.isSuccess && !items.length ? <p className="muted">No tokens yet.</p> : null}
      {items.length ? (
        <ul className="rows" aria-label="Your tokens">
          {items.map((t) => (
            <li key={t.id} className="row">
              <div className="row__main">
                <p className="row__title">
                  {t.name} <code className="code">{t.prefix}…</code>
                </p>
                <p className="row__meta">
                  <span>Created {formatDate(t.createdAt)}</span>
                  <span>Last used {formatDateTime(t.lastUsedAt)}</span>
                  <span>{t.expiresAt ? `Expires ${formatDate(t.expiresAt)}` : 'Never expires'}</span>
                </p>
                <ul className="chips" aria-label="Scopes">
                  {t.scopes.map((s) => (
                    <li key={s} className="chip">
                      {s}
                    </li>
                  ))}
                </ul>
              </div>
              <div className="row__actions">
                <ConfirmButton
                  label="Revoke"
                  question={`Revoke “${t.name}”?`}
                  confirmLabel="Revoke token"
                  onConfirm={() => revoke.mutate(t)}
                  busy={revoke.isPending && revoke.variables?.id === t.id}
                />
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      <CreateToken
        onCreated={(result) => {
          setNotice(null);
          setCreated(result);
          queryClient.invalidateQueries({ queryKey: tokensKey });
        }}
      />
    </Section>
  );
}

function CreateToken({ onCreated }: { onCreated: (r: { token: string; record: TokenRecord }) => void }) {
  const scopes = useQuery({ queryKey: ['scopes'], queryFn: authApi.listScopes, staleTime: 5 * 60_000 });
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [expiry, setExpiry] = useState('90');
  const [local, setLocal] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: authApi.createToken,
    onSuccess: (result) => {
      setName('');
      setChosen([]);
      onCreated(result);
    },
  });

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (!name.trim()) problems.name = 'Give the token a name.';
    if (!chosen.length) problems.scopes = 'Choose at least one scope.';
    setLocal(problems);
    const first = Object.keys(problems)[0];
    if (first) {
      e.currentTarget.querySelector<HTMLInputElement>(`[name="${first}"]:not(:disabled)`)?.focus();
      return;
    }
    const expiresAt = expiry === 'never' ? undefined : new Date(Date.now() + Number(expiry) * 86_400_000).toISOString();
    create.mutate({ name: name.trim(), scopes: chosen, expiresAt });
  }

  const scopeError = local.scopes ?? issueFor(create.error, 'scopes');
  return (
    <form className="subform" onSubmit={submit} noValidate>
      <h3 className="subform__title">Create a token</h3>
      <div className="grid-2">
        <TextField
          label="Name"
          name="name"
          required
          hint="What will use it, e.g. “Deploy script”."
          value={name}
          onValue={setName}
          error={local.name ?? issueFor(create.error, 'name')}
          maxLength={100}
        />
        <SelectField
          label="Expires after"
          name="expiresAt"
          hint="You can revoke it at any time."
          value={expiry}
          onValue={setExpiry}
          error={issueFor(create.error, 'expiresAt')}
        >
          {EXPIRY.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </SelectField>
      </div>
      <ScopeChecklist
        legend="Scopes"
        columns="multi"
        scopes={scopes.data?.items ?? []}
        chosen={chosen}
        onChange={setChosen}
        error={scopeError}
        status={
          <>
            {scopes.isPending ? <Spinner label="Loading scopes…" /> : null}
            {scopes.isError ? <ErrorMessage error={scopes.error} /> : null}
          </>
        }
      />
      <ErrorMessage error={create.error} extra={otherIssues(create.error, ['name', 'scopes', 'expiresAt'])} />
      <div className="actions">
        <Button type="submit" variant="primary" busy={create.isPending} busyLabel="Creating…">
          Create token
        </Button>
      </div>
    </form>
  );
}
