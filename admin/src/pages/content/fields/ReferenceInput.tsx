import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { api, unwrap } from '../../../api/client';
import type { FieldLike, LinkedEntry } from '../../../api/content';
import { Button } from '../../../components/Button';
import { useEditorContext } from './context';
import type { InputProps } from './FieldInput';

/** A reference bound to a relation selects entries; one without stores an entry ID as text. */
export function ReferenceInput(props: InputProps) {
  const target = props.field.validation?.targetCollection;
  if (typeof target === 'string') return <RelationPicker {...props} target={target} />;
  return <LegacyReference {...props} />;
}

/** The parent end (`{collection}_{field}`) holds many children; a child end one parent unless `multiple`. */
function holdsMany(field: FieldLike, collection: string): boolean {
  const v = field.validation ?? {};
  if (v.relation === `${collection}_${field.slug}` && v.relationSide !== 'child') return true;
  return v.multiple === true;
}

function RelationPicker({ field, id, disabled, target }: InputProps & { target: string }) {
  const ctx = useEditorContext();
  const selected = ctx.refs[field.slug] ?? [];
  const many = holdsMany(field, ctx.collection);
  const [q, setQ] = useState('');
  const [term, setTerm] = useState('');
  const [open, setOpen] = useState(false);
  const listId = useId();

  useEffect(() => {
    const t = setTimeout(() => setTerm(q.trim()), 250);
    return () => clearTimeout(t);
  }, [q]);

  const found = useQuery({
    queryKey: ['content', target, 'lookup', ctx.locale, term],
    queryFn: () =>
      unwrap(
        api.GET('/admin/content/{collection}/lookup', {
          params: { path: { collection: target }, query: { q: term || undefined, locale: ctx.locale, limit: 10 } },
        }),
      ),
    enabled: open,
  });

  const chosen = new Set(selected.map((s) => s.id));
  const results = (found.data?.items ?? []).filter((r) => !chosen.has(r.id) && r.id !== ctx.entryId);

  function add(entry: LinkedEntry) {
    ctx.setRefs(field.slug, many ? [...selected, entry] : [entry]);
    setQ('');
    setOpen(false);
  }
  function move(i: number, by: number) {
    const next = [...selected];
    const [it] = next.splice(i, 1);
    next.splice(i + by, 0, it);
    ctx.setRefs(field.slug, next);
  }

  return (
    <div className="refs">
      {selected.length ? (
        <ol className="refs__list" aria-label={`${field.label}: selected entries`}>
          {selected.map((s, i) => (
            <li key={s.id} className="refs__item">
              <span className="refs__title">{s.title || s.slug || s.id}</span>
              <span className={`pill pill--${s.status}`}>{s.status}</span>
              {many && !disabled ? (
                <span className="refs__moves">
                  <Button
                    size="small"
                    variant="ghost"
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                    aria-label={`Move ${s.title || s.id} up`}
                  >
                    ↑
                  </Button>
                  <Button
                    size="small"
                    variant="ghost"
                    disabled={i === selected.length - 1}
                    onClick={() => move(i, 1)}
                    aria-label={`Move ${s.title || s.id} down`}
                  >
                    ↓
                  </Button>
                </span>
              ) : null}
              {disabled ? null : (
                <Button
                  size="small"
                  variant="ghost"
                  className="button--quiet-danger"
                  onClick={() =>
                    ctx.setRefs(
                      field.slug,
                      selected.filter((x) => x.id !== s.id),
                    )
                  }
                >
                  Remove<span className="visually-hidden"> {s.title || s.id}</span>
                </Button>
              )}
            </li>
          ))}
        </ol>
      ) : (
        <p className="field__hint">Nothing linked yet.</p>
      )}
      {disabled || (!many && selected.length > 0 && !open) ? (
        !disabled && !many ? (
          <Button size="small" onClick={() => setOpen(true)}>
            Change
          </Button>
        ) : null
      ) : (
        <div className="combo">
          <input
            id={id}
            className="input"
            type="search"
            aria-controls={listId}
            placeholder={`Search ${target} by title, slug or ID`}
            value={q}
            onFocus={() => setOpen(true)}
            onChange={(e) => {
              setQ(e.target.value);
              setOpen(true);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setOpen(false);
              if (e.key === 'Enter' && results[0]) {
                e.preventDefault();
                add(toLinked(results[0], target));
              }
            }}
          />
          {open ? (
            <ul id={listId} className="combo__list" aria-label={`Entries of ${target} to link`} aria-live="polite">
              {found.isPending ? <li className="combo__empty">Searching…</li> : null}
              {found.isError ? <li className="combo__empty">Could not search: {String(found.error.message)}</li> : null}
              {found.isSuccess && !results.length ? (
                <li className="combo__empty">{term ? 'No entry matches.' : 'No entries to link yet.'}</li>
              ) : null}
              {results.map((r) => (
                <li key={r.id}>
                  <button type="button" className="combo__option" onClick={() => add(toLinked(r, target))}>
                    <span>{r.title || r.slug || r.id}</span>
                    <span className="muted small">
                      {r.slug} · {r.status}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      )}
    </div>
  );
}

function toLinked(
  r: {
    id: string;
    slug: string | null;
    title: string | null;
    status: string;
    locale: string;
    translationGroup: string;
  },
  collection: string,
): LinkedEntry {
  return {
    id: r.id,
    slug: r.slug,
    title: r.title,
    status: r.status,
    locale: r.locale,
    translationGroup: r.translationGroup,
    collection,
  };
}

function LegacyReference({ field, value, onChange, id, describedBy, invalid, disabled }: InputProps) {
  const multi = field.options?.allowMultiple === true;
  const text = multi ? (Array.isArray(value) ? value.join(', ') : '') : typeof value === 'string' ? value : '';
  return (
    <input
      id={id}
      className="input input--mono"
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      disabled={disabled}
      placeholder={multi ? 'Entry IDs, comma-separated' : 'Entry ID'}
      value={text}
      onChange={(e) => {
        const raw = e.target.value;
        if (!multi) onChange(raw.trim() ? raw.trim() : null);
        else
          onChange(
            raw
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean),
          );
      }}
    />
  );
}
