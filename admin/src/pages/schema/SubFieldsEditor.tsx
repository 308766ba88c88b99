import { Button } from '../../components/Button';
import { SUB_FIELD_TYPES, typeLabel } from '../../lib/fieldTypes';

export interface SubField {
  slug: string;
  label: string;
  type: string;
  required?: boolean;
  options?: string[];
}

/** The sub-fields of a repeater: slug, label, one of the flat types, required, and options for a choice. */
export function SubFieldsEditor({ value, onChange }: { value: SubField[]; onChange: (v: SubField[]) => void }) {
  const set = (i: number, patch: Partial<SubField>) =>
    onChange(value.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  return (
    <fieldset className="fieldset">
      <legend className="field__label">Sub-fields of each row</legend>
      {value.length === 0 ? <p className="field__hint">Add at least one sub-field.</p> : null}
      <ol className="subfields">
        {value.map((s, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: sub-fields are edited in place by position
          <li key={i} className="subfields__row">
            <input
              className="input input--small"
              aria-label={`Sub-field ${i + 1} label`}
              placeholder="Label"
              value={s.label}
              onChange={(e) => set(i, { label: e.target.value })}
            />
            <input
              className="input input--small input--mono"
              aria-label={`Sub-field ${i + 1} identifier`}
              placeholder="identifier"
              value={s.slug}
              onChange={(e) => set(i, { slug: e.target.value })}
            />
            <select
              className="input select input--small"
              aria-label={`Sub-field ${i + 1} type`}
              value={s.type}
              onChange={(e) => set(i, { type: e.target.value })}
            >
              {SUB_FIELD_TYPES.map((t) => (
                <option key={t} value={t}>
                  {typeLabel(t)}
                </option>
              ))}
            </select>
            <label className="check check--inline">
              <input
                type="checkbox"
                checked={s.required ?? false}
                onChange={(e) => set(i, { required: e.target.checked })}
              />
              <span>Required</span>
            </label>
            {s.type === 'select' ? (
              <input
                className="input input--small"
                aria-label={`Sub-field ${i + 1} options`}
                placeholder="Options, comma-separated"
                value={(s.options ?? []).join(', ')}
                onChange={(e) =>
                  set(i, {
                    options: e.target.value
                      .split(',')
                      .map((x) => x.trim())
                      .filter(Boolean),
                  })
                }
              />
            ) : null}
            <Button
              size="small"
              variant="ghost"
              className="button--quiet-danger"
              onClick={() => onChange(value.filter((_, j) => j !== i))}
            >
              Remove<span className="visually-hidden"> sub-field {i + 1}</span>
            </Button>
          </li>
        ))}
      </ol>
      <Button size="small" onClick={() => onChange([...value, { slug: '', label: '', type: 'string' }])}>
        Add sub-field
      </Button>
    </fieldset>
  );
}
