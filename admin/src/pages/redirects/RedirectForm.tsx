import { type FormEvent, useState } from 'react';
import type { Schemas } from '../../api/client';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/Feedback';
import { SelectField, TextField } from '../../components/Field';
import { issueFor, otherIssues } from '../../lib/forms';

export type Redirect = Schemas['Redirect'];
export type RedirectBody = Schemas['CreateRedirectRequest'];
type StatusCode = Redirect['statusCode'];

export const STATUS_CODES: Array<{ code: StatusCode; label: string }> = [
  { code: 301, label: '301 Moved permanently' },
  { code: 308, label: '308 Permanent, keeps the method' },
  { code: 302, label: '302 Found (temporary)' },
  { code: 307, label: '307 Temporary, keeps the method' },
];

const FIELDS = ['source', 'target', 'statusCode', 'note'];

/** Source, target, status and note; used to add a rule and to edit one in place. */
export function RedirectForm({
  initial,
  submitLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  initial?: Partial<RedirectBody>;
  submitLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (body: RedirectBody) => void;
  onCancel?: () => void;
}) {
  const [source, setSource] = useState(initial?.source ?? '');
  const [target, setTarget] = useState(initial?.target ?? '');
  const [status, setStatus] = useState(String(initial?.statusCode ?? 301));
  const [note, setNote] = useState(initial?.note ?? '');
  const [local, setLocal] = useState<Record<string, string>>({});

  function submit(e: FormEvent) {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (!source.trim().startsWith('/')) problems.source = 'Start with “/”, for example /old-page.';
    if (!target.trim()) problems.target = 'Enter where visitors should go.';
    setLocal(problems);
    if (Object.keys(problems).length) return;
    onSubmit({
      source: source.trim(),
      target: target.trim(),
      statusCode: Number(status) as StatusCode,
      note: note.trim() || null,
    });
  }

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <div className="grid-2">
        <TextField
          label="From (path on this site)"
          name="source"
          required
          placeholder="/old-page"
          hint={
            <>
              <code>/old</code> exact, <code>/docs/*</code> everything below, <code>/blog/:year/:slug</code> with
              captures
            </>
          }
          autoComplete="off"
          spellCheck={false}
          value={source}
          onValue={setSource}
          error={local.source ?? issueFor(error, 'source')}
        />
        <TextField
          label="To"
          name="target"
          required
          placeholder="/new-page or https://…"
          hint={
            <>
              Use <code>:slug</code> or <code>:splat</code> to carry captures over
            </>
          }
          autoComplete="off"
          spellCheck={false}
          value={target}
          onValue={setTarget}
          error={local.target ?? issueFor(error, 'target')}
        />
      </div>
      <div className="grid-2">
        <SelectField
          label="Kind of redirect"
          name="statusCode"
          value={status}
          onValue={setStatus}
          error={issueFor(error, 'statusCode')}
        >
          {STATUS_CODES.map((s) => (
            <option key={s.code} value={s.code}>
              {s.label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Note"
          name="note"
          optional
          placeholder="Why this redirect exists"
          value={note}
          onValue={setNote}
          error={issueFor(error, 'note')}
        />
      </div>
      <ErrorMessage error={error} extra={otherIssues(error, FIELDS)} />
      <div className="actions">
        <Button type="submit" variant="primary" busy={busy}>
          {submitLabel}
        </Button>
        {onCancel ? (
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}
