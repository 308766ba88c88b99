import type { FieldLike } from '../../../api/content';
import { Button } from '../../../components/Button';
import { FieldInput, type InputProps } from './FieldInput';

type Row = Record<string, unknown>;

/** Rows of sub-fields: add, remove, move; minItems/maxItems are enforced on the buttons and in the issues. */
export default function RepeaterInput({ field, value, onChange, path, id, disabled }: InputProps) {
  const rows = Array.isArray(value) ? (value as Row[]) : [];
  const subs = (field.validation?.subFields ?? []) as FieldLike[];
  const max = typeof field.validation?.maxItems === 'number' ? field.validation.maxItems : Infinity;
  const min = typeof field.validation?.minItems === 'number' ? field.validation.minItems : 0;
  const set = (next: Row[]) => onChange(next);
  const move = (i: number, by: number) => {
    const next = [...rows];
    const [r] = next.splice(i, 1);
    next.splice(i + by, 0, r);
    set(next);
  };
  return (
    <fieldset className="repeater bare-fieldset" aria-labelledby={`${id}-label`}>
      {rows.length === 0 ? <p className="field__hint">No rows yet.</p> : null}
      <ol className="repeater__rows">
        {rows.map((row, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own
          <li key={i} className="repeater__row">
            <div className="repeater__head">
              <span className="repeater__num">Row {i + 1}</span>
              {disabled ? null : (
                <span className="repeater__tools">
                  <Button
                    size="small"
                    variant="ghost"
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                    aria-label={`Move row ${i + 1} up`}
                  >
                    ↑
                  </Button>
                  <Button
                    size="small"
                    variant="ghost"
                    disabled={i === rows.length - 1}
                    onClick={() => move(i, 1)}
                    aria-label={`Move row ${i + 1} down`}
                  >
                    ↓
                  </Button>
                  <Button
                    size="small"
                    variant="ghost"
                    className="button--quiet-danger"
                    disabled={rows.length <= min}
                    onClick={() => set(rows.filter((_, j) => j !== i))}
                  >
                    Remove<span className="visually-hidden"> row {i + 1}</span>
                  </Button>
                </span>
              )}
            </div>
            <div className="repeater__fields">
              {subs.map((sub) => (
                <FieldInput
                  key={sub.slug}
                  field={sub}
                  value={row?.[sub.slug] ?? null}
                  path={`${path}.${i}.${sub.slug}`}
                  onChange={(v) => set(rows.map((r, j) => (j === i ? { ...r, [sub.slug]: v } : r)))}
                />
              ))}
            </div>
          </li>
        ))}
      </ol>
      {disabled ? null : (
        <Button size="small" disabled={rows.length >= max} onClick={() => set([...rows, emptyRow(subs)])}>
          Add row{rows.length >= max ? ` (at most ${max})` : ''}
        </Button>
      )}
    </fieldset>
  );
}

function emptyRow(subs: FieldLike[]): Row {
  const row: Row = {};
  for (const s of subs) if (s.type === 'boolean') row[s.slug] = false;
  return row;
}
