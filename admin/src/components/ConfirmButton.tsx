import { useEffect, useRef, useState } from 'react';
import { Button } from './Button';

/**
 * A destructive action in two steps without a modal: the first click asks,
 * the second confirms, Escape or "Cancel" backs out.
 */
export function ConfirmButton({
  label,
  confirmLabel,
  question,
  onConfirm,
  busy,
}: {
  label: string;
  confirmLabel: string;
  question: string;
  onConfirm: () => void;
  busy?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);

  useEffect(() => {
    if (asking) confirmRef.current?.focus();
    else if (wasAsking.current) triggerRef.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking) {
    return (
      <Button
        ref={triggerRef}
        variant="ghost"
        size="small"
        className="button--quiet-danger"
        onClick={() => setAsking(true)}
        busy={busy}
      >
        {label}
      </Button>
    );
  }
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape backs out of the inline confirmation
    <span
      className="confirm"
      onKeyDown={(e) => {
        if (e.key === 'Escape') setAsking(false);
      }}
    >
      <span className="confirm__q">{question}</span>
      <Button
        ref={confirmRef}
        variant="danger"
        size="small"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </Button>
      <Button variant="ghost" size="small" onClick={() => setAsking(false)}>
        Cancel
      </Button>
    </span>
  );
}
