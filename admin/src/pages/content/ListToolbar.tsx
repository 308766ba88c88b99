import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { bylinesApi } from '../../api/bylines';
import type { CollectionModel } from '../../api/content';
import { Button } from '../../components/Button';
import { ListSearchField, TermFilters } from './ListFinders';
import { decodeFilters, type EntryListSearch, encodeFilters, type FieldFilter } from './listSearch';

const SYSTEM_ORDERS = [
  { value: 'createdAt', label: 'Created' },
  { value: 'updatedAt', label: 'Updated' },
  { value: 'publishedAt', label: 'Published' },
  { value: 'slug', label: 'Slug' },
];
const OPS: Array<{ value: FieldFilter['op']; label: string }> = [
  { value: 'eq', label: 'is' },
  { value: 'ne', label: 'is not' },
  { value: 'gt', label: '>' },
  { value: 'gte', label: '≥' },
  { value: 'lt', label: '<' },
  { value: 'lte', label: '≤' },
];

/** Search, locale, status, author byline, terms, order and indexed-field filters; every change lands in the address. */
export function ListToolbar({
  collection,
  locales,
  locale,
  search,
  onSearch,
}: {
  collection: CollectionModel;
  locales: string[];
  locale: string;
  search: EntryListSearch;
  onSearch: (patch: Partial<EntryListSearch>) => void;
}) {
  const indexed = collection.fields.filter((f) => f.indexed);
  const filters = decodeFilters(search.filters);
  const bylines = useQuery({
    queryKey: ['bylines', locale],
    queryFn: () => bylinesApi.list({ locale, limit: 100 }),
    staleTime: 60_000,
  });
  const trash = search.view === 'trash';
  return (
    <search className="list-toolbar" aria-label="Filter and sort entries">
      {trash ? null : (
        <ListSearchField
          collection={collection.slug}
          label={collection.label}
          locale={locale}
          searchable={collection.supports.includes('search')}
          q={search.q}
          onQuery={(q) => onSearch({ q })}
        />
      )}
      <div className="list-toolbar__row">
        {locales.length > 1 ? (
          <label className="mini-field">
            <span>Locale</span>
            <select
              className="input select input--small"
              value={locale}
              onChange={(e) => onSearch({ locale: e.target.value })}
            >
              {locales.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        {trash ? null : (
          <label className="mini-field">
            <span>Status</span>
            <select
              className="input select input--small"
              value={search.status ?? ''}
              onChange={(e) => onSearch({ status: (e.target.value || undefined) as EntryListSearch['status'] })}
            >
              <option value="">Any status</option>
              <option value="draft">Draft</option>
              <option value="published">Published</option>
              <option value="scheduled">Scheduled</option>
            </select>
          </label>
        )}
        <label className="mini-field">
          <span>Byline</span>
          <select
            className="input select input--small"
            value={search.byline ?? ''}
            onChange={(e) => onSearch({ byline: e.target.value || undefined })}
          >
            <option value="">Anyone</option>
            {(bylines.data?.items ?? []).map((b) => (
              <option key={b.id} value={b.id}>
                {b.displayName}
              </option>
            ))}
          </select>
        </label>
        <label className="mini-field">
          <span>Sort by</span>
          <select
            className="input select input--small"
            value={search.orderBy ?? 'createdAt'}
            onChange={(e) => onSearch({ orderBy: e.target.value })}
          >
            {SYSTEM_ORDERS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
            {indexed.map((f) => (
              <option key={f.slug} value={f.slug}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <Button
          size="small"
          variant="ghost"
          aria-label={
            search.order === 'asc' ? 'Ascending order: switch to descending' : 'Descending order: switch to ascending'
          }
          onClick={() => onSearch({ order: search.order === 'asc' ? 'desc' : 'asc' })}
        >
          {search.order === 'asc' ? '↑ Ascending' : '↓ Descending'}
        </Button>
        <TermFilters
          collection={collection.slug}
          locale={locale}
          term={search.term}
          onTerm={(term) => onSearch({ term })}
        />
      </div>
      {indexed.length ? (
        <FieldFilters
          fields={indexed}
          filters={filters}
          onChange={(list) => onSearch({ filters: encodeFilters(list) })}
        />
      ) : null}
    </search>
  );
}

function FieldFilters({
  fields,
  filters,
  onChange,
}: {
  fields: CollectionModel['fields'];
  filters: FieldFilter[];
  onChange: (list: FieldFilter[]) => void;
}) {
  const [field, setField] = useState(fields[0]?.slug ?? '');
  const [op, setOp] = useState<FieldFilter['op']>('eq');
  const [value, setValue] = useState('');
  const def = fields.find((f) => f.slug === field);
  function add() {
    if (!def) return;
    let v: FieldFilter['value'] = value;
    if (def.type === 'number' || def.type === 'integer') {
      if (value.trim() === '' || Number.isNaN(Number(value))) return;
      v = Number(value);
    }
    if (def.type === 'boolean') v = value === 'true';
    onChange([...filters.filter((f) => !(f.field === field && f.op === op)), { field, op, value: v }]);
    setValue('');
  }
  return (
    <div className="field-filters">
      <form
        className="list-toolbar__row"
        onSubmit={(e) => {
          e.preventDefault();
          add();
        }}
      >
        <label className="mini-field">
          <span>Field</span>
          <select className="input select input--small" value={field} onChange={(e) => setField(e.target.value)}>
            {fields.map((f) => (
              <option key={f.slug} value={f.slug}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <label className="mini-field">
          <span>Condition</span>
          <select
            className="input select input--small"
            value={op}
            onChange={(e) => setOp(e.target.value as FieldFilter['op'])}
          >
            {OPS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <div className="mini-field">
          <span id="filter-value-label">Value</span>
          {def?.type === 'boolean' ? (
            <select
              className="input select input--small"
              aria-labelledby="filter-value-label"
              value={value}
              onChange={(e) => setValue(e.target.value)}
            >
              <option value="true">yes</option>
              <option value="false">no</option>
            </select>
          ) : (
            <input
              className="input input--small"
              aria-labelledby="filter-value-label"
              type={def?.type === 'number' || def?.type === 'integer' ? 'number' : 'text'}
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
          )}
        </div>
        <Button size="small" type="submit">
          Add filter
        </Button>
      </form>
      {filters.length ? (
        <ul className="chips" aria-label="Active filters">
          {filters.map((f) => (
            <li key={`${f.field}-${f.op}`} className="chip">
              {fields.find((x) => x.slug === f.field)?.label ?? f.field} {OPS.find((o) => o.value === f.op)?.label}{' '}
              <strong>{String(f.value)}</strong>
              <button
                type="button"
                className="chip__remove"
                aria-label={`Remove filter on ${f.field}`}
                onClick={() => onChange(filters.filter((x) => x !== f))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
