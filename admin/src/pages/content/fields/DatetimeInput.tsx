import { formatDateTime } from '../../../lib/format';
import { fromZonedInput, offsetLabel, siteTimeZone, toZonedInput } from '../../../lib/timezone';
import type { InputProps } from './FieldInput';

/** A date and time in the site's timezone; the stored UTC instant is shown beneath. */
export function DatetimeInput({ value, onChange, id, describedBy, invalid, disabled, field }: InputProps) {
  const zone = siteTimeZone();
  const iso = typeof value === 'string' ? value : null;
  return (
    <div className="datetime">
      <div className="datetime__row">
        <input
          id={id}
          className="input"
          type="datetime-local"
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          disabled={disabled}
          required={field.required}
          value={toZonedInput(iso, zone)}
          onChange={(e) => onChange(e.target.value ? fromZonedInput(e.target.value, zone) : null)}
        />
        <span className="datetime__zone">
          {zone} ({offsetLabel(iso, zone)})
        </span>
      </div>
      <p className="field__hint" data-testid="utc-value">
        {iso ? (
          <>
            Stored as <code className="code">{iso}</code> (UTC) · {formatDateTime(iso)} your time
          </>
        ) : (
          'Not set.'
        )}
      </p>
    </div>
  );
}
