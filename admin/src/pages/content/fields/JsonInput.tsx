import { useEffect, useState } from 'react';
import { Button } from '../../../components/Button';
import type { InputProps } from './FieldInput';

const show = (v: unknown) => (v === undefined || v === null ? '' : JSON.stringify(v, null, 2));

/** JSON typed as text; the value changes only when the text parses, and the parse error is shown in place. */
export function JsonInput({ value, onChange, id, describedBy, invalid, disabled }: InputProps) {
  const [text, setText] = useState(() => show(value));
  const [syntax, setSyntax] = useState<string | null>(null);

  // A value replaced from outside (restore, conflict resolution) refreshes the text.
  useEffect(() => {
    setText((current) => {
      try {
        if (JSON.stringify(JSON.parse(current || 'null')) === JSON.stringify(value ?? null)) return current;
      } catch {
        // keep the person's unfinished text
        return current;
      }
      return show(value);
    });
  }, [value]);

  function edit(next: string) {
    setText(next);
    if (next.trim() === '') {
      setSyntax(null);
      onChange(null);
      return;
    }
    try {
      onChange(JSON.parse(next));
      setSyntax(null);
    } catch (err) {
      setSyntax(err instanceof Error ? err.message : 'Invalid JSON');
    }
  }

  return (
    <div className="json">
      <textarea
        id={id}
        className="input input--mono textarea"
        rows={Math.min(16, Math.max(4, text.split('\n').length))}
        spellCheck={false}
        aria-describedby={[describedBy, syntax ? `${id}-syntax` : ''].filter(Boolean).join(' ') || undefined}
        aria-invalid={invalid || Boolean(syntax) || undefined}
        disabled={disabled}
        value={text}
        onChange={(e) => edit(e.target.value)}
      />
      <div className="json__bar">
        {syntax ? (
          <p id={`${id}-syntax`} className="field__error" role="status">
            <span aria-hidden="true">⚠ </span>JSON syntax: {syntax}
          </p>
        ) : (
          <p className="field__hint">Valid JSON.</p>
        )}
        <Button
          size="small"
          variant="ghost"
          disabled={disabled || Boolean(syntax) || !text.trim()}
          onClick={() => setText(show(value))}
        >
          Format
        </Button>
      </div>
    </div>
  );
}
