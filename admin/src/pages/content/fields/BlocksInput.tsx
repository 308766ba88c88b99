import { useState } from 'react';
import { Button } from '../../../components/Button';
import { blockFields } from './blockFields';
import { useEditorContext } from './context';
import { FieldInput, type InputProps } from './FieldInput';

type Block = Record<string, unknown> & { _type: string; _version?: number; _key: string };

const newKey = () => Math.random().toString(36).slice(2, 14);

/** Typed blocks with versions: add from the allowed (not retired) types, edit, move, remove. */
export default function BlocksInput({ field, value, onChange, path, id, disabled }: InputProps) {
  const ctx = useEditorContext();
  const blocks = Array.isArray(value) ? (value as Block[]) : [];
  const allowed = (field.validation?.allowedTypes ?? []) as string[];
  const retired = new Set((field.validation?.retiredTypes ?? []) as string[]);
  const addable = allowed.filter((t) => !retired.has(t));
  const [choice, setChoice] = useState(addable[0] ?? '');
  const max = typeof field.validation?.maxItems === 'number' ? field.validation.maxItems : 100;
  const set = (next: Block[]) => onChange(next);
  const move = (i: number, by: number) => {
    const next = [...blocks];
    const [b] = next.splice(i, 1);
    next.splice(i + by, 0, b);
    set(next);
  };
  function add() {
    const t = ctx.blockTypes.find((b) => b.slug === choice);
    if (!t) return;
    set([...blocks, { _type: t.slug, _version: t.activeVersion, _key: newKey() }]);
  }
  return (
    <fieldset className="blocks bare-fieldset" aria-labelledby={`${id}-label`}>
      {blocks.length === 0 ? <p className="field__hint">No blocks yet.</p> : null}
      <ol className="repeater__rows">
        {blocks.map((b, i) => {
          const t = ctx.blockTypes.find((x) => x.slug === b._type);
          const defs = blockFields(ctx.blockTypes, b._type, b._version);
          return (
            <li key={b._key} className="repeater__row block">
              <div className="repeater__head">
                <span className="repeater__num">
                  {t?.label ?? b._type}{' '}
                  <span className="pill">
                    v{b._version ?? t?.activeVersion}
                    {t && b._version && b._version !== t.activeVersion ? ` (current v${t.activeVersion})` : ''}
                  </span>
                  {retired.has(b._type) ? (
                    <span className="pill pill--warn">retired type: kept, cannot be added again</span>
                  ) : null}
                </span>
                {disabled ? null : (
                  <span className="repeater__tools">
                    <Button
                      size="small"
                      variant="ghost"
                      disabled={i === 0}
                      onClick={() => move(i, -1)}
                      aria-label={`Move block ${i + 1} up`}
                    >
                      ↑
                    </Button>
                    <Button
                      size="small"
                      variant="ghost"
                      disabled={i === blocks.length - 1}
                      onClick={() => move(i, 1)}
                      aria-label={`Move block ${i + 1} down`}
                    >
                      ↓
                    </Button>
                    <Button
                      size="small"
                      variant="ghost"
                      className="button--quiet-danger"
                      onClick={() => set(blocks.filter((_, j) => j !== i))}
                    >
                      Remove<span className="visually-hidden"> block {i + 1}</span>
                    </Button>
                  </span>
                )}
              </div>
              <div className="repeater__fields">
                {defs ? (
                  defs.map((f) => (
                    <FieldInput
                      key={f.slug}
                      field={f}
                      value={b[f.slug] ?? null}
                      path={`${path}.${i}.${f.slug}`}
                      onChange={(v) => set(blocks.map((x, j) => (j === i ? { ...x, [f.slug]: v } : x)))}
                    />
                  ))
                ) : (
                  <p className="field__hint">Block type "{b._type}" no longer exists; the block is kept as it is.</p>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      {disabled || addable.length === 0 ? null : (
        <div className="blocks__add">
          <label className="visually-hidden" htmlFor={`${id}-type`}>
            Block type to add
          </label>
          <select
            id={`${id}-type`}
            className="input select input--small"
            value={choice}
            onChange={(e) => setChoice(e.target.value)}
          >
            {addable.map((slug) => (
              <option key={slug} value={slug}>
                {ctx.blockTypes.find((b) => b.slug === slug)?.label ?? slug}
              </option>
            ))}
          </select>
          <Button size="small" disabled={blocks.length >= max} onClick={add}>
            Add block
          </Button>
        </div>
      )}
    </fieldset>
  );
}
