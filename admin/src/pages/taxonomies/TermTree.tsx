import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { api, unwrap } from '../../api/client';
import { keys, type Taxonomy, type Term } from '../../api/structure';
import { Button } from '../../components/Button';
import { ErrorMessage, Notice, Spinner } from '../../components/Feedback';
import { TextField } from '../../components/Field';
import { LocaleSelect } from '../../components/LocaleSelect';
import { Section } from '../../components/Page';
import { moveIds, SortableList } from '../../components/SortableList';
import { issueFor, optional, otherIssues } from '../../lib/forms';
import { useLocales } from '../../lib/locales';
import { TermEditor } from './TermEditor';

const PAGE = 100;

/**
 * The terms of one locale as a tree: each sibling group is a sortable list
 * (drag, or the up and down buttons), children load when a term is opened.
 * Moving a term under another parent is done in its editor.
 */
export function TermTree({ taxonomy }: { taxonomy: Taxonomy }) {
  const { defaultLocale } = useLocales();
  const [locale, setLocale] = useState(defaultLocale);
  const [search, setSearch] = useState('');
  const [notice, setNotice] = useState<string | null>(null);
  const searching = search.trim().length > 0;
  return (
    <Section
      id="terms"
      title="Terms"
      description={
        taxonomy.hierarchical
          ? 'Drag terms to order them among their siblings; open a term to see its children. The order is shared by every language.'
          : 'Drag terms to order them. The order is shared by every language.'
      }
    >
      <div className="toolbar">
        <LocaleSelect value={locale} onValue={setLocale} label="Language" />
        <TextField
          label="Find terms"
          name="term-search"
          type="search"
          placeholder="Label or slug"
          value={search}
          onValue={setSearch}
        />
      </div>
      <AddTerm taxonomy={taxonomy} locale={locale} parent={null} onAdded={(t) => setNotice(`Added “${t.label}”.`)} />
      {notice ? <Notice tone="success">{notice}</Notice> : null}
      <Siblings
        taxonomy={taxonomy}
        locale={locale}
        parent={searching ? undefined : 'root'}
        search={searching ? search.trim() : undefined}
        depth={0}
        onNotice={setNotice}
      />
    </Section>
  );
}

/** One sibling group (or search results): loaded a page at a time, sortable unless it is a search. */
function Siblings({
  taxonomy,
  locale,
  parent,
  search,
  depth,
  onNotice,
}: {
  taxonomy: Taxonomy;
  locale: string;
  /** `root`, a term ID, or undefined with a search. */
  parent?: string;
  search?: string;
  depth: number;
  onNotice: (message: string) => void;
}) {
  const queryClient = useQueryClient();
  const name = taxonomy.name;
  const list = useInfiniteQuery({
    queryKey: [...keys.terms(name), { locale, parent, search }],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/taxonomies/{name}/terms', {
          params: {
            path: { name },
            query: {
              locale,
              parent: taxonomy.hierarchical ? parent : undefined,
              search,
              cursor: pageParam,
              limit: PAGE,
            },
          },
        }),
      ),
    getNextPageParam: (last) => last.nextCursor,
  });
  const terms = list.data?.pages.flatMap((p) => p.items) ?? [];
  const reorder = useMutation({
    mutationFn: (ids: string[]) =>
      unwrap(api.POST('/taxonomies/{name}/reorder', { params: { path: { name } }, body: { ids } })),
    onMutate: (ids) => {
      // Show the new order at once; the refetch confirms it.
      queryClient.setQueryData([...keys.terms(name), { locale, parent, search }], (old: typeof list.data) =>
        old
          ? {
              ...old,
              pages: [{ ...old.pages[0], items: ids.map((id) => terms.find((t) => t.id === id) as Term) }],
              pageParams: [old.pageParams[0]],
            }
          : old,
      );
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.terms(name) }),
  });

  if (list.isPending) return <Spinner label="Loading terms…" />;
  if (list.isError) return <ErrorMessage error={list.error} />;
  if (!terms.length) {
    if (depth > 0) return null;
    return (
      <p className="empty">{search ? 'No term matches.' : 'No terms in this language yet. Add the first one above.'}</p>
    );
  }
  const ids = terms.map((t) => t.id);
  const row = (term: Term, handle: ReactNode, index: number) => (
    <TermRow
      taxonomy={taxonomy}
      term={term}
      locale={locale}
      depth={depth}
      handle={handle}
      onMove={search ? undefined : (delta) => reorder.mutate(moveIds(ids, index, delta))}
      first={index === 0}
      last={index === terms.length - 1}
      onNotice={onNotice}
    />
  );
  return (
    <div className={depth ? 'tree__children' : 'tree'}>
      <ErrorMessage error={reorder.error} />
      <SortableList
        items={terms}
        ariaLabel={depth ? 'Child terms' : 'Terms'}
        label={(t) => t.label}
        disabled={Boolean(search) || reorder.isPending}
        onReorder={(order) => reorder.mutate(order)}
        render={row}
      />
      {list.hasNextPage ? (
        <Button size="small" variant="ghost" onClick={() => list.fetchNextPage()} busy={list.isFetchingNextPage}>
          Show more terms
        </Button>
      ) : null}
    </div>
  );
}

