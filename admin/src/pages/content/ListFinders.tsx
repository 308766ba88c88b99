import { useEffect, useState } from 'react';
import type { Taxonomy } from '../../api/structure';
import { SearchBox, useDebounced } from '../../components/search';
import { termTree, useCollectionTaxonomies, useTaxonomyTerms } from './terms';

/**
 * The entry list's search box. The text lands in the address (`q`) once typing
 * pauses, so results are shareable and survive a reload; the list then shows
 * the search API's ranked matches. A collection without full-text search says
 * so (and how to turn it on) instead of offering a box that finds nothing.
 */
export function ListSearchField({
  collection,
  label,
  locale,
  searchable,
  q,
  onQuery,
}: {
  collection: string;
  label: string;
  locale: string;
  searchable: boolean;
  q: string | undefined;
  onQuery: (q: string | undefined) => void;
}) {
  const [text, setText] = useState(q ?? '');
  const settled = useDebounced(text, 300);
  // The address is the source of truth: back/forward and "clear filters" reset the box.
  useEffect(() => setText(q ?? ''), [q]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: react to the settled text only
  useEffect(() => {
    const next = settled.trim() || undefined;
    if (next !== q) onQuery(next);
  }, [settled]);
  if (!searchable) {
    return (
      <p className="field__hint list-search__off">
        Full-text search is off for {label}. An Admin can turn it on under Schema → {label} → Supports → Search.
      </p>
    );
  }
  return (
    <div className="list-search">
      <SearchBox
        label={`Search ${label}`}
        hideLabel
        value={text}
        onValue={setText}
        onSubmit={(v) => onQuery(v.trim() || undefined)}
        collections={[collection]}
        locale={locale}
        placeholder={`Search ${label.toLowerCase()}: words, "a phrase", prefix*`}
      />
    </div>
  );
}

/** One select per taxonomy attached to the collection; the list shows entries carrying the chosen term. */
export function TermFilters({
  collection,
  locale,
  term,
  onTerm,
}: {
  collection: string;
  locale: string;
  /** `<taxonomy>:<slug>`, as the content list's `term` parameter takes it. */
  term: string | undefined;
  onTerm: (term: string | undefined) => void;
}) {
  const taxonomies = useCollectionTaxonomies(collection, locale);
  return (
    <>
      {(taxonomies.data ?? []).map((t) => (
        <TermSelect key={t.name} taxonomy={t} locale={locale} term={term} onTerm={onTerm} />
      ))}
    </>
  );
}

function TermSelect({
  taxonomy,
  locale,
  term,
  onTerm,
}: {
  taxonomy: Taxonomy;
  locale: string;
  term: string | undefined;
  onTerm: (term: string | undefined) => void;
}) {
  const terms = useTaxonomyTerms(taxonomy.name, locale);
  const prefix = `${taxonomy.name}:`;
  const value = term?.startsWith(prefix) ? term.slice(prefix.length) : '';
  const rows = termTree(terms.data?.terms ?? []);
  return (
    <label className="mini-field">
      <span>{taxonomy.labelSingular || taxonomy.label}</span>
      <select
        className="input select input--small"
        value={value}
        disabled={terms.isPending}
        onChange={(e) => onTerm(e.target.value ? `${prefix}${e.target.value}` : undefined)}
      >
        <option value="">Any {taxonomy.labelSingular.toLowerCase() || 'term'}</option>
        {value && !rows.some((r) => r.term.slug === value) ? <option value={value}>{value}</option> : null}
        {rows.map(({ term: t, depth }) => (
          <option key={t.id} value={t.slug}>
            {`${'\u2003'.repeat(depth)}${depth ? '└ ' : ''}${t.label}`}
          </option>
        ))}
      </select>
    </label>
  );
}
