import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, unwrap } from '../../../api/client';
import type { Taxonomy, Term } from '../../../api/structure';
import { ErrorMessage, Spinner } from '../../../components/Feedback';
import { termTree, useCollectionTaxonomies, useTaxonomyTerms } from '../terms';
import { Panel } from './Panels';

/** Above this many terms the picker offers a filter box. */
const FILTER_FROM = 12;

/**
 * The entry's terms, one group per taxonomy attached to the collection. A
 * change is saved at once through `POST /content/{collection}/{id}/terms/{taxonomy}`
 * (terms belong to the translation group, not to the entry's form), and the
 * server decides who may change them; its refusal is shown here.
 */
export function TermsPanel({
  collection,
  entryId,
  locale,
  readOnly,
}: {
  collection: string;
  entryId: string;
  locale: string;
  readOnly: boolean;
}) {
  const taxonomies = useCollectionTaxonomies(collection, locale);
  if (!taxonomies.data?.length) return null;
  return (
    <>
      {taxonomies.data.map((t) => (
        <TaxonomyTerms
          key={t.name}
          taxonomy={t}
          collection={collection}
          entryId={entryId}
          locale={locale}
          readOnly={readOnly}
        />
      ))}
    </>
  );
}

function TaxonomyTerms({
  taxonomy,
  collection,
  entryId,
  locale,
  readOnly,
}: {
  taxonomy: Taxonomy;
  collection: string;
  entryId: string;
  locale: string;
  readOnly: boolean;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const [filter, setFilter] = useState('');
  // The selection being saved, shown at once (the checkbox follows the click, not the round trip).
  const [pending, setPending] = useState<string[] | null>(null);
  const key = ['content', collection, entryId, 'terms', taxonomy.name, locale];
  const path = { collection, id: entryId, taxonomy: taxonomy.name };
  const assigned = useQuery({
    queryKey: key,
    queryFn: () =>
      unwrap(api.GET('/content/{collection}/{id}/terms/{taxonomy}', { params: { path, query: { locale } } })),
  });
  const all = useTaxonomyTerms(taxonomy.name, locale);
  const save = useMutation({
    onMutate: (ids: string[]) => setPending(ids),
    onSettled: () => setPending(null),
    mutationFn: (ids: string[]) =>
      unwrap(api.POST('/content/{collection}/{id}/terms/{taxonomy}', { params: { path }, body: { terms: ids } })),
    onSuccess: (data) => {
      queryClient.setQueryData(key, data);
      // Counts on the taxonomy screens and term filters of the list change with it.
      queryClient.invalidateQueries({ queryKey: ['taxonomies', taxonomy.name] });
      queryClient.invalidateQueries({ queryKey: ['content', collection], exact: false, refetchType: 'none' });
    },
  });
  const chosen = assigned.data?.items ?? [];
  const chosenIds = pending ?? chosen.map((t) => t.id);
  const rows = termTree(all.data?.terms ?? []);
  const needle = filter.trim().toLowerCase();
  const shown = needle
    ? rows.filter((r) => r.term.label.toLowerCase().includes(needle) || r.term.slug.includes(needle))
    : rows;
  const toggle = (t: Term, on: boolean) => save.mutate(on ? [...chosenIds, t.id] : chosenIds.filter((x) => x !== t.id));
  return (
    <Panel id={`terms-${taxonomy.name}`} title={`${taxonomy.label} (${chosen.length})`} open={chosen.length > 0}>
      {assigned.isPending || all.isPending ? <Spinner label="Loading terms…" /> : null}
      <ErrorMessage error={assigned.error ?? all.error ?? save.error} />
      {chosen.length ? <p className="small">{chosen.map((t) => t.label).join(', ')}</p> : null}
      {all.isSuccess && !rows.length ? (
        <p className="empty">No {taxonomy.label.toLowerCase()} in this language yet.</p>
      ) : null}
      {rows.length > FILTER_FROM ? (
        <input
          className="input input--small"
          type="search"
          aria-label={`Filter ${taxonomy.label.toLowerCase()}`}
          placeholder={`Filter ${taxonomy.label.toLowerCase()}…`}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
      ) : null}
      {rows.length ? (
        <fieldset
          className="checks bare-fieldset term-picker"
          aria-labelledby={`${id}-legend`}
          aria-busy={save.isPending || undefined}
        >
          <legend id={`${id}-legend`} className="visually-hidden">
            {taxonomy.label}
          </legend>
          {shown.map(({ term: t, depth }) => (
            <label key={t.id} className="check check--inline" style={{ paddingInlineStart: `${depth * 1.25}rem` }}>
              <input
                type="checkbox"
                disabled={readOnly || save.isPending || !assigned.isSuccess}
                checked={chosenIds.includes(t.id)}
                onChange={(e) => toggle(t, e.target.checked)}
              />
              <span>{t.label}</span>
            </label>
          ))}
        </fieldset>
      ) : null}
      {all.data && !all.data.complete ? (
        <p className="field__hint">This taxonomy has more terms than are listed here (the first {rows.length}).</p>
      ) : null}
    </Panel>
  );
}
