import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/Button';

/**
 * "Repair what can be derived", asked in two steps: the first click opens a box that says what
 * a repair changes and what it cannot do; "Repair now" runs it, "Cancel" or Escape backs out
 * (focus goes to "Repair now" on opening and back to the opening button on cancel).
 */
export function RepairConfirm({ onConfirm, busy }: { onConfirm: () => void; busy: boolean }) {
  const [open, setOpen] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  const textId = useId();
  useEffect(() => {
    if (open) confirmRef.current?.focus();
    else if (wasOpen.current) openerRef.current?.focus();
    wasOpen.current = open;
  }, [open]);

  if (!open) {
    return (
      <div className="actions">
        <Button ref={openerRef} variant="primary" busy={busy} busyLabel="Repairing…" onClick={() => setOpen(true)}>
          Repair what can be derived…
        </Button>
      </div>
    );
  }
  return (
    <fieldset
      aria-describedby={textId}
      className="danger-box repair-confirm"
      onKeyDown={(e) => {
        if (e.key === 'Escape') setOpen(false);
      }}
    >
      <legend className="danger-box__title">Repair what can be derived from the content?</legend>
      <div id={textId} className="danger-box__text">
        <ul className="repair-confirm__list">
          <li>Rebuilds term counts, search indexes and media usage from the entries as they are stored.</li>
          <li>Clears revision pointers that lead to no revision of their entry (the entry then shows what is live).</li>
          <li>
            Deletes orphaned rows (left by deleted entries, collections, terms or bylines) and old files no media item
            owns.
          </li>
          <li>Never changes content: entries, their versions, media items and settings stay as they are.</li>
          <li>Cannot restore a missing file: those stay reported until the file is uploaded again.</li>
        </ul>
        <p>It runs in small steps; on a large site it may take a while, and the page waits for it.</p>
      </div>
      <div className="actions">
        <Button
          ref={confirmRef}
          variant="danger"
          onClick={() => {
            setOpen(false);
            onConfirm();
          }}
        >
          Repair now
        </Button>
        <Button variant="ghost" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </fieldset>
  );
}
