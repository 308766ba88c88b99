import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type AllowedDomain, api, unwrap } from '../api/client';
import { Button } from '../components/Button';
import { ConfirmButton } from '../components/ConfirmButton';
import { ErrorMessage, Notice, Spinner } from '../components/Feedback';
import { SelectField, TextField } from '../components/Field';
import { Page, Section } from '../components/Page';
import { issueFor, otherIssues } from '../lib/forms';
import { roleName, SIGNUP_ROLES } from '../lib/roles';

type SignupRole = (typeof SIGNUP_ROLES)[number]['level'];
const toSignupRole = (value: string): SignupRole => SIGNUP_ROLES.find((r) => String(r.level) === value)?.level ?? 20;

const domainsKey = ['allowed-domains'];

/** Admin: email domains whose people may sign up without an invitation, each with a default role. */
export function AllowedDomainsPage() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: domainsKey, queryFn: () => unwrap(api.GET('/admin/allowed-domains')) });
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: domainsKey });
  const report = {
    notice: (m: string) => {
      setActionError(null);
      setNotice(m);
    },
    error: (e: unknown) => {
      setNotice(null);
      setActionError(e);
    },
  };
  const items = list.data?.items ?? [];

  return (
    <Page
      title="Allowed domains"
      description="People with an email address in one of these domains can request an account at the sign-up page; they confirm their address by email first."
    >
      <AddDomain
        onAdded={(d) => {
          report.notice(`People at ${d.domain} can now sign up as ${roleName(d.defaultRole)}.`);
          refresh();
        }}
      />
      <Section id="domains" title="Domains">
        <ErrorMessage error={actionError} />
        {notice ? <Notice tone="success">{notice}</Notice> : null}
        {list.isPending ? <Spinner /> : null}
        {list.isError ? <ErrorMessage error={list.error} /> : null}
        {list.isSuccess && !items.length ? (
          <p className="empty">No domains yet: only invited people can join.</p>
        ) : null}
        {items.length ? (
          <ul className="rows" aria-label="Allowed domains">
            {items.map((d) => (
              <DomainRow key={d.domain} domain={d} report={report} onChanged={refresh} />
            ))}
          </ul>
        ) : null}
      </Section>
    </Page>
  );
}

function AddDomain({ onAdded }: { onAdded: (d: AllowedDomain) => void }) {
  const [domain, setDomain] = useState('');
  const [role, setRole] = useState('20');
  const [local, setLocal] = useState<string | undefined>();
  const add = useMutation({
    mutationFn: (body: { domain: string; defaultRole: SignupRole }) =>
      unwrap(api.POST('/admin/allowed-domains', { body })),
    onSuccess: (d) => {
      setDomain('');
      onAdded(d);
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    const value = domain.trim().replace(/^@/, '').toLowerCase();
    if (!value) {
      setLocal('Enter a domain such as example.com.');
      return;
    }
    setLocal(undefined);
    add.mutate({ domain: value, defaultRole: toSignupRole(role) });
  }
  return (
    <Section id="add-domain" title="Add a domain">
      <form className="inline-form inline-form--3" onSubmit={submit} noValidate>
        <TextField
          label="Domain"
          name="domain"
          required
          placeholder="example.com"
          autoComplete="off"
          spellCheck={false}
          value={domain}
          onValue={setDomain}
          error={local ?? issueFor(add.error, 'domain')}
        />
        <SelectField
          label="Default role"
          name="defaultRole"
          value={role}
          onValue={setRole}
          error={issueFor(add.error, 'defaultRole')}
        >
          {SIGNUP_ROLES.map((r) => (
            <option key={r.level} value={r.level}>
              {r.name}
            </option>
          ))}
        </SelectField>
        <Button type="submit" variant="primary" busy={add.isPending} busyLabel="Adding…">
          Add domain
        </Button>
      </form>
      <ErrorMessage error={add.error} extra={otherIssues(add.error, ['domain', 'defaultRole'])} />
    </Section>
  );
}

interface Report {
  notice: (m: string) => void;
  error: (e: unknown) => void;
}

function DomainRow({ domain, report, onChanged }: { domain: AllowedDomain; report: Report; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const [role, setRole] = useState(String(domain.defaultRole));
  const [enabled, setEnabled] = useState(domain.enabled);
  const path = { params: { path: { domain: domain.domain } } };
  const save = useMutation({
    mutationFn: (body: { defaultRole: SignupRole; enabled: boolean }) =>
      unwrap(api.PUT('/admin/allowed-domains/{domain}', { ...path, body })),
    onSuccess: (d) => {
      setEditing(false);
      report.notice(`Saved ${d.domain}.`);
      onChanged();
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/admin/allowed-domains/{domain}', path)),
    onSuccess: () => {
      report.notice(`Removed ${domain.domain}. Existing accounts stay; new sign-ups from it are refused.`);
      onChanged();
    },
    onError: report.error,
  });

  if (editing) {
    return (
      <li className="row">
        <form
          className="row__edit"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate({ defaultRole: toSignupRole(role), enabled });
          }}
        >
          <p className="row__title">{domain.domain}</p>
          <div className="inline-form">
            <SelectField
              label="Default role"
              name="defaultRole"
              value={role}
              onValue={setRole}
              error={issueFor(save.error, 'defaultRole')}
            >
              {SIGNUP_ROLES.map((r) => (
                <option key={r.level} value={r.level}>
                  {r.name}
                </option>
              ))}
            </SelectField>
            <label className="check check--inline">
              <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
              <span>Sign-up open</span>
            </label>
          </div>
          <ErrorMessage error={save.error} extra={otherIssues(save.error, ['defaultRole'])} />
          <div className="actions">
            <Button type="submit" variant="primary" size="small" busy={save.isPending}>
              Save
            </Button>
            <Button
              size="small"
              variant="ghost"
              onClick={() => {
                setEditing(false);
                setRole(String(domain.defaultRole));
                setEnabled(domain.enabled);
                save.reset();
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      </li>
    );
  }
  return (
    <li className="row">
      <div className="row__main">
        <p className="row__title">{domain.domain}</p>
        <p className="row__meta">
          <span>New people join as {roleName(domain.defaultRole)}</span>
          <span className={domain.enabled ? 'status status--on' : 'status status--off'}>
            {domain.enabled ? 'Sign-up open' : 'Sign-up paused'}
          </span>
        </p>
      </div>
      <div className="row__actions">
        <Button size="small" variant="ghost" onClick={() => setEditing(true)}>
          Edit<span className="visually-hidden"> {domain.domain}</span>
        </Button>
        <ConfirmButton
          label="Delete"
          question={`Delete ${domain.domain}?`}
          confirmLabel="Delete domain"
          onConfirm={() => remove.mutate()}
          busy={remove.isPending}
        />
      </div>
    </li>
  );
}
