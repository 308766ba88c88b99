import { useId, useRef, useState } from 'react';
import { Button } from './Button';

/** A read-only value (link, token secret) with a copy button that reports the result. */
export function CopyField({ label, value, hint }: { label: string; value: string; hint?: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      // Clipboard access can be refused (permissions, insecure context): select the text instead.
      input.current?.focus();
      input.current?.select();
      setState('failed');
    }
  }

  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {hint ? <p className="field__hint">{hint}</p> : null}
      <div className="copy">
        <input
          ref={input}
          id={id}
          className="input input--mono"
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          data-testid="copy-value"
        />
        <Button onClick={copy} variant="primary">
          {state === 'copied' ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p className="sr-status" role="status">
        {state === 'copied'
          ? 'Copied to the clipboard.'
          : state === 'failed'
            ? 'Press Ctrl+C to copy the selection.'
            : ''}
      </p>
    </div>
  );
}
