import { type ReactNode, useId } from 'react';
import type { ScopeChoice } from '../api/oauth';

/**
 * Token scopes as checkboxes (an application's consent, a device approval,
 * a new personal access token). Scopes the role cannot use are shown,
 * disabled, so nothing is hidden.
 */
export function ScopeChecklist({
  scopes,
  chosen,
  onChange,
  error,
  legend = 'Permissions',
  columns = 'single',
  status,
}: {
  scopes: ScopeChoice[];
  chosen: string[];
  onChange: (next: string[]) => void;
  error?: string;
  legend?: string;
  columns?: 'single' | 'multi';
  /** Shown above the list (loading or load errors). */
  status?: ReactNode;
}) {
  const legendId = useId();
  return (
    <fieldset className="fieldset" aria-describedby={error ? `${legendId}-error` : undefined}>
      <legend id={legendId} className="field__label">
        {legend}
      </legend>
      {status}
      <div className={columns === 'single' ? 'checks checks--single' : 'checks'}>
        {scopes.map((s) => (
          <label key={s.scope} className={s.allowed ? 'check' : 'check check--disabled'}>
            <input
              type="checkbox"
              name="scopes"
              value={s.scope}
              disabled={!s.allowed}
              checked={s.allowed && chosen.includes(s.scope)}
              onChange={(e) => onChange(e.target.checked ? [...chosen, s.scope] : chosen.filter((x) => x !== s.scope))}
            />
            <span>
              <code className="code">{s.scope}</code>
              <span className="check__hint">
                {s.description}
                {s.allowed ? '' : ' (not available to your role)'}
              </span>
            </span>
          </label>
        ))}
      </div>
      {error ? (
        <p id={`${legendId}-error`} className="field__error">
          <span aria-hidden="true">⚠ </span>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** Scopes ticked at first: every one the role allows. */
export const initiallyChosen = (scopes: ScopeChoice[]) => scopes.filter((s) => s.allowed).map((s) => s.scope);
