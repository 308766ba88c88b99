import { useEffect, useId, useRef, useState } from 'react';
import { Button } from './Button';

/**
 * A dangerous operation explained before it runs: what it changes, then the
 * person types the name to confirm (data loss is never one click away).
 */
export function TypedConfirm({
  word,
  explanation,
  action,
  onConfirm,
  busy,
  primary = false,
}: {
  word: string;
  explanation: React.ReactNode;
  action: string;
  onConfirm: () => void;
  busy?: boolean;
  /** The step the page leads to (an import), not a quiet destructive one: the opening button is primary. */
  primary?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  // The opening button goes away: keyboard focus moves on to the confirmation's input.
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);
  if (!open) {
    return primary ? (
      <Button variant="primary" onClick={() => setOpen(true)}>
        {action}…
      </Button>
    ) : (
      <Button size="small" variant="ghost" className="button--quiet-danger" onClick={() => setOpen(true)}>
        {action}
      </Button>
    );
  }
  return (
    <fieldset className="danger-box">
      <legend className="danger-box__title">{action}</legend>
      <div className="danger-box__text">{explanation}</div>
      <label className="field__label" htmlFor={id}>
        Type <code className="code">{word}</code> to confirm
      </label>
      <input
        ref={input}
        id={id}
        className="input input--small"
        value={typed}
        autoComplete="off"
        onChange={(e) => setTyped(e.target.value)}
      />
      <div className="actions">
        <Button size="small" variant="danger" disabled={typed !== word} busy={busy} onClick={onConfirm}>
          {action}
        </Button>
        <Button
          size="small"
          variant="ghost"
          onClick={() => {
            setOpen(false);
            setTyped('');
          }}
        >
          Cancel
        </Button>
      </div>
    </fieldset>
  );
}
