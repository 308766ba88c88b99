import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../../api/client';
import { useEditorContext } from './context';
import type { InputProps } from './FieldInput';

/**
 * A slug field: text, with feedback when another entry of this locale already
 * uses the value (the service enforces `unique`; this warns before saving).
 */
export function SlugInput({ value, onChange, id, describedBy, invalid, disabled, field }: InputProps) {
  const text = typeof value === 'string' ? value : '';
  return (
    <>
      <input
        id={id}
        className="input input--mono"
        autoComplete="off"
        spellCheck={false}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        disabled={disabled}
        required={field.required}
        value={text}
        onChange={(e) => onChange(e.target.value)}
      />
      {field.unique ? <UniqueHint value={text} field={field.slug} /> : null}
    </>
  );
}

function UniqueHint({ value, field }: { value: string; field: string }) {
  const ctx = useEditorContext();
  const [term, setTerm] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setTerm(value.trim()), 400);
    return () => clearTimeout(t);
  }, [value]);
  const check = useQuery({
    queryKey: ['content', ctx.collection, 'unique', field, ctx.locale, term],
    enabled: term !== '',
    queryFn: async () => {
      const filters = JSON.stringify({ [field]: term });
      const res = await api.GET('/content/{collection}', {
        params: {
          path: { collection: ctx.collection },
          query: { locale: ctx.locale, fieldFilters: filters, limit: 2 },
        },
      });
      // Not indexed (400): the service still checks on save.
      if (!res.response.ok || !res.data) return null;
      return res.data.data.items.filter((i) => i.id !== ctx.entryId).length > 0;
    },
  });
  if (!term || check.data === undefined || check.data === null) return null;
  return check.data ? (
    <p className="field__error" role="status">
      <span aria-hidden="true">⚠ </span>Another entry already uses this value.
    </p>
  ) : (
    <p className="field__ok" role="status">
      Available.
    </p>
  );
}
