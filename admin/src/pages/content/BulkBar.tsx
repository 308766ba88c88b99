import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { messageOf } from '../../api/errors';
import { Button } from '../../components/Button';
import { ConfirmButton } from '../../components/ConfirmButton';

export type BulkAction = 'publish' | 'unpublish' | 'trash' | 'restore' | 'permanent';

export interface BulkResult {
  id: string;
  title: string;
  ok: boolean;
  message?: string;
}

const LABEL: Record<BulkAction, string> = {
  publish: 'Publish',
  unpublish: 'Unpublish',
  trash: 'Move to trash',
  restore: 'Restore',
  permanent: 'Delete permanently',
};

function runOne(collection: string, id: string, action: BulkAction): Promise<unknown> {
  const path = { params: { path: { collection, id } } };
  switch (action) {
    case 'publish':
      return unwrap(api.POST('/content/{collection}/{id}/publish', { ...path, body: {} }));
    case 'unpublish':
      return unwrap(api.POST('/content/{collection}/{id}/unpublish', { ...path, body: {} }));
    case 'trash':
      return unwrap(api.DELETE('/content/{collection}/{id}', path));
    case 'restore':
      return unwrap(api.POST('/content/{collection}/{id}/restore', { ...path, body: {} }));
    case 'permanent':
      return unwrap(api.DELETE('/content/{collection}/{id}/permanent', path));
  }
}

/** Runs one action over the selected entries, four at a time, and reports each row's outcome. */
export async function runBulk(
  collection: string,
  rows: Array<{ id: string; title: string }>,
  action: BulkAction,
  onProgress: (done: number) => void,
): Promise<BulkResult[]> {
  const results: BulkResult[] = [];
  let next = 0;
  async function worker() {
    while (next < rows.length) {
      const row = rows[next++];
      try {
        await runOne(collection, row.id, action);
        results.push({ ...row, ok: true });
      } catch (err) {
        results.push({ ...row, ok: false, message: messageOf(err) });
      }
      onProgress(results.length);
    }
  }
  await Promise.all(Array.from({ length: Math.min(4, rows.length) }, worker));
  return results;
}

export function BulkBar({
  count,
  actions,
  onRun,
  onClear,
  busy,
}: {
  count: number;
  actions: BulkAction[];
  onRun: (a: BulkAction) => void;
  onClear: () => void;
  busy: boolean;
}) {
  return (
    <section className="bulkbar" aria-label="Bulk actions">
      <strong>{count} selected</strong>
      {actions.map((a) =>
        a === 'permanent' || a === 'trash' ? (
          <ConfirmButton
            key={a}
            label={LABEL[a]}
            confirmLabel={`${LABEL[a]} ${count}`}
            question={
              a === 'permanent' ? `Delete ${count} for good? This cannot be undone.` : `Move ${count} to the trash?`
            }
            onConfirm={() => onRun(a)}
            busy={busy}
          />
        ) : (
          <Button key={a} size="small" onClick={() => onRun(a)} disabled={busy}>
            {LABEL[a]}
          </Button>
        ),
      )}
      <Button size="small" variant="ghost" onClick={onClear} disabled={busy}>
        Clear selection
      </Button>
    </section>
  );
}

export function BulkReport({
  action,
  results,
  onClose,
}: {
  action: BulkAction;
  results: BulkResult[];
  onClose: () => void;
}) {
  const [showAll, setShowAll] = useState(false);
  const failed = results.filter((r) => !r.ok);
  const shown = showAll ? results : failed;
  return (
    <div
      className={failed.length ? 'alert alert--error bulk-report' : 'alert alert--success bulk-report'}
      role="status"
    >
      <p>
        {LABEL[action]}: {results.length - failed.length} of {results.length} done
        {failed.length ? `, ${failed.length} failed` : ''}.
      </p>
      {shown.length ? (
        <ul className="bulk-report__list">
          {shown.map((r) => (
            <li key={r.id}>
              <span aria-hidden="true">{r.ok ? '✓' : '✗'} </span>
              <strong>{r.title}</strong>: {r.ok ? 'done' : r.message}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="actions">
        <Button size="small" variant="ghost" onClick={() => setShowAll((v) => !v)}>
          {showAll ? 'Show failures only' : 'Show every row'}
        </Button>
        <Button size="small" variant="ghost" onClick={onClose}>
          Dismiss
        </Button>
      </div>
    </div>
  );
}
