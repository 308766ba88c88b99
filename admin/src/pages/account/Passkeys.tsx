import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { authApi, type Passkey } from '../../api/auth';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { Section } from '../../components/Page';
import { formatDateTime } from '../../lib/format';
import { issueFor, optional } from '../../lib/forms';
import { createPasskey } from '../../lib/webauthn';

const MAX_PASSKEYS = 10;
const passkeysKey = ['passkeys'];

export function PasskeysSection() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: passkeysKey, queryFn: authApi.listPasskeys });
  const [actionError, setActionError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: passkeysKey });

  const remove = useMutation({
    mutationFn: (p: Passkey) => authApi.deletePasskey(p.id),
    onMutate: () => {
      setActionError(null);
      setNotice(null);
    },
    onSuccess: (_d, p) => setNotice(`Removed “${p.name || 'Unnamed passkey'}”.`),
    onError: setActionError,
    onSettled: refresh,
  });

  const items = list.data?.items ?? [];
  return (
    <Section
      id="passkeys"
      title="Passkeys"
      description={`Sign in with any of these. Up to ${MAX_PASSKEYS} per account; the last one cannot be removed.`}
    >
      {list.isPending ? <Spinner /> : null}
      {list.isError ? <ErrorMessage error={list.error} /> : null}
      <ErrorMessage error={actionError} />
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      {items.length ? (
        <ul className="rows" aria-label="Your passkeys">
          {items.map((p) => (
            <PasskeyRow
              key={p.id}
              passkey={p}
              onRemove={() => remove.mutate(p)}
              removing={remove.isPending && remove.variables?.id === p.id}
              onRenamed={(name) => {
                setActionError(null);
                setNotice(`Renamed to “${name}”.`);
                refresh();
              }}
            />
          ))}
        </ul>
      ) : null}
      <AddPasskey
        disabled={items.length >= MAX_PASSKEYS}
        onAdded={(name) => {
          setActionError(null);
          setNotice(`Added “${name}”.`);
          refresh();
        }}
      />
    </Section>
  );
}

function PasskeyRow({
  passkey,
  onRemove,
  removing,
  onRenamed,
}: {
  passkey: Passkey;
  onRemove: () => void;
  removing: boolean;
  onRenamed: (name: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(passkey.name ?? '');
  const [local, setLocal] = useState<string | undefined>();
  const rename = useMutation({
    mutationFn: (value: string) => authApi.renamePasskey(passkey.id, value),
    onSuccess: (_d, value) => {
      setEditing(false);
      onRenamed(value);
    },
  });
  const label = passkey.name || 'Unnamed passkey';

  return (
    <li className="row">
      {editing ? (
        <form
          className="row__edit"
          noValidate
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            setLocal(name.trim() ? undefined : 'Enter a name.');
            if (name.trim()) rename.mutate(name.trim());
          }}
        >
          <TextField
            label={`New name for “${label}”`}
            name="name"
            required
            autoFocus
            value={name}
            onValue={setName}
            error={local ?? issueFor(rename.error, 'name')}
            maxLength={100}
          />
          <ErrorMessage error={rename.error && !issueFor(rename.error, 'name') ? rename.error : null} />
          <div className="actions">
            <Button type="submit" variant="primary" size="small" busy={rename.isPending}>
              Save name
            </Button>
            <Button
              size="small"
              variant="ghost"
              onClick={() => {
                setEditing(false);
                setName(passkey.name ?? '');
                setLocal(undefined);
                rename.reset();
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <>
          <div className="row__main">
            <p className="row__title">{label}</p>
            <p className="row__meta">
              <span>{passkey.backedUp ? 'Synced passkey' : 'Device-bound passkey'}</span>
              <span>Added {formatDateTime(passkey.createdAt)}</span>
              <span>Last used {formatDateTime(passkey.lastUsedAt)}</span>
            </p>
          </div>
          <div className="row__actions">
            <Button size="small" variant="ghost" onClick={() => setEditing(true)}>
              Rename<span className="visually-hidden"> {label}</span>
            </Button>
            <ConfirmButton
              label="Remove"
              question={`Remove “${label}”?`}
              confirmLabel="Remove passkey"
              onConfirm={onRemove}
              busy={removing}
            />
          </div>
        </>
      )}
    </li>
  );
}

function AddPasskey({ disabled, onAdded }: { disabled: boolean; onAdded: (name: string) => void }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function add(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { challengeId, options } = await authApi.addPasskeyOptions();
      const credential = await createPasskey(options);
      const { passkey } = await authApi.addPasskey({ challengeId, credential, name: optional(name) });
      setName('');
      onAdded(passkey.name || 'Unnamed passkey');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="subform" onSubmit={add} noValidate>
      <h3 className="subform__title">Add a passkey</h3>
      <div className="inline-form">
        <TextField
          label="Name"
          name="name"
          optional
          hint="Helps you tell them apart, e.g. “Work laptop”."
          value={name}
          onValue={setName}
          error={issueFor(error, 'name')}
          maxLength={100}
        />
        <Button type="submit" variant="primary" busy={busy} busyLabel="Waiting for your passkey…" disabled={disabled}>
          Add passkey
        </Button>
      </div>
      {disabled ? <p className="small muted">You have the maximum of {MAX_PASSKEYS} passkeys.</p> : null}
      <ErrorMessage error={error} />
    </form>
  );
}
