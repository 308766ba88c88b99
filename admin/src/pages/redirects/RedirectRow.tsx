import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';
import { formatDateTime } from '../../lib/format';
import { type Redirect, type RedirectBody, RedirectForm } from './RedirectForm';

interface Report {
  notice: (m: string, warnings?: Redirect['warnings']) => void;
  error: (e: unknown) => void;
}

export function RedirectRow({
  redirect: r,
  report,
  onChanged,
}: {
  redirect: Redirect;
  report: Report;
  onChanged: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const path = { params: { path: { id: r.id } } };
  const save = useMutation({
    mutationFn: (body: Partial<RedirectBody> & { enabled?: boolean }) =>
      unwrap(api.PUT('/redirects/{id}', { ...path, body })),
    onSuccess: (u) => {
      setEditing(false);
      report.notice(`Saved ${u.source} → ${u.target}${u.enabled ? '' : ' (off)'}.`, u.warnings);
      onChanged();
    },
  });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => unwrap(api.PUT('/redirects/{id}', { ...path, body: { enabled } })),
    onSuccess: (u) => {
      report.notice(u.enabled ? `${u.source} redirects again.` : `${u.source} no longer redirects.`, u.warnings);
      onChanged();
    },
    onError: report.error,
  });
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/redirects/{id}', path)),
    onSuccess: () => {
      report.notice(`Deleted the redirect from ${r.source}.`);
      onChanged();
    },
    onError: report.error,
  });

  if (editing) {
    return (
      <tr className="row-detail">
        <td colSpan={5}>
          <RedirectForm
            initial={{ source: r.source, target: r.target, statusCode: r.statusCode, note: r.note }}
            submitLabel="Save"
            busy={save.isPending}
            error={save.error}
            onSubmit={(body) => save.mutate(body)}
            onCancel={() => {
              setEditing(false);
              save.reset();
            }}
          />
        </td>
      </tr>
    );
  }
  return (
    <tr className={r.enabled ? undefined : 'is-disabled'}>
      <td data-label="From → to">
        <div>
          <span className="cell-title">
            <code>{r.source}</code> → <code>{r.target}</code>
          </span>
          {r.note ? <span className="cell-sub">{r.note}</span> : null}
          {r.warnings.map((w) => (
            <span key={w.message} className="cell-sub warning">
              ⚠ {w.message}
            </span>
          ))}
        </div>
      </td>
      <td data-label="Kind">
        {r.statusCode} <span className="muted">{r.kind}</span>
      </td>
      <td data-label="Hits">
        {r.hits}
        {r.lastHitAt ? <span className="cell-sub">last {formatDateTime(r.lastHitAt)}</span> : null}
      </td>
      <td data-label="Status">
        <span className={r.enabled ? 'status status--on' : 'status status--off'}>{r.enabled ? 'On' : 'Off'}</span>
      </td>
      <td data-label="Actions" className="cell-actions">
        <Button size="small" variant="ghost" onClick={() => setEditing(true)}>
          Edit<span className="visually-hidden"> redirect from {r.source}</span>
        </Button>
        <Button size="small" variant="ghost" busy={toggle.isPending} onClick={() => toggle.mutate(!r.enabled)}>
          {r.enabled ? 'Turn off' : 'Turn on'}
          <span className="visually-hidden"> redirect from {r.source}</span>
        </Button>
        <ConfirmButton
          label="Delete"
          question={`Delete the redirect from ${r.source}?`}
          confirmLabel="Delete"
          onConfirm={() => remove.mutate()}
          busy={remove.isPending}
        />
      </td>
    </tr>
  );
}
