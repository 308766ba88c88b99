import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { authApi, type LinkResult } from '../../api/auth';
import { api, type User, unwrap } from '../../api/client';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { CopyField } from '../../components/CopyField';
import { hasAddress, shownAddress } from '../../lib/address';
import { formatDateTime } from '../../lib/format';
import { ROLES, type RoleLevel, roleName, toRoleLevel } from '../../lib/roles';
import { methodsQuery } from '../../lib/session';

interface Report {
  notice: (message: string) => void;
  error: (err: unknown) => void;
}

export function UserRow({ user, isSelf, report }: { user: User; isSelf: boolean; report: Report }) {
  const queryClient = useQueryClient();
  const [role, setRole] = useState(String(user.role));
  const [recovery, setRecovery] = useState<LinkResult | null>(null);
  // Sign-in links do not exist behind an edge access gateway.
  const gateway = useQuery(methodsQuery).data?.mode === 'edge-access';
  const who = user.name || shownAddress(user.email);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['users'] });

  const changeRole = useMutation({
    mutationFn: (level: RoleLevel) =>
      unwrap(api.PUT('/admin/users/{id}', { params: { path: { id: user.id } }, body: { role: level } })),
    onSuccess: (u) => report.notice(`${who} is now ${roleName(u.role)}.`),
    onError: (err) => {
      setRole(String(user.role));
      report.error(err);
    },
    onSettled: refresh,
  });
  const setDisabled = useMutation({
    mutationFn: (disable: boolean) =>
      disable
        ? unwrap(api.POST('/admin/users/{id}/disable', { params: { path: { id: user.id } } }))
        : unwrap(api.POST('/admin/users/{id}/enable', { params: { path: { id: user.id } } })),
    onSuccess: (u) =>
      report.notice(u.disabled ? `${who} is disabled and signed out everywhere.` : `${who} can sign in again.`),
    onError: report.error,
    onSettled: refresh,
  });
  const recover = useMutation({
    mutationFn: () => authApi.recoveryLink(user.id),
    onSuccess: (r) => {
      setRecovery(r);
      if (r.emailed) report.notice(`A recovery sign-in link was emailed to ${user.email}.`);
    },
    onError: report.error,
  });

  const roleChanged = role !== String(user.role);
  return (
    <>
      <tr className={user.disabled ? 'is-disabled' : undefined}>
        <td data-label="Person">
          <div>
            <span className="cell-title">
              {user.name || <span className="muted">No name</span>}
              {isSelf ? <span className="badge">you</span> : null}
            </span>
            <span className="cell-sub">
              {hasAddress(user.email) ? (
                user.email
              ) : (
                <span
                  className="muted"
                  title="Signs in with a linked identity (AT Protocol); nothing is mailed to them"
                >
                  No address
                </span>
              )}
            </span>
          </div>
        </td>
        <td data-label="Role">
          <div className="role-edit">
            <label className="visually-hidden" htmlFor={`role-${user.id}`}>
              Role of {who}
            </label>
            <select
              id={`role-${user.id}`}
              className="input select input--small"
              value={role}
              onChange={(e) => setRole(e.target.value)}
            >
              {ROLES.map((r) => (
                <option key={r.level} value={r.level}>
                  {r.name}
                </option>
              ))}
            </select>
            {roleChanged ? (
              <>
                <Button
                  size="small"
                  variant="primary"
                  busy={changeRole.isPending}
                  onClick={() => changeRole.mutate(toRoleLevel(role))}
                >
                  Save<span className="visually-hidden"> role of {who}</span>
                </Button>
                <Button size="small" variant="ghost" onClick={() => setRole(String(user.role))}>
                  Cancel
                </Button>
              </>
            ) : null}
          </div>
        </td>
        <td data-label="Status">
          <span className={user.disabled ? 'status status--off' : 'status status--on'}>
            {user.disabled ? 'Disabled' : 'Active'}
          </span>
        </td>
        <td data-label="Last sign-in" className="cell-date">
          {formatDateTime(user.lastSignInAt)}
        </td>
        <td data-label="Passkeys">{user.passkeyCount}</td>
        <td data-label="Actions" className="cell-actions">
          {gateway ? null : (
            <Button size="small" variant="ghost" busy={recover.isPending} onClick={() => recover.mutate()}>
              Recovery link<span className="visually-hidden"> for {who}</span>
            </Button>
          )}
          {user.disabled ? (
            <Button size="small" variant="ghost" busy={setDisabled.isPending} onClick={() => setDisabled.mutate(false)}>
              Enable<span className="visually-hidden"> {who}</span>
            </Button>
          ) : isSelf ? null : (
            <ConfirmButton
              label="Disable"
              question={`Disable ${who}?`}
              confirmLabel="Disable"
              onConfirm={() => setDisabled.mutate(true)}
              busy={setDisabled.isPending}
            />
          )}
        </td>
      </tr>
      {recovery?.link ? (
        <tr className="row-detail">
          <td colSpan={6}>
            <CopyField
              label={`Recovery link for ${user.email}`}
              hint="Email is not configured, so send this link yourself. It signs the person in once, within 15 minutes."
              value={recovery.link}
            />
            <Button size="small" variant="ghost" onClick={() => setRecovery(null)}>
              Done
            </Button>
          </td>
        </tr>
      ) : null}
    </>
  );
}
