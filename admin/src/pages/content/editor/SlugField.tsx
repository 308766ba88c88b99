import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../../api/client';
import { TextField } from '../../../components/Field';

/** The entry's slug, unique per locale: feedback while typing, before the save refuses it. */
export function SlugField({
  collection,
  locale,
  entryId,
  value,
  onValue,
  disabled,
  error,
}: {
  collection: string;
  locale: string;
  entryId: string | null;
  value: string;
  onValue: (v: string) => void;
  disabled: boolean;
  error?: string;
}) {
  const [term, setTerm] = useState(value.trim());
  useEffect(() => {
    const t = setTimeout(() => setTerm(value.trim()), 400);
    return () => clearTimeout(t);
  }, [value]);
  const check = useQuery({
    queryKey: ['content', collection, 'slug-taken', locale, term],
    enabled: term !== '',
    queryFn: async () => {
      const res = await api.GET('/content/{collection}/{id}', {
        params: { path: { collection, id: term }, query: { locale } },
      });
      if (res.response.status === 404) return null;
      const found = res.data?.data.item;
      return found && found.id !== entryId && found.locale === locale && found.slug === term ? found.id : null;
    },
  });
  const taken = check.data ? 'Another entry in this locale already uses this slug.' : undefined;
  return (
    <TextField
      label="Slug"
      name="slug"
      optional
      hint={term ? undefined : 'Left empty, it is made from the title.'}
      value={value}
      onValue={onValue}
      disabled={disabled}
      spellCheck={false}
      autoComplete="off"
      error={error ?? taken}
    />
  );
}
