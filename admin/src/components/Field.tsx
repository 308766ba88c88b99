import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';

const joinIds = (...ids: (string | undefined)[]) => ids.filter(Boolean).join(' ') || undefined;

interface ShellProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  /** Shown after the label: "optional" for fields that are not required. */
  optionalMark?: boolean;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}

/** Label, control, hint and error, wired together with ids and aria attributes. */
export function FieldShell({ label, hint, error, optionalMark, children }: ShellProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      <label htmlFor={id} className="field__label">
        {label}
        {optionalMark ? <span className="field__optional"> (optional)</span> : null}
      </label>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {children({ id, describedBy, invalid: Boolean(error) })}
      {error ? (
        <p id={errorId} className="field__error">
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      ) : null}
    </div>
  );
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  value: string;
  onValue: (value: string) => void;
  /** Adds "(optional)" to the label of a field a form can do without. */
  optional?: boolean;
};

export function TextField({
  label,
  hint,
  error,
  value,
  onValue,
  required,
  optional,
  'aria-describedby': extra,
  ...rest
}: TextFieldProps) {
  return (
    <FieldShell label={label} hint={hint} error={error} optionalMark={optional}>
      {({ id, describedBy, invalid }) => (
        <input
          {...rest}
          id={id}
          className="input"
          value={value}
          required={required}
          aria-invalid={invalid || undefined}
          aria-describedby={joinIds(describedBy, extra)}
          onChange={(e) => onValue(e.target.value)}
        />
      )}
    </FieldShell>
  );
}

type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> & {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  value: string;
  onValue: (value: string) => void;
  children: ReactNode;
};

export function SelectField({
  label,
  hint,
  error,
  value,
  onValue,
  children,
  'aria-describedby': extra,
  ...rest
}: SelectFieldProps) {
  return (
    <FieldShell label={label} hint={hint} error={error}>
      {({ id, describedBy, invalid }) => (
        <select
          {...rest}
          id={id}
          className="input select"
          value={value}
          aria-invalid={invalid || undefined}
          aria-describedby={joinIds(describedBy, extra)}
          onChange={(e) => onValue(e.target.value)}
        >
          {children}
        </select>
      )}
    </FieldShell>
  );
}

type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value'> & {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  value: string;
  onValue: (value: string) => void;
  optional?: boolean;
};

export function TextAreaField({
  label,
  hint,
  error,
  value,
  onValue,
  optional,
  'aria-describedby': extra,
  ...rest
}: TextAreaFieldProps) {
  return (
    <FieldShell label={label} hint={hint} error={error} optionalMark={optional}>
      {({ id, describedBy, invalid }) => (
        <textarea
          {...rest}
          id={id}
          className="input textarea"
          value={value}
          aria-invalid={invalid || undefined}
          aria-describedby={joinIds(describedBy, extra)}
          onChange={(e) => onValue(e.target.value)}
        />
      )}
    </FieldShell>
  );
}
