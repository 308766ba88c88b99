import { useId, useState } from 'react';
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
}: {
  word: string;
  explanation: React.ReactNode;
  action: string;
  onConfirm: () => void;
  busy?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const id = useId();
  if (!open) {
    return (
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
