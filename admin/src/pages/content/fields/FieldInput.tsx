import { lazy, Suspense, useId } from 'react';
import type { FieldLike } from '../../../api/content';
import { Spinner } from '../../../components/Feedback';
import { useEditorContext } from './context';
import { DatetimeInput } from './DatetimeInput';
import { JsonInput } from './JsonInput';
import { MediaInput } from './MediaInput';
import { ReferenceInput } from './ReferenceInput';
import { SlugInput } from './SlugInput';

// Heavy editors load with the first entry that needs them.
const PortableTextInput = lazy(() => import('./PortableTextInput'));
const RepeaterInput = lazy(() => import('./RepeaterInput'));
const BlocksInput = lazy(() => import('./BlocksInput'));

export interface InputProps {
  field: FieldLike;
  value: unknown;
  onChange: (value: unknown) => void;
  /** Path of this value in the issues map (`title`, `items.0.name`). */
  path: string;
  /** Inner id for the label's htmlFor. */
  id: string;
  describedBy?: string;
  invalid: boolean;
  disabled: boolean;
}

const str = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const codePoints = (s: string) => [...s].length;

/** The editor caps typing at maxLength, counted in characters (code points) as the service counts. */
export function capLength(s: string, max: unknown): string {
  if (typeof max !== 'number') return s;
  const chars = [...s];
  return chars.length > max ? chars.slice(0, max).join('') : s;
}

/** One field of the entry form: label, hint, input of its type, counter and error. */
export function FieldInput({
  field,
  value,
  onChange,
  path,
}: {
  field: FieldLike;
  value: unknown;
  onChange: (value: unknown) => void;
  path: string;
}) {
  const ctx = useEditorContext();
  const id = useId();
  const error = ctx.issues[path];
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const hint = hintFor(field);
  const describedBy = [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
  const props: InputProps = {
    field,
    value,
    onChange,
    path,
    id,
    describedBy,
    invalid: Boolean(error),
    disabled: ctx.readOnly,
  };
  const grouped = [
    'boolean',
    'multiSelect',
    'repeater',
    'blocks',
    'portableText',
    'reference',
    'image',
    'file',
  ].includes(field.type);
  const max = typeof field.validation?.maxLength === 'number' ? field.validation.maxLength : undefined;
  const counter = ['string', 'text', 'slug'].includes(field.type);
  return (
    <div className={error ? 'field field--invalid' : 'field'} data-field={path} data-type={field.type}>
      {field.type === 'boolean' ? null : grouped ? (
        <span className="field__label" id={`${id}-label`}>
          {field.label}
          {field.required ? null : <span className="field__optional"> (optional)</span>}
        </span>
      ) : (
        <label htmlFor={id} className="field__label">
          {field.label}
          {field.required ? null : <span className="field__optional"> (optional)</span>}
        </label>
      )}
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      <Suspense fallback={<Spinner label="Loading the editor…" />}>
        <TypedInput {...props} />
      </Suspense>
      {counter ? (
        <p className="counter" aria-live="off">
          {codePoints(str(value))}
          {max !== undefined ? ` / ${max}` : ''} characters
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field__error">
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function hintFor(f: FieldLike): string | undefined {
  const v = f.validation ?? {};
  const parts: string[] = [];
  if (typeof v.minLength === 'number') parts.push(`at least ${v.minLength} characters`);
  if (typeof v.min === 'number') parts.push(`minimum ${v.min}`);
  if (typeof v.max === 'number') parts.push(`maximum ${v.max}`);
  if (f.type === 'url') parts.push('a web address (https://…), mailto:, tel:, a /path or an #anchor');
  if (f.unique) parts.push('must be unique');
  if (f.translatable === false) parts.push('shared by every translation');
  return parts.length ? parts.join(' · ').replace(/^./, (c) => c.toUpperCase()) : undefined;
}

function TypedInput(p: InputProps) {
  const { field, value, onChange, id, describedBy, invalid, disabled } = p;
  const common = {
    id,
    'aria-describedby': describedBy,
    'aria-invalid': invalid || undefined,
    disabled,
    required: field.required,
  };
  const v = field.validation ?? {};
  switch (field.type) {
    case 'string':
      return (
        <input
          {...common}
          className="input"
          value={str(value)}
          onChange={(e) => onChange(capLength(e.target.value, v.maxLength))}
        />
      );
    case 'text': {
      const rows = typeof field.options?.rows === 'number' ? field.options.rows : 3;
      return (
        <textarea
          {...common}
          className="input textarea"
          rows={rows}
          value={str(value)}
          onChange={(e) => onChange(capLength(e.target.value, v.maxLength))}
        />
      );
    }
    case 'url':
      return (
        <input
          {...common}
          className="input"
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://"
          value={str(value)}
          onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)}
        />
      );
    case 'number':
    case 'integer':
      return (
        <input
          {...common}
          className="input input--number"
          type="number"
          step={field.type === 'integer' ? 1 : 'any'}
          min={typeof v.min === 'number' ? v.min : undefined}
          max={typeof v.max === 'number' ? v.max : undefined}
          value={typeof value === 'number' ? value : ''}
          onChange={(e) => {
            const raw = e.target.value;
            onChange(raw === '' ? null : Number(raw));
          }}
        />
      );
    case 'boolean':
      return (
        <label className="check check--inline switch">
          <input {...common} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
          <span>{field.label}</span>
        </label>
      );
    case 'datetime':
      return <DatetimeInput {...p} />;
    case 'select': {
      const opts = Array.isArray(v.options) ? (v.options as string[]) : null;
      if (!opts) {
        return (
          <input {...common} className="input" value={str(value)} onChange={(e) => onChange(e.target.value || null)} />
        );
      }
      return (
        <select
          {...common}
          className="input select"
          value={str(value)}
          onChange={(e) => onChange(e.target.value || null)}
        >
          <option value="">{field.required ? 'Choose…' : '— None —'}</option>
          {opts.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
    }
    case 'multiSelect':
      return <MultiSelect {...p} />;
    case 'portableText':
      return <PortableTextInput {...p} />;
    case 'image':
    case 'file':
      return <MediaInput {...p} />;
    case 'reference':
      return <ReferenceInput {...p} />;
    case 'json':
      return <JsonInput {...p} />;
    case 'slug':
      return <SlugInput {...p} />;
    case 'repeater':
      return <RepeaterInput {...p} />;
    case 'blocks':
      return <BlocksInput {...p} />;
    default:
      return <p className="muted">This field type cannot be edited here.</p>;
  }
}

function MultiSelect({ field, value, onChange, id, disabled }: InputProps) {
  const list = Array.isArray(value) ? (value as string[]) : [];
  const opts = Array.isArray(field.validation?.options) ? (field.validation?.options as string[]) : null;
  if (!opts) {
    return (
      <input
        id={id}
        className="input"
        disabled={disabled}
        aria-labelledby={`${id}-label`}
        placeholder="Comma-separated values"
        value={list.join(', ')}
        onChange={(e) =>
          onChange(
            e.target.value
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
          )
        }
      />
    );
  }
  return (
    <fieldset className="checks bare-fieldset" aria-labelledby={`${id}-label`}>
      {opts.map((o) => (
        <label key={o} className="check check--inline">
          <input
            type="checkbox"
            disabled={disabled}
            checked={list.includes(o)}
            onChange={(e) => onChange(e.target.checked ? [...list, o] : list.filter((x) => x !== o))}
          />
          <span>{o}</span>
        </label>
      ))}
    </fieldset>
  );
}