function TermRow({
  taxonomy,
  term,
  locale,
  depth,
  handle,
  onMove,
  first,
  last,
  onNotice,
}: {
  taxonomy: Taxonomy;
  term: Term;
  locale: string;
  depth: number;
  handle: ReactNode;
  onMove?: (delta: number) => void;
  first: boolean;
  last: boolean;
  onNotice: (message: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const [adding, setAdding] = useState(false);
  const nested = taxonomy.hierarchical;
  return (
    <div className="term">
      <div className="term__line">
        {handle}
        {nested ? (
          <button
            type="button"
            className="tree__toggle"
            aria-expanded={open}
            aria-label={`${open ? 'Close' : 'Open'} ${term.label}`}
            disabled={term.childCount === 0}
            onClick={() => setOpen((v) => !v)}
          >
            <span aria-hidden="true">{term.childCount ? (open ? '▾' : '▸') : '·'}</span>
          </button>
        ) : null}
        <div className="term__main">
          <span className="term__label">{term.label}</span>
          <span className="chip">{term.slug}</span>
          <span className="muted small">
            {term.count} {term.count === 1 ? 'entry' : 'entries'}
            {nested && term.childCount ? ` · ${term.childCount} below` : ''}
          </span>
        </div>
        <div className="term__actions">
          {onMove ? (
            <>
              <Button size="small" variant="ghost" disabled={first} onClick={() => onMove(-1)}>
                <span aria-hidden="true">↑</span>
                <span className="visually-hidden">Move {term.label} up</span>
              </Button>
              <Button size="small" variant="ghost" disabled={last} onClick={() => onMove(1)}>
                <span aria-hidden="true">↓</span>
                <span className="visually-hidden">Move {term.label} down</span>
              </Button>
            </>
          ) : null}
          {nested && depth < 10 ? (
            <Button size="small" variant="ghost" onClick={() => setAdding((v) => !v)} aria-expanded={adding}>
              Add child<span className="visually-hidden"> to {term.label}</span>
            </Button>
          ) : null}
          <Button size="small" variant="ghost" onClick={() => setEditing((v) => !v)} aria-expanded={editing}>
            Edit<span className="visually-hidden"> {term.label}</span>
          </Button>
        </div>
      </div>
      {adding ? (
        <AddTerm
          taxonomy={taxonomy}
          locale={locale}
          parent={term}
          onAdded={(t) => {
            setAdding(false);
            setOpen(true);
            onNotice(`Added “${t.label}” under “${term.label}”.`);
          }}
        />
      ) : null}
      {editing ? (
        <TermEditor
          taxonomy={taxonomy}
          term={term}
          onDone={(message) => {
            setEditing(false);
            if (message) onNotice(message);
          }}
        />
      ) : null}
      {open && nested ? (
        <Siblings taxonomy={taxonomy} locale={locale} parent={term.id} depth={depth + 1} onNotice={onNotice} />
      ) : null}
    </div>
  );
}

function AddTerm({
  taxonomy,
  locale,
  parent,
  onAdded,
}: {
  taxonomy: Taxonomy;
  locale: string;
  parent: Term | null;
  onAdded: (term: Term) => void;
}) {
  const queryClient = useQueryClient();
  const [label, setLabel] = useState('');
  const [slug, setSlug] = useState('');
  const [local, setLocal] = useState<string | undefined>();
  const add = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/taxonomies/{name}/terms', {
          params: { path: { name: taxonomy.name } },
          body: { label: label.trim(), slug: optional(slug), locale, parentId: parent?.id },
        }),
      ),
    onSuccess: (t) => {
      setLabel('');
      setSlug('');
      queryClient.invalidateQueries({ queryKey: keys.terms(taxonomy.name) });
      onAdded(t);
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    if (!label.trim()) {
      setLocal('Enter the term’s label.');
      return;
    }
    setLocal(undefined);
    add.mutate();
  }
  return (
    <form
      className={parent ? 'subform subform--nested' : 'stack'}
      onSubmit={submit}
      noValidate
      aria-label={parent ? `Add a term under ${parent.label}` : 'Add a term'}
    >
      <div className="inline-form inline-form--3">
        <TextField
          label={parent ? `New term under “${parent.label}”` : 'New term'}
          name="term-label"
          placeholder="Label"
          value={label}
          onValue={setLabel}
          error={local ?? issueFor(add.error, 'label')}
        />
        <TextField
          label="Slug"
          name="term-slug"
          optional
          placeholder="from the label"
          value={slug}
          onValue={setSlug}
          error={issueFor(add.error, 'slug')}
        />
        <Button type="submit" variant="primary" size="small" busy={add.isPending}>
          Add term
        </Button>
      </div>
      <ErrorMessage error={add.error} extra={otherIssues(add.error, ['label', 'slug'])} />
    </form>
  );
}
