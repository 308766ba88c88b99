import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { MenuItemInput } from '../../api/structure';
import { Button } from '../../components/Button';
import { ErrorMessage, Spinner } from '../../components/Feedback';
import { SelectField, TextField } from '../../components/Field';
import { Section } from '../../components/Page';
import { useDebounced } from '../../components/search';
import { issueFor, otherIssues } from '../../lib/forms';

type Tab = 'url' | 'content' | 'term';

const TABS: Array<{ id: Tab; label: string }> = [
  { id: 'content', label: 'Entry' },
  { id: 'term', label: 'Term' },
  { id: 'url', label: 'Link' },
];

/** Add an item at the end of the menu: an entry, a term or a link, each with its picker. */
export function AddItem({
  name,
  locale,
  onAdded,
}: {
  name: string;
  locale: string;
  onAdded: (message: string) => void;
}) {
  const [tab, setTab] = useState<Tab>('content');
  const add = useMutation({
    mutationFn: (body: MenuItemInput) =>
      unwrap(api.POST('/menus/{name}/items', { params: { path: { name }, query: { locale } }, body })),
    onSuccess: (item) => onAdded(`Added “${item.label}” at the end of the menu.`),
  });
  return (
    <Section id="add-item" title="Add an item" description="New items go last; drag them into place.">
      <div className="tabs" role="tablist" aria-label="What to add">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            className={tab === t.id ? 'tab tab--active' : 'tab'}
            onClick={() => {
              setTab(t.id);
              add.reset();
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="tabpanel">
        {tab === 'url' ? <LinkForm add={add} /> : null}
        {tab === 'content' ? <EntryPicker locale={locale} add={add} /> : null}
        {tab === 'term' ? <TermPicker locale={locale} add={add} /> : null}
      </div>
    </Section>
  );
}

type Add = { mutate: (body: MenuItemInput) => void; isPending: boolean; error: unknown };

function LinkForm({ add }: { add: Add }) {
  const [label, setLabel] = useState('');
  const [url, setUrl] = useState('');
  function submit(e: FormEvent) {
    e.preventDefault();
    add.mutate({ kind: 'url', label: label.trim(), url: url.trim() });
  }
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <div className="grid-2">
        <TextField
          label="Link label"
          name="link-label"
          value={label}
          onValue={setLabel}
          error={issueFor(add.error, 'label')}
        />
        <TextField
          label="Address"
          hint="https://…, mailto:, tel:, a path on your site such as /about, or #section."
          name="link-url"
          value={url}
          onValue={setUrl}
          error={issueFor(add.error, 'url')}
        />
      </div>
      <ErrorMessage error={add.error} extra={otherIssues(add.error, ['label', 'url'])} />
      <div className="actions">
        <Button type="submit" variant="primary" size="small" busy={add.isPending}>
          Add link
        </Button>
      </div>
    </form>
  );
}

/**
 * Entries of a collection: newest first a page at a time, or, while something
 * is typed, those whose title, slug or ID matches (the content lookup the
 * reference fields use), so nobody has to know an entry's ID.
 */
function EntryPicker({ locale, add }: { locale: string; add: Add }) {
  const collections = useQuery({
    queryKey: ['schema', 'collections'],
    queryFn: () => unwrap(api.GET('/schema/collections')),
  });
  const [collection, setCollection] = useState('');
  const [find, setFind] = useState('');
  const asked = useDebounced(find.trim(), 250);
  const chosen = collection || collections.data?.items[0]?.slug || '';
  const entries = useInfiniteQuery({
    queryKey: ['menu-picker', 'entries', chosen, locale],
    enabled: Boolean(chosen) && !asked,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/content/{collection}', {
          params: { path: { collection: chosen }, query: { locale, limit: 10, cursor: pageParam } },
        }),
      ),
    getNextPageParam: (last) => last.nextCursor,
  });
  const found = useQuery({
    queryKey: ['menu-picker', 'lookup', chosen, locale, asked],
    enabled: Boolean(chosen && asked),
    queryFn: () =>
      unwrap(
        api.GET('/admin/content/{collection}/lookup', {
          params: { path: { collection: chosen }, query: { q: asked, locale, limit: 20 } },
        }),
      ),
  });
  if (collections.isPending) return <Spinner />;
  if (collections.isError) return <ErrorMessage error={collections.error} />;
  if (!collections.data.items.length)
    return <p className="empty">There are no collections yet, so no entries to link.</p>;
  const titleOf = (e: { data: Record<string, unknown>; slug: string | null; id: string }) =>
    String(e.data.title ?? e.data.name ?? e.slug ?? e.id);
  const pick = (e: { id: string }) => add.mutate({ kind: 'content', collection: chosen, entryId: e.id });
  const list = entries.data?.pages.flatMap((p) => p.items) ?? [];
  const matches = found.data?.items ?? [];
  return (
    <div className="stack">
      <div className="grid-2">
        <SelectField label="Collection" name="picker-collection" value={chosen} onValue={setCollection}>
          {collections.data.items.map((c) => (
            <option key={c.slug} value={c.slug}>
              {c.label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Find an entry"
          hint="Part of its title, slug or ID."
          name="picker-find"
          type="search"
          autoComplete="off"
          value={find}
          onValue={setFind}
        />
      </div>
      <ErrorMessage error={add.error} extra={otherIssues(add.error, [])} />
      {asked ? (
        <>
          {found.isPending ? <Spinner label="Looking…" /> : null}
          <ErrorMessage error={found.error} />
          {found.isSuccess && !matches.length ? (
            <p className="empty">No entry in this language matches “{asked}”.</p>
          ) : null}
          <ul className="rows" aria-label="Matching entries">
            {matches.map((e) => (
              <EntryChoice
                key={e.id}
                title={e.title ?? e.slug ?? e.id}
                meta={e}
                onPick={() => pick(e)}
                busy={add.isPending}
              />
            ))}
          </ul>
        </>
      ) : (
        <>
          {entries.isPending ? <Spinner label="Loading entries…" /> : null}
          {entries.isSuccess && !list.length ? <p className="empty">No entries in this language yet.</p> : null}
          <ul className="rows" aria-label="Entries to add">
            {list.map((e) => (
              <EntryChoice key={e.id} title={titleOf(e)} meta={e} onPick={() => pick(e)} busy={add.isPending} />
            ))}
          </ul>
          {entries.hasNextPage ? (
            <Button
              size="small"
              variant="ghost"
              onClick={() => entries.fetchNextPage()}
              busy={entries.isFetchingNextPage}
            >
              Show more entries
            </Button>
          ) : null}
        </>
      )}
    </div>
  );
}

function EntryChoice({
  title,
  meta,
  onPick,
  busy,
}: {
  title: string;
  meta: { slug: string | null; status: string };
  onPick: () => void;
  busy: boolean;
}) {
  return (
    <li className="row">
      <div className="row__main">
        <p className="row__title">{title}</p>
        <p className="row__meta">
          {meta.slug ? <span className="chip">{meta.slug}</span> : null}
          <span>{meta.status}</span>
        </p>
      </div>
      <Button size="small" onClick={onPick} disabled={busy}>
        Add<span className="visually-hidden"> {title}</span>
      </Button>
    </li>
  );
}

/** Terms of a taxonomy in this language, searched on the server. */
function TermPicker({ locale, add }: { locale: string; add: Add }) {
  const taxonomies = useQuery({
    queryKey: ['menu-picker', 'taxonomies', locale],
    queryFn: () => unwrap(api.GET('/taxonomies', { params: { query: { locale, limit: 100 } } })),
  });
  const [taxonomy, setTaxonomy] = useState('');
  const [search, setSearch] = useState('');
  const asked = useDebounced(search.trim(), 250);
  const chosen = taxonomy || taxonomies.data?.items[0]?.name || '';
  const terms = useQuery({
    queryKey: ['menu-picker', 'terms', chosen, locale, asked],
    enabled: Boolean(chosen),
    queryFn: () =>
      unwrap(
        api.GET('/taxonomies/{name}/terms', {
          params: { path: { name: chosen }, query: { locale, search: asked || undefined, limit: 20 } },
        }),
      ),
  });
  if (taxonomies.isPending) return <Spinner />;
  if (taxonomies.isError) return <ErrorMessage error={taxonomies.error} />;
  if (!taxonomies.data.items.length) return <p className="empty">There are no taxonomies yet, so no terms to link.</p>;
  const items = terms.data?.items ?? [];
  return (
    <div className="stack">
      <div className="grid-2">
        <SelectField label="Taxonomy" name="picker-taxonomy" value={chosen} onValue={setTaxonomy}>
          {taxonomies.data.items.map((t) => (
            <option key={t.name} value={t.name}>
              {t.label}
            </option>
          ))}
        </SelectField>
        <TextField label="Find a term" name="picker-term" type="search" value={search} onValue={setSearch} />
      </div>
      <ErrorMessage error={add.error} />
      {terms.isSuccess && !items.length ? <p className="empty">No term in this language matches.</p> : null}
      <ul className="rows" aria-label="Terms to add">
        {items.map((t) => (
          <li key={t.id} className="row">
            <div className="row__main">
              <p className="row__title">{t.label}</p>
              <p className="row__meta">
                <span className="chip">{t.slug}</span>
              </p>
            </div>
            <Button size="small" onClick={() => add.mutate({ kind: 'term', termId: t.id })} disabled={add.isPending}>
              Add<span className="visually-hidden"> {t.label}</span>
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}
