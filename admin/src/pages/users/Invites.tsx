import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { authApi } from '../../api/auth';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyField } from '../../components/CopyField';
import { ErrorMessage, Notice } from '../../components/Feedback';
import { SelectField, TextField } from '../../components/Field';
import { Section } from '../../components/Page';
import { formatDate } from '../../lib/format';
import { issueFor, otherIssues } from '../../lib/forms';
import { ROLES, roleName } from '../../lib/roles';

const invitesKey = ['invites'];

/** Invite by email and role; without email configured the link is shown to copy. Pending invites below. */
export function InviteSection() {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('30');
  const [local, setLocal] = useState<string | undefined>();
  const [result, setResult] = useState<{ email: string; link: string | null; emailed: boolean } | null>(null);
  const roleHintId = useId();
  const pending = useQuery({ queryKey: invitesKey, queryFn: authApi.listInvites });
  const invite = useMutation({
    mutationFn: authApi.createInvite,
    onMutate: () => setResult(null),
    onSuccess: (r) => {
      setResult({ email: r.invite.email, link: r.link, emailed: r.emailed });
      setEmail('');
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitesKey }),
  });
  const revoke = useMutation({
    mutationFn: authApi.deleteInvite,
    onSettled: () => queryClient.invalidateQueries({ queryKey: invitesKey }),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!email.trim()) {
      setLocal('Enter the email address to invite.');
      return;
    }
    setLocal(undefined);
    invite.mutate({ email: email.trim(), role: Number(role) });
  }

  const items = pending.data?.items ?? [];
  return (
    <Section id="invite" title="Invite someone" description="Invitations work once and expire after 7 days.">
      <form className="inline-form inline-form--3" onSubmit={submit} noValidate>
        <TextField
          label="Email"
          name="email"
          type="email"
          required
          autoComplete="off"
          value={email}
          onValue={setEmail}
          error={local ?? issueFor(invite.error, 'email')}
        />
        <SelectField
          label="Role"
          name="role"
          aria-describedby={roleHintId}
          value={role}
          onValue={setRole}
          error={issueFor(invite.error, 'role')}
        >
          {ROLES.map((r) => (
            <option key={r.level} value={r.level}>
              {r.name}
            </option>
          ))}
        </SelectField>
        <Button type="submit" variant="primary" busy={invite.isPending} busyLabel="Inviting…">
          Send invitation
        </Button>
      </form>
      <p id={roleHintId} className="small muted">
        {roleName(Number(role))}: {ROLES.find((r) => String(r.level) === role)?.hint}
      </p>
      <ErrorMessage error={invite.error} extra={otherIssues(invite.error, ['email', 'role'])} />
      {result ? (
        result.link ? (
          <div className="secret" data-testid="invite-result">
            <Notice>
              Email is not configured, so send this invitation link to <strong>{result.email}</strong> yourself.
            </Notice>
            <CopyField label={`Invitation link for ${result.email}`} value={result.link} />
          </div>
        ) : (
          <Notice tone="success">Invitation emailed to {result.email}.</Notice>
        )
      ) : null}
      {items.length ? (
        <>
          <h3 className="subform__title">Pending invitations</h3>
          <ErrorMessage error={revoke.error} />
          <ul className="rows" aria-label="Pending invitations">
            {items.map((i) => (
              <li key={i.id} className="row">
                <div className="row__main">
                  <p className="row__title">{i.email}</p>
                  <p className="row__meta">
                    <span>{roleName(i.role)}</span>
                    <span>Expires {formatDate(i.expiresAt)}</span>
                  </p>
                </div>
                <div className="row__actions">
                  <ConfirmButton
                    label="Withdraw"
                    question={`Withdraw the invitation for ${i.email}?`}
                    confirmLabel="Withdraw"
                    onConfirm={() => revoke.mutate(i.id)}
                    busy={revoke.isPending && revoke.variables === i.id}
                  />
                </div>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Section>
  );
}
