import { useEffect, useState } from 'react';
import { Button } from '../../../components/Button';
import { useEditorContext } from './context';
import type { InputProps } from './FieldInput';

const show = (v: unknown) => (v === undefined || v === null ? '' : JSON.stringify(v, null, 2));

/**
 * JSON typed as text; the value changes only when the text parses. Text that does not parse is an
 * unfinished edit: the form shows the parse error as the field's problem and saves nothing until
 * it parses (saving the last value that did would store something other than what is shown).
 */
export function JsonInput({ value, onChange, id, describedBy, invalid, disabled, path }: InputProps) {
  const { reportUnfinished } = useEditorContext();
  const [text, setText] = useState(() => show(value));
  const [syntax, setSyntax] = useState<string | null>(null);
  // Reported as it is typed (the save that may follow at once reads it); withdrawn when the input goes.
  useEffect(() => () => reportUnfinished(path, null), [reportUnfinished, path]);
  const problem = (message: string | null) => {
    setSyntax(message);
    reportUnfinished(path, message ? `JSON syntax: ${message}` : null);
  };

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
      problem(null);
      onChange(null);
      return;
    }
    try {
      onChange(JSON.parse(next));
      problem(null);
    } catch (err) {
      problem(err instanceof Error ? err.message : 'Invalid JSON');
    }
  }

  return (
    <div className="json">
      <textarea
        id={id}
        className="input input--mono textarea"
        rows={Math.min(16, Math.max(4, text.split('\n').length))}
        spellCheck={false}
        aria-describedby={describedBy}
        aria-invalid={invalid || Boolean(syntax) || undefined}
        disabled={disabled}
        value={text}
        onChange={(e) => edit(e.target.value)}
      />
      <div className="json__bar">
        {/* The syntax error itself is the field's problem, shown under it by the form. */}
        {syntax ? null : <p className="field__hint">Valid JSON.</p>}
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
